// The Leak Data Finder with a leak-search vendor (LeakCheck, faked on 127.0.0.1): one charge for the
// index and the vendor together, every record labelled with where it was found, identical records
// merged, a failing vendor never failing the search, and further pages read from the paid search.
import type { LeakRecord } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookups } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { DEHASHED_FAKE_KEY, dehashedFake } from '../fakes/dehashed.ts';
import { LEAKCHECK_FAKE_KEY, leakCheckFake, leakCheckFakeRows } from '../fakes/leakcheck.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

let t: TestApp;
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;

const LOCAL = { kind: 'local', name: 'Local index' };
const VENDOR = { kind: 'vendor', name: 'LeakCheck' };
/** The vendor's timeout in this file: short, so that the silent vendor's test stays quick. */
const TIMEOUT_MS = 600;

/** A row of the fake's answer, as the test reads it. */
interface FakeRow {
  email: string;
  username: string;
  phone: string;
  first_name: string;
  last_name: string;
  address?: string;
  source: { name: string; breach_date: string };
}
const fakeRows = (email: string) => leakCheckFakeRows('email', email) as unknown as FakeRow[];

/** The fake's row as a local record of the same breach: identical, so it must merge. */
const asLocal = (row: FakeRow) => ({
  name: `${row.first_name} ${row.last_name}`,
  email: row.email,
  phone: row.phone,
  username: row.username,
  address: row.address,
});

beforeAll(async () => {
  upstream = await startFakeUpstream(leakCheckFake());
  t = await createTestApp({
    env: {
      RATE_LIMIT_ENABLED: 'false',
      LEAKCHECK_API_KEY: LEAKCHECK_FAKE_KEY,
      LEAKCHECK_BASE_URL: `${upstream.url}/api/v2`,
      LEAKCHECK_TIMEOUT_MS: String(TIMEOUT_MS),
    },
  });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});

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

const requestsFor = (email: string) =>
  upstream.requests.filter((req) => req.url.startsWith(`/api/v2/query/${encodeURIComponent(email)}?`)).length;

