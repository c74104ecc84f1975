import { createHash } from 'node:crypto';
import {
  messages,
  nameTokens,
  normalizeLeakEmail,
  normalizeLeakPhone,
  normalizeLeakUsername,
} from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, leakSources, lookups } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { pageWindow } from '../../src/modules/leaks/federation.ts';
import { countAndReadPage, countMatches, readPage } from '../../src/modules/leaks/pages.ts';
import { conditionOf } from '../../src/modules/leaks/query.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;

type Row = {
  name?: string;
  email?: string;
  phone?: string;
  username?: string;
  address?: string;
  other?: Record<string, string>;
};

async function addSource(name: string, breachDate: string, rows: Row[]) {
  const [source] = await t.db
    .insert(leakSources)
    .values({ name, breachDate, description: `${name} (synthetic)` })
    .returning();
  for (const [i, r] of rows.entries()) {
    await t.db.execute(sql`
      insert into leak_records (source_id, record_hash, name, email, phone, username, address, other, email_norm, phone_norm, username_norm, name_tokens)
      values (${source!.id}, ${createHash('sha256')
        .update(`${name}:${i}:${JSON.stringify(r)}`)
        .digest('hex')},
        ${r.name ?? null}, ${r.email ?? null}, ${r.phone ?? null}, ${r.username ?? null}, ${r.address ?? null}, ${JSON.stringify(r.other ?? {})}::jsonb,
        ${r.email ? normalizeLeakEmail(r.email) : null}, ${r.phone ? normalizeLeakPhone(r.phone) : null},
        ${r.username ? normalizeLeakUsername(r.username) : null},
        array[${sql.join(
          (r.name ? nameTokens(r.name) : ['']).map((x) => sql`${x}`),
          sql`, `,
        )}]::text[])`);
  }
  return source!;
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  await addSource('Orbitly', '2021-03-04', [
    {
      name: 'Rohan Suresh Deshmukh',
      email: 'Rohan.Deshmukh90@example.com',
      phone: '+91 98765-43210',
      username: 'rohand90',
      other: { city: 'Pune' },
    },
    { name: 'José Álvarez', email: 'jose@example.test', username: 'jose_a' },
    { name: "O'Brien Test", email: "o'brien%@example.test", username: 'obrien' },
  ]);
  await addSource('Chaiwala Rewards', '2019-11-20', [
    { name: 'ROHAN DESHMUKH', phone: '9876543210', address: 'Baner, Pune' },
    { name: 'Rohan Kapoor', phone: '9000000001' },
  ]);
  // A common name with more matches than the total cap, inserted in one statement.
  const [big] = await t.db
    .insert(leakSources)
    // Marked as sandbox data: answers that show its records say so.
    .values({ name: 'Mass Dump', breachDate: '2020-01-01', sandbox: true })
    .returning();
  await t.db.execute(sql`
    insert into leak_records (source_id, record_hash, name, email, email_norm, name_tokens)
    select ${big!.id}, md5(g::text), 'Priya Sharma', 'priya' || g || '@example.test', 'priya' || g || '@example.test', array['priya','sharma']
    from generate_series(1, ${10_025}) g`);
});
afterAll(() => t.close());

async function investigator(credits = 10) {
  const user = await createUser(t.db, { credits });
  const { token } = await signIn(t, user.email, user.password);
  return { user, headers: { authorization: `Bearer ${token}` } };
}

const search = (headers: Record<string, string>, fields: unknown, query = 'page=1&per_page=10') =>
  t.app.inject({
    method: 'POST',
    url: `/api/leak-data-finder/?${query}`,
    payload: { fields } as object,
    headers,
  });

