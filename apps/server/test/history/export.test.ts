// Exports of a user's own records from what the server stored: one lookup as CSV or JSON
// (GET /api/history/{id}/export) and the lookups list as CSV (GET /api/history.csv).
import { parse } from 'csv-parse/sync';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../src/db/schema.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' } });
});
afterAll(() => t.close());

async function signedIn(credits = 20) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { appMode: 'live', trustedDevice: deviceId, credits });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const get = (url: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId },
    });
  const post = (url: string, body: unknown) =>
    t.app.inject({ method: 'POST', url, ...json(body, deviceId, token) });
  return { user, get, post };
}

/** RFC 4180 back to rows (csv-parse, the server's own dependency). */
const rowsOf = (body: string): string[][] => parse(body, { relax_column_count: false });

const today = () => new Date().toISOString().slice(0, 10);

describe('GET /api/history/{id}/export', () => {
  it('exports a phone lookup as CSV (the merged profile, one row per value) and as JSON', async () => {
    const me = await signedIn();
    const tel = await me.get('/api/tel?number=919876543210&case_reference=EXPORT-1');
    expect(tel.statusCode).toBe(200);
    const id = tel.json().lookup_id as string;
    const credits = tel.json().credits as number;

    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="tel-919876543210-${today()}.csv"`);
    // No byte-order mark, like the audit export.
    expect(csv.body.charCodeAt(0)).not.toBe(0xfeff);
    const rows = rowsOf(csv.body);
    expect(rows[0]).toEqual(['section', 'label', 'value', 'source']);
    expect(rows.filter((r) => r[0] === 'Upi Ids')).toEqual([
      ['Upi Ids', '', 'rohan.deshmukh@oksbi', 'Gov'],
      ['Upi Ids', '', '9876543210@ybl', 'Gov'],
    ]);
    expect(rows.filter((r) => r[0] === 'RC Numbers')).toEqual([
      ['RC Numbers', '', 'MH12FP1234', 'Gov'],
      ['RC Numbers', '', 'MH14FP5678', 'Gov'],
    ]);
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) expect(row).toHaveLength(4);

    const file = await me.get(`/api/history/${id}/export?format=json`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="tel-919876543210-${today()}.json"`,
    );
    expect(file.body).toContain('\n  "lookup_id"');
    const document = file.json();
    expect(document).toMatchObject({
      lookup_id: id,
      kind: 'tel',
      query: '919876543210',
      case_reference: 'EXPORT-1',
    });
    expect(Number.isNaN(Date.parse(document.created_at))).toBe(false);
    expect(document.result.wpData).toEqual(tel.json().wpData);
    expect(document.result.credits).toBeUndefined();

    // Free, and each export is on the audit trail with its format.
    expect((await me.get('/api/history?per_page=1')).json().total).toBe(1);
    const [balance] = await t.db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, me.user.id));
    expect(balance?.credits).toBe(credits);
    const exports = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, me.user.id), eq(auditEvents.action, 'lookup.export')));
    expect(
      exports.map((e) => [
        e.outcome,
        e.target,
        e.cost,
        e.caseReference,
        (e.details as { format?: string } | null)?.format,
      ]),
    ).toEqual([
      ['success', id, 0, 'EXPORT-1', 'csv'],
      ['success', id, 0, 'EXPORT-1', 'json'],
    ]);
  });

  it('exports an e-mail lookup: sections with their sources', async () => {
    const me = await signedIn();
    const email = await me.get('/api/email?email=Rich.Demo%40example.test');
    const id = email.json().lookup_id as string;
    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="email-rich-demo-example-test-${today()}.csv"`,
    );
    const rows = rowsOf(csv.body);
    expect(rows[0]).toEqual(['section', 'label', 'value', 'source']);
    const sections = new Set(rows.slice(1).map((r) => r[0]));
    for (const section of [
      'Full Names and Alias',
      'Qualifications',
      'Experience',
      'Skills',
      'Internet Presence',
    ]) {
      expect(sections, section).toContain(section);
    }
    expect(rows.slice(1).every((r) => r[3] !== '')).toBe(true);
    const json = (await me.get(`/api/history/${id}/export?format=json`)).json();
    expect(json).toMatchObject({ kind: 'email', query: 'rich.demo@example.test', case_reference: null });
    expect(json.result.data.holeheData).toEqual(email.json().data.holeheData);
  });

  it('exports a leak page one row per record, neutralising formulas', async () => {
    await addLeakRecords(t.db, { name: 'Export Test Breach', breachDate: '2022-05-06' }, [
      { name: 'Export Person', username: 'exportuser1', address: '=HYPERLINK("http://x.test","a, b")' },
    ]);
    const me = await signedIn();
    const found = await me.post('/api/leak-data-finder/?page=1&per_page=10', {
      fields: [{ id: 1, type: 'username', value: 'exportuser1', isValid: true, error: '' }],
    });
    expect(found.statusCode, found.body).toBe(200);
    const id = found.json().lookup_id as string;
    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="leak-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(rowsOf(csv.body)).toEqual([
      ['source', 'breach_date', 'name', 'email', 'phone', 'username', 'address', 'other'],
      [
        'Export Test Breach',
        '2022-05-06',
        'Export Person',
        '',
        '',
        'exportuser1',
        `'=HYPERLINK("http://x.test","a, b")`,
        '',
      ],
    ]);
    const document = (await me.get(`/api/history/${id}/export?format=json`)).json();
    expect(document.kind).toBe('leak');
    expect(document.result.data[0].address).toBe('=HYPERLINK("http://x.test","a, b")');
  });

  it('exports an RC detail as label/value lines', async () => {
    const me = await signedIn();
    const rc = await me.post('/api/rcfull-details', { id_number: 'MH12FP1234', case_reference: '=CASE' });
    expect(rc.statusCode, rc.body).toBe(200);
    const id = rc.json().lookup_id as string;
    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="rc-mh12fp1234-${today()}.csv"`);
    const rows = rowsOf(csv.body);
    expect(rows[0]).toEqual(['label', 'value']);
    expect(rows).toContainEqual(['rc number', 'MH12FP1234']);
    for (const row of rows) expect(row).toHaveLength(2);
    const document = (await me.get(`/api/history/${id}/export?format=json`)).json();
    expect(document).toMatchObject({ kind: 'rc', query: 'MH12FP1234', case_reference: '=CASE' });
    expect(document.result.data).toEqual(rc.json().data);
  });

  it("answers 404 for another user's lookup, 410 once purged, 422 for a bad format", async () => {
    const me = await signedIn();
    const other = await signedIn();
    const tel = await me.get('/api/tel?number=919876543210');
    const id = tel.json().lookup_id as string;

    const foreign = await other.get(`/api/history/${id}/export?format=csv`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('No lookup of yours has this id.');
    expect((await me.get('/api/history/not-a-uuid/export?format=csv')).statusCode).toBe(404);

    for (const query of ['format=xml', 'format=', '', 'format=csv&extra=1']) {
      const bad = await me.get(`/api/history/${id}/export?${query}`);
      expect(bad.statusCode, query).toBe(422);
    }
    expect((await me.get(`/api/history/${id}/export?format=xml`)).json().message).toBe(
      'The format must be csv or json.',
    );

    await t.db.execute(
      sql`update lookups set result = null, result_purged_at = now() where id = ${id} or cache_of = ${id}`,
    );
    const gone = await me.get(`/api/history/${id}/export?format=json`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe('This result is no longer kept.');
    const [failure] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.userId, me.user.id),
          eq(auditEvents.action, 'lookup.export'),
          eq(auditEvents.outcome, 'failure'),
        ),
      );
    expect(failure?.details).toMatchObject({ reason: 'result_purged', format: 'json' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/history/${id}/export?format=csv` })).statusCode,
    ).toBe(401);
  });
});