describe('Leak Data Finder federated with LeakCheck', () => {
  it('merges the vendor records with the local ones, labels each with its origins, and merges identical records', async () => {
    upstream.setHandler(leakCheckFake());
    const email = 'kabir.menon@example.test';
    const rows = fakeRows(email);
    const [twin] = rows;
    // The first vendor row is also in the local index (same breach, same person); another local record is not.
    const [twinId] = await addLeakRecords(t.db, { name: twin!.source.name, breachDate: '2021-03-04' }, [
      asLocal(twin!),
    ]);
    const [onlyLocalId] = await addLeakRecords(t.db, { name: 'Local Only Dump', breachDate: '2018-01-01' }, [
      { name: 'Kabir M', email, username: 'kabir_local' },
    ]);
    const { user, headers } = await investigator(5);

    const res = await search(headers, [{ type: 'email', value: 'Kabir.Menon@example.test' }]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(requestsFor(email)).toBe(1);
    expect(body).toMatchObject({
      total: 2 + rows.length - 1,
      total_capped: false,
      credits: 4,
      cached: false,
    });
    expect(body.origin_status).toEqual([
      { ...LOCAL, status: 'ok', records: 2 },
      { ...VENDOR, status: 'ok', records: rows.length },
    ]);

    const data = body.data as LeakRecord[];
    // The local matches first, by id, then the vendor's own records.
    expect(data.slice(0, 2).map((r) => r.id)).toEqual([twinId, onlyLocalId]);
    expect(data[0]!.origins).toEqual([LOCAL, VENDOR]);
    expect(data[1]!.origins).toEqual([LOCAL]);
    const vendorOnly = data.slice(2);
    expect(vendorOnly).toHaveLength(rows.length - 1);
    for (const [i, record] of vendorOnly.entries()) {
      const row = rows[i + 1]!;
      expect(record).toMatchObject({
        source: { name: row.source.name, breach_date: row.source.breach_date, description: null },
        name: `${row.first_name} ${row.last_name}`,
        email,
        phone: row.phone,
        username: row.username,
        address: row.address ?? null,
        matched: ['email'],
        origins: [VENDOR],
      });
      expect(record.id).toMatch(/^leakcheck:[0-9a-f]{16}$/);
    }
    // The fake sends a password with its first row: it never reaches an answer or the stored result.
    expect(res.body).not.toMatch(/synthetic-not-a-secret|password/i);

    const charged = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(charged.map((r) => r.cost)).toEqual([1]);
    expect(charged[0]!.sourcesAnswered).toEqual(['leaks', 'leak:leakcheck']);
    expect(JSON.stringify(charged[0]!.result)).not.toMatch(/synthetic-not-a-secret|password/i);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('answers with the local records when the vendor fails, limits or stays silent, and charges once', async () => {
    const email = 'meera.kulkarni@example.test';
    await addLeakRecords(t.db, { name: 'Local Only Dump' }, [{ name: 'Meera Kulkarni', email }]);
    const silent = () => {
      // Never answers: the search must not wait past the vendor's timeout.
    };
    const cases: Array<[string, Parameters<typeof upstream.setHandler>[0]]> = [
      ['failed', (_req, res) => sendJson(res, 500, { success: false, error: 'Internal error' })],
      ['rate_limited', (_req, res) => sendJson(res, 429, { success: false }, { 'retry-after': '30' })],
      ['failed', (_req, res) => sendJson(res, 200, { success: false, error: 'Invalid type' })],
      [
        'failed',
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html>Maintenance</html>');
        },
      ],
      ['failed', (_req, res) => sendJson(res, 401, { success: false, error: 'Invalid X-API-Key' })],
      ['timed_out', silent],
    ];
    for (const [status, handler] of cases) {
      upstream.setHandler(handler);
      const { user, headers } = await investigator(3);
      const started = Date.now();
      const res = await search(headers, [{ type: 'email', value: email }]);
      expect(res.statusCode, `${status}: ${res.body}`).toBe(200);
      expect(Date.now() - started, status).toBeLessThan(TIMEOUT_MS + 3000);
      const body = res.json();
      expect(body, status).toMatchObject({ total: 1, credits: 2 });
      expect(
        body.data.map((r: LeakRecord) => r.origins),
        status,
      ).toEqual([[LOCAL]]);
      expect(body.origin_status, status).toEqual([
        { ...LOCAL, status: 'ok', records: 1 },
        { ...VENDOR, status, records: 0 },
      ]);
      const [row] = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
      expect(row!.sourceErrors, status).toEqual({ 'leak:leakcheck': expect.any(String) });
    }
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('keeps a vendor record with control characters and broken text, cleaned, rather than failing the search', async () => {
    const email = 'leela.nair@example.test';
    upstream.setHandler((_req, res) =>
      sendJson(res, 200, {
        success: true,
        found: 1,
        quota: 5,
        result: [
          {
            email,
            first_name: 'Le\u0000ela',
            last_name: 'Nair\ud800',
            city: 'Pu\u0000ne\u001b[31m',
            source: { name: 'Orbitly\u0000', breach_date: '2021-03' },
          },
        ],
      }),
    );
    const { user, headers } = await investigator(3);
    const res = await search(headers, [{ type: 'email', value: email }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject([
      {
        name: 'Leela Nair\ufffd',
        other: { city: 'Pune[31m' },
        source: { name: 'Orbitly' },
        origins: [VENDOR],
      },
    ]);
    const [row] = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(row!.status).toBe('complete');
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('serves further pages free from the records the paid search stored, the same set on every page', async () => {
    upstream.setHandler(leakCheckFake());
    const email = 'ishaan.bhat@example.test';
    const rows = fakeRows(email);
    await addLeakRecords(t.db, { name: 'Local Only Dump' }, [{ name: 'Ishaan B', email }]);
    const { user, headers } = await investigator(5);
    const fields = [{ type: 'email', value: email }];

    const first = await search(headers, fields, 'page=1&per_page=2');
    expect(first.statusCode, first.body).toBe(200);
    const total = 1 + rows.length;
    expect(first.json()).toMatchObject({ total, page: 1, credits: 4, cached: false });
    expect(first.json().data.map((r: LeakRecord) => r.origins)).toEqual([[LOCAL], [VENDOR]]);
    const asked = requestsFor(email);
    expect(asked).toBe(1);

    // The vendor now fails: later pages neither ask it nor lose its records.
    upstream.setHandler((_req, res) => sendJson(res, 500, {}));
    const second = await search(headers, fields, 'page=2&per_page=2');
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ total, page: 2, credits: 4, cached: true });
    expect(second.json().data.map((r: LeakRecord) => r.email)).toEqual(
      rows.slice(1, 3).map((row) => row.email),
    );
    expect(second.json().data.map((r: LeakRecord) => r.source.name)).toEqual(
      rows.slice(1, 3).map((row) => row.source.name),
    );
    expect(second.json().origin_status).toEqual(first.json().origin_status);
    const again = await search(headers, fields, 'page=1&per_page=2');
    expect(again.json()).toMatchObject({ cached: true, credits: 4 });
    expect(again.json().data).toEqual(first.json().data);
    expect(requestsFor(email)).toBe(asked);

    const past = await search(headers, fields, 'page=9&per_page=2');
    expect(past.statusCode).toBe(422);
    expect(past.json().credits).toBe(4);
    const charged = (await t.db.select().from(lookups).where(eq(lookups.userId, user.id))).filter(
      (r) => r.cost > 0,
    );
    expect(charged).toHaveLength(1);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('does not ask the vendor for a search it cannot run, and says so', async () => {
    upstream.setHandler(leakCheckFake());
    await addLeakRecords(t.db, { name: 'Local Only Dump' }, [{ name: 'Anvi Dhillon', username: 'anvi_d' }]);
    const before = upstream.requests.length;
    const { headers } = await investigator();
    const res = await search(headers, [{ type: 'name', value: 'anvi dhillon' }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(upstream.requests.length).toBe(before);
    expect(res.json().origin_status).toEqual([
      { ...LOCAL, status: 'ok', records: 1 },
      { ...VENDOR, status: 'unsupported', records: 0 },
    ]);
  });

  it('keeps only vendor records that match every row, as the local index would', async () => {
    upstream.setHandler(leakCheckFake());
    const email = 'tara.rao@example.test';
    const rows = fakeRows(email);
    const { headers } = await investigator();
    const named = await search(headers, [
      { type: 'email', value: email },
      { type: 'name', value: `${rows[1]!.first_name} ${rows[1]!.last_name}` },
    ]);
    expect(named.statusCode, named.body).toBe(200);
    const expected = rows.filter(
      (row) => row.first_name === rows[1]!.first_name && row.last_name === rows[1]!.last_name,
    );
    expect(named.json().data.map((r: LeakRecord) => r.source.name)).toEqual(
      expected.map((row) => row.source.name),
    );
    expect(named.json().data[0].matched.sort()).toEqual(['email', 'name']);

    const nobody = await search(headers, [
      { type: 'email', value: email },
      { type: 'name', value: 'Zoya Qadri' },
    ]);
    expect(nobody.json()).toMatchObject({ total: 0, data: [] });
    expect(nobody.json().origin_status).toEqual([
      { ...LOCAL, status: 'not_found', records: 0 },
      { ...VENDOR, status: 'not_found', records: 0 },
    ]);
  });
});

describe('Leak Data Finder federated with LeakCheck and DeHashed', () => {
  let both: TestApp;
  let leakCheck: Awaited<ReturnType<typeof startFakeUpstream>>;
  let deHashed: Awaited<ReturnType<typeof startFakeUpstream>>;
  beforeAll(async () => {
    leakCheck = await startFakeUpstream(leakCheckFake());
    deHashed = await startFakeUpstream(dehashedFake());
    both = await createTestApp({
      env: {
        RATE_LIMIT_ENABLED: 'false',
        LEAKCHECK_API_KEY: LEAKCHECK_FAKE_KEY,
        LEAKCHECK_BASE_URL: `${leakCheck.url}/api/v2`,
        DEHASHED_API_KEY: DEHASHED_FAKE_KEY,
        DEHASHED_BASE_URL: deHashed.url,
      },
    });
  });
  afterAll(async () => {
    await both.close();
    await leakCheck.close();
    await deHashed.close();
  });

  it('asks each vendor that can search the rows, reports each, and still charges once', async () => {
    await addLeakRecords(both.db, { name: 'Local Only Dump' }, [{ name: 'Sana Pillai', username: 'sana_p' }]);
    const user = await createUser(both.db, { credits: 3 });
    const { token } = await signIn(both, user.email, user.password);
    const res = await both.app.inject({
      method: 'POST',
      url: '/api/leak-data-finder/?page=1&per_page=10',
      payload: { fields: [{ type: 'name', value: 'PILLAI sana' }] },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(leakCheck.requests).toHaveLength(0);
    expect(deHashed.requests).toHaveLength(1);
    expect(JSON.parse(deHashed.requests[0]!.body).query).toBe('name:"pillai" AND name:"sana"');
    expect(body.origin_status).toEqual([
      { ...LOCAL, status: 'ok', records: 1 },
      { ...VENDOR, status: 'unsupported', records: 0 },
      { kind: 'vendor', name: 'DeHashed', status: 'ok', records: 2 },
    ]);
    expect(body.data.map((r: LeakRecord) => r.origins)).toEqual([
      [LOCAL],
      [{ kind: 'vendor', name: 'DeHashed' }],
      [{ kind: 'vendor', name: 'DeHashed' }],
    ]);
    for (const record of body.data as LeakRecord[]) expect(record.matched).toEqual(['name']);
    expect(res.body).not.toMatch(/synthetic-not-a-secret|synthetic-hash|password/i);
    expect(body.credits).toBe(2);
  });
});