describe('POST /api/leak-data-finder', () => {
  it('combines rows with AND on normalized keys and says which fields matched', async () => {
    const { headers } = await investigator();
    const res = await search(headers, [
      { id: 1, type: 'name', value: 'rohan deshmukh', isValid: true, error: '' },
      { id: 2, type: 'phone', value: '919876543210', isValid: true, error: '' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      total: 2,
      total_capped: false,
      page: 1,
      per_page: 10,
      credits: 9,
      cached: false,
      sandbox: false,
    });
    expect(body.data.map((r: { source: { name: string } }) => r.source.name).sort()).toEqual([
      'Chaiwala Rewards',
      'Orbitly',
    ]);
    expect(body.data[0].matched.sort()).toEqual(['name', 'phone']);
    // Without leak-search vendors every record comes from the local index, which is the only origin.
    for (const record of body.data) expect(record.origins).toEqual([{ kind: 'local', name: 'Local index' }]);
    expect(body.origin_status).toEqual([{ kind: 'local', name: 'Local index', status: 'ok', records: 2 }]);
    const orbitly = body.data.find((r: { source: { name: string } }) => r.source.name === 'Orbitly');
    expect(orbitly).toMatchObject({
      email: 'Rohan.Deshmukh90@example.com',
      other: { city: 'Pune' },
      source: { breach_date: '2021-03-04' },
    });

    const accents = await search(headers, [{ type: 'name', value: 'JOSE alvarez' }]);
    expect(accents.json().data.map((r: { name: string }) => r.name)).toEqual(['José Álvarez']);
    const username = await search(headers, [{ type: 'username', value: 'RohanD90' }]);
    expect(username.json().total).toBe(1);
  });

  it('charges a new query once; paging it is free; totals are capped at 10,000', async () => {
    const { user, headers } = await investigator(3);
    const first = await search(headers, [{ type: 'name', value: 'Priya Sharma' }]);
    expect(first.json()).toMatchObject({
      total: 10_000,
      total_capped: true,
      credits: 2,
      cached: false,
      sandbox: true,
    });
    const last = await search(headers, [{ type: 'name', value: 'priya  SHARMA' }], 'page=1000&per_page=10');
    expect(last.statusCode).toBe(200);
    expect(last.json()).toMatchObject({ page: 1000, credits: 2, cached: true });
    expect(last.json().data).toHaveLength(10);
    const page50 = await search(headers, [{ type: 'name', value: 'Priya Sharma' }], 'page=50&per_page=10');
    expect(page50.json().data[0].id).not.toBe(first.json().data[0].id);
    const rows = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(rows.map((r) => r.cost).sort()).toEqual([0, 0, 1]);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('keeps the page the user paid for, which history reopens as it was seen; cached pages are not kept again', async () => {
    const { headers } = await investigator(3);
    const fields = [
      { type: 'name', value: 'rohan deshmukh' },
      { type: 'phone', value: '919876543210' },
    ];
    const paid = await search(headers, fields);
    expect(paid.statusCode, paid.body).toBe(200);
    const answer = paid.json();
    const cachedView = await search(headers, fields);
    expect(cachedView.json()).toMatchObject({ cached: true, credits: answer.credits });

    const [stored] = await t.db.select().from(lookups).where(eq(lookups.id, answer.lookup_id));
    expect(stored!.sandbox).toBe(false);
    expect(stored!.result).toEqual({
      total: answer.total,
      total_capped: false,
      page: 1,
      per_page: 10,
      sandbox: false,
      data: answer.data,
      origin_status: [{ kind: 'local', name: 'Local index', status: 'ok', records: 2 }],
    });
    const [again] = await t.db.select().from(lookups).where(eq(lookups.id, cachedView.json().lookup_id));
    expect(again!.result).toBeNull();

    // Reopening either row from history shows the paid page, records and matched fields included.
    for (const id of [answer.lookup_id, cachedView.json().lookup_id]) {
      const reopened = await t.app.inject({ method: 'GET', url: `/api/history/${id}`, headers });
      expect(reopened.statusCode, reopened.body).toBe(200);
      expect(reopened.json().result.data).toEqual(answer.data);
      expect([...reopened.json().result.data[0].matched].sort()).toEqual(['name', 'phone']);
    }
  });

  it('searches SQL and pattern metacharacters literally', async () => {
    const { headers } = await investigator();
    const exact = await search(headers, [{ type: 'email', value: "O'Brien%@example.test" }]);
    expect(exact.json().data.map((r: { name: string }) => r.name)).toEqual(["O'Brien Test"]);
    const wildcard = await search(headers, [{ type: 'email', value: '%@example.test' }]);
    expect(wildcard.json().total).toBe(0);
  });

  it('refuses bad rows with the spec messages and charges nothing', async () => {
    const { user, headers } = await investigator(5);
    const cases: Array<[unknown, string]> = [
      [[{ type: 'name', value: '' }], messages.leaks.required],
      [[{ type: 'name', value: 'R2D2' }], messages.leaks.invalidName],
      [[{ type: 'phone', value: '987654321' }], messages.leaks.invalidPhone],
      [[{ type: 'username', value: 'ab' }], messages.leaks.invalidUsername],
      [[{ type: 'email', value: 'not an email' }], messages.leaks.invalidEmail],
      [Array.from({ length: 5 }, () => ({ type: 'name', value: 'Rohan' })), messages.leaks.maxRows],
      [[], messages.leaks.required],
    ];
    for (const [fields, message] of cases) {
      const res = await search(headers, fields);
      expect(res.statusCode, JSON.stringify(fields).slice(0, 80)).toBe(422);
      expect(res.json().message).toBe(message);
    }
    for (const query of ['page=1&per_page=1000', 'page=0', 'page=abc', 'page=1&per_page=10&sort=name']) {
      const res = await search(headers, [{ type: 'name', value: 'Rohan' }], query);
      expect(res.statusCode, query).toBe(422);
    }
    const past = await search(headers, [{ type: 'name', value: 'Rohan Kapoor' }], 'page=9');
    expect(past.statusCode).toBe(422);
    expect(past.json().message).toBe(messages.leaks.pastLastPage(1));
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers });
    expect(me.json().credits).toBe(5);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
    const charged = (await t.db.select().from(lookups).where(eq(lookups.userId, user.id))).filter(
      (r) => r.status === 'complete',
    );
    expect(charged).toHaveLength(0);
  });

  it('keeps the rows as typed beside the normalized key, in the row, the trail and history', async () => {
    const { user, headers } = await investigator(3);
    const res = await search(headers, [
      { type: 'name', value: 'Rohan Deshmukh' },
      { type: 'email', value: 'Rohan.Deshmukh90@Example.com' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const typed = 'Name: Rohan Deshmukh · Email: Rohan.Deshmukh90@Example.com';
    const [row] = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(row).toMatchObject({ queryTyped: typed, status: 'complete' });
    expect(row!.query).not.toBe(typed);
    expect(row!.query).toContain('deshmukh');
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.action, 'lookup.leak')))
      .orderBy(auditEvents.id);
    expect(audit).toMatchObject({
      outcome: 'success',
      details: expect.objectContaining({ query_typed: typed, query: row!.query }),
    });
    const history = await t.app.inject({ method: 'GET', url: '/api/history', headers });
    expect(history.json().data[0]).toMatchObject({ query_typed: typed, query: row!.query });
  });

  it('strips control characters from the typed rows it keeps, and still refuses them where the rules do', async () => {
    const { user, headers } = await investigator(3);
    // A NUL inside a name is refused before the route by the control-character guard
    // (http/input-guard.ts); a line break by the name rule with its message. Nothing is charged.
    const refused = await search(headers, [{ type: 'name', value: 'Rohan\u0000Deshmukh' }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/must not contain control characters/);
    const broken = await search(headers, [{ type: 'name', value: 'Rohan\nDeshmukh' }]);
    expect(broken.statusCode).toBe(422);
    expect(broken.json().message).toBe(messages.leaks.invalidName);
    expect(await t.db.select().from(lookups).where(eq(lookups.userId, user.id))).toHaveLength(0);
  });

  it('records a search with no hit as no_record, not as a failure, and refunds it (the charging rule)', async () => {
    const { user, headers } = await investigator(3);
    const res = await search(headers, [{ type: 'name', value: 'Zebulon Quartermaine' }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 0, credits: 3, cached: false });
    const [row] = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(row).toMatchObject({ status: 'no_record', cost: 1, queryTyped: 'Name: Zebulon Quartermaine' });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.action, 'lookup.leak')))
      .orderBy(auditEvents.id);
    expect(audit).toMatchObject({
      outcome: 'no_record',
      cost: 0,
      details: expect.objectContaining({ refunded: 1 }),
    });
    // The same search again within the cache window is a free repeat, and found nothing either.
    const again = await search(headers, [{ type: 'name', value: 'zebulon  QUARTERMAINE' }]);
    expect(again.json()).toMatchObject({ total: 0, credits: 3, cached: true });
    const history = await t.app.inject({ method: 'GET', url: '/api/history', headers });
    expect(
      history.json().data.map((e: Record<string, unknown>) => [e.status, e.query_typed, e.refunded]),
    ).toEqual([
      ['no_record', 'Name: zebulon  QUARTERMAINE', false],
      ['no_record', 'Name: Zebulon Quartermaine', true],
    ]);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('answers 402 when the balance is short and 401 without a token', async () => {
    const { headers } = await investigator(0);
    const res = await search(headers, [{ type: 'name', value: 'Rohan' }]);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: 'Insufficient credits.', credits: 0 });
    expect((await search({}, [{ type: 'name', value: 'Rohan' }])).statusCode).toBe(401);
  });

  it('reads count and page in one statement exactly as the two statements do, on every page', async () => {
    const scopes = [{ includeSandbox: true }, { includeSandbox: false }];
    const queries = [
      [conditionOf('name', 'Priya Sharma')],
      [conditionOf('name', 'rohan deshmukh'), conditionOf('phone', '919876543210')],
      [conditionOf('email', 'Rohan.Deshmukh90@example.com')],
      [conditionOf('username', 'nobody-has-this')],
    ];
    let compared = 0;
    for (const scope of scopes)
      for (const conditions of queries)
        for (const [page, perPage] of [
          [1, 10],
          [2, 10],
          [334, 30],
          [1000, 10],
          [1001, 10],
        ] as const) {
          const matches = await countMatches(t.db, conditions, scope);
          const local = pageWindow(Math.min(matches, 10_000), page, perPage).local;
          const two =
            local.limit > 0 ? await readPage(t.db, conditions, local, scope) : { data: [], sandbox: false };
          const one = await countAndReadPage(
            t.db,
            conditions,
            pageWindow(10_000, page, perPage).local,
            scope,
          );
          expect(one.matches).toBe(matches);
          expect(one.data.slice(0, local.limit)).toEqual(two.data);
          expect(one.data.length === 0 || one.sandbox === two.sandbox).toBe(true);
          compared += two.data.length;
        }
    // The capped name query pages to its end (page 1000), and some pages hold nothing.
    expect(compared).toBeGreaterThan(40);
  });

  it('has an index for every query shape', async () => {
    // The plan must use the shape's index on every partition, never a sequential scan of the table.
    const shapes = [
      sql`select id from leak_records where email_norm = 'x@example.test' order by id limit 10`,
      sql`select id from leak_records where phone_norm = '9876543210' order by id limit 10`,
      sql`select id from leak_records where username_norm = 'rohand90' order by id limit 10`,
      sql`select id from leak_records where name_tokens @> array['rohan','deshmukh']::text[] order by id limit 10`,
    ];
    await t.db.execute(sql`analyze leak_records`);
    // One connection for the setting and the plans: SET LOCAL inside a transaction.
    const plans = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const out: string[] = [];
      for (const shape of shapes) out.push(JSON.stringify(await tx.execute(sql`explain ${shape}`)));
      return out;
    });
    for (const plan of plans) expect(plan).toMatch(/Index|Bitmap/);
    expect(plans.join('\n')).not.toMatch(/Seq Scan on leak_records_p\d/);
  });
});