describe('GET /api/history.csv', () => {
  it('streams the lookups list in batches with the kind filter, neutralising formulas', async () => {
    const me = await signedIn();
    const other = await signedIn();
    await me.get('/api/tel?number=919876543210&case_reference=%3DSUM(A1)');
    await me.get('/api/email?email=rich.demo%40example.test');
    await other.get('/api/tel?number=919123456780');
    // More than one batch (1,000 rows) of e-mail lookups, many sharing one timestamp so that the
    // batches' keys must break ties by id.
    await t.db.execute(sql`
      insert into lookups (user_id, kind, query, query_typed, cost, status, created_at)
      select ${me.user.id}, 'email', 'bulk' || g || '@example.test', 'Bulk' || g || '@example.test', 1, 'complete',
        timestamptz '2026-01-01 00:00:00.123456+00' - make_interval(secs => (g / 10))
      from generate_series(1, 1205) g`);

    const all = await me.get('/api/history.csv');
    expect(all.statusCode, all.body.slice(0, 200)).toBe(200);
    expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(all.headers['content-disposition']).toBe(`attachment; filename="history-all-${today()}.csv"`);
    expect(all.headers['x-history-rows']).toBe('1207');
    const rows = rowsOf(all.body);
    expect(rows[0]).toEqual([
      'id',
      'time',
      'kind',
      'query_typed',
      'query',
      'cost',
      'status',
      'cached',
      'case_reference',
      'refunded',
    ]);
    expect(rows).toHaveLength(1208);
    const ids = rows.slice(1).map((r) => r[0]);
    expect(new Set(ids).size).toBe(1207);
    // Newest first: the two searches just run, then the bulk rows.
    expect(rows[1]!.slice(2, 8)).toEqual([
      'email',
      'rich.demo@example.test',
      'rich.demo@example.test',
      '1',
      'complete',
      'false',
    ]);
    expect(rows[2]!.slice(2, 10)).toEqual([
      'tel',
      '919876543210',
      '919876543210',
      '1',
      'complete',
      'false',
      "'=SUM(A1)",
      'false',
    ]);
    const times = rows.slice(1).map((r) => r[1]!);
    expect([...times].sort().reverse()).toEqual(times);

    const tel = await me.get('/api/history.csv?kind=tel');
    expect(tel.headers['content-disposition']).toBe(`attachment; filename="history-tel-${today()}.csv"`);
    const telRows = rowsOf(tel.body);
    expect(telRows).toHaveLength(2);
    expect(telRows[1]![2]).toBe('tel');

    expect((await me.get('/api/history.csv?kind=a%20b')).statusCode).toBe(422);
    expect((await me.get('/api/history.csv?page=2')).statusCode).toBe(422);

    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, me.user.id), eq(auditEvents.action, 'history.export')));
    expect(audited.map((e) => [e.outcome, e.details])).toEqual([
      ['success', { kind: null, rows: 1207 }],
      ['success', { kind: 'tel', rows: 1 }],
    ]);
  });
});
