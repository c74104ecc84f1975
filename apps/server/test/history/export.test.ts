// Exports of a user's own records from what the server stored: one lookup as CSV, JSON or XLSX
// (GET /api/history/{id}/export) and the lookups list as CSV (GET /api/history.csv).
import { createHash } from 'node:crypto';
import {
  analyzeEmailLookup,
  analyzePhoneLookup,
  LEAK_EXPORT_CAP,
  layoutRecord,
  profileCounts,
} from '@footprint/domain';
import { parse } from 'csv-parse/sync';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../src/db/schema.ts';
import { BULK_XLSX_LIMITS } from '../../src/modules/bulk/parse.ts';
import { readAllSheets } from '../../src/xlsx/read.ts';
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

/** The header block ('# key,value' lines) of an export's CSV. */
function headerOf(body: string): Record<string, string> {
  const header: Record<string, string> = {};
  for (const [key, value] of parse(body, { relax_column_count: true, skip_empty_lines: true }) as string[][])
    if (key?.startsWith('# ')) header[key.slice(2)] = value ?? '';
  return header;
}

/** The table after the header block, as a parser that knows the layout reads it. */
const tableOf = (body: string): string[][] =>
  parse(body, { comment: '#', comment_no_infix: true, skip_empty_lines: true, relax_column_count: false });

/** A cell as the CSV writer neutralises it: text a spreadsheet would run as a formula gets an apostrophe. */
const neutralised = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The newest `lookup.export` row of a user. */
async function lastExport(userId: string) {
  const [row] = await t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.userId, userId), eq(auditEvents.action, 'lookup.export')))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row!;
}

/** An XLSX file's sheets as rows of cell texts (the server's own bounded reader). */
async function sheetsOf(bytes: Buffer): Promise<Record<string, string[][]>> {
  const sheets: Record<string, string[][]> = {};
  for (const sheet of await readAllSheets(bytes, BULK_XLSX_LIMITS)) sheets[sheet.name] = sheet.rows;
  return sheets;
}

describe('GET /api/history/{id}/export', () => {
  it('exports a phone lookup: a header, the merged profile of the one analysis, then the source records', async () => {
    const me = await signedIn();
    const tel = await me.get('/api/tel?number=919876543210&case_reference=EXPORT-1');
    expect(tel.statusCode).toBe(200);
    const id = tel.json().lookup_id as string;
    const credits = tel.json().credits as number;
    // What the results page computes from the same answer (PhoneResults: analyzePhoneLookup).
    const { credits: _c, cached: _k, lookup_id: _l, ...answer } = tel.json();
    const analysis = analyzePhoneLookup(answer);
    const counts = profileCounts(analysis.attributes);

    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="tel-919876543210-${today()}.csv"`);
    // No byte-order mark, like the audit export.
    expect(csv.body.charCodeAt(0)).not.toBe(0xfeff);
    expect(csv.body.startsWith('# lookup_id,')).toBe(true);
    const header = headerOf(csv.body);
    expect(header).toMatchObject({
      lookup_id: id,
      kind: 'tel',
      case_reference: 'EXPORT-1',
      reused: 'false',
      reused_from: '',
      merged_values: String(counts.facts),
      corroborated: String(counts.corroborated),
    });
    expect(header.answered_at).toBe(tel.json().answered_at);

    const rows = tableOf(csv.body);
    expect(rows[0]).toEqual([
      'part',
      'section',
      'attribute',
      'value',
      'sources',
      'corroboration',
      'confidence',
      'answered_at',
      'source_labels',
      'provenance',
    ]);
    for (const row of rows) expect(row).toHaveLength(10);
    const merged = rows.filter((r) => r[0] === 'merged');
    const records = rows.filter((r) => r[0] === 'source');
    expect(merged.length + records.length).toBe(rows.length - 1);
    // The merged part first, then the source records.
    expect(rows.findIndex((r) => r[0] === 'source')).toBe(merged.length + 1);
    // One row per merged value, each once, as the results page shows them.
    expect(merged).toHaveLength(counts.facts);
    expect(merged.map((r) => [r[2], r[3]])).toEqual(
      analysis.attributes.flatMap((a) => a.values.map((v) => [a.attribute, neutralised(v.value)])),
    );
    expect(merged.filter((r) => r[5] === 'corroborated')).toHaveLength(counts.corroborated);
    expect(counts.corroborated).toBeGreaterThan(0);
    expect(new Set(merged.map((r) => `${r[2]}\u0000${r[3]}`)).size).toBe(merged.length);
    for (const row of merged) {
      expect(['corroborated', 'in conflict', 'single source']).toContain(row[5]);
      expect(Number(row[6])).toBeGreaterThan(0);
      expect(Number(row[6])).toBeLessThanOrEqual(1);
      expect(Number.isNaN(Date.parse(row[7]!))).toBe(false);
      expect(row[4]).not.toBe('');
    }
    const name = merged.find((r) => r[2] === 'Name')!;
    const nameValue = analysis.attributes.find((a) => a.attribute === 'Name')!.values[0]!;
    expect(name[3]).toBe(nameValue.value);
    expect(Number(name[6])).toBe(nameValue.confidence);
    // The sources by their own names ('Gov identity records'), the chips' labels beside them.
    expect(name[8]).toBe(nameValue.sources.join('; '));
    // The source records: every value as each source gave it, 'Rohan Ji' as often as sources gave it.
    expect(records).toContainEqual(
      expect.arrayContaining(['source', 'Upi Ids', '', 'rohan.deshmukh@oksbi', 'Gov']),
    );
    expect(records.length).toBeGreaterThan(merged.length);

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
      answered_at: tel.json().answered_at,
      reused: false,
      reused_from: null,
      counts,
    });
    expect(Number.isNaN(Date.parse(document.created_at))).toBe(false);
    expect(document.result.wpData).toEqual(tel.json().wpData);
    expect(document.result.credits).toBeUndefined();
    expect(document.merged_profile).toHaveLength(counts.facts);
    expect(
      document.merged_profile.filter((v: { corroboration: string }) => v.corroboration === 'corroborated'),
    ).toHaveLength(counts.corroborated);
    expect(document.source_records).toHaveLength(records.length);

    const xlsx = await me.get(`/api/history/${id}/export?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsx.headers['content-disposition']).toBe(
      `attachment; filename="tel-919876543210-${today()}.xlsx"`,
    );
    const sheets = await sheetsOf(xlsx.rawPayload);
    expect(Object.keys(sheets)).toEqual(['About', 'Merged profile', 'Source records']);
    expect(sheets.About).toContainEqual(['lookup_id', id]);
    expect(sheets.About).toContainEqual(['case_reference', 'EXPORT-1']);
    expect(sheets['Merged profile']!.slice(1)).toHaveLength(counts.facts);
    expect(sheets['Merged profile']!.slice(1).filter((r) => r[3] === 'corroborated')).toHaveLength(
      counts.corroborated,
    );
    expect(sheets['Source records']!.slice(1)).toHaveLength(records.length);

    // Free, and each export is on the audit trail with its format, size and SHA-256.
    expect((await me.get('/api/history?per_page=1')).json().total).toBe(1);
    const [balance] = await t.db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, me.user.id));
    expect(balance?.credits).toBe(credits);
    const exports = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, me.user.id), eq(auditEvents.action, 'lookup.export')))
      .orderBy(auditEvents.id);
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
      ['success', id, 0, 'EXPORT-1', 'xlsx'],
    ]);
    const received = [csv.rawPayload, file.rawPayload, xlsx.rawPayload];
    exports.forEach((row, i) => {
      expect(row.details).toMatchObject({
        lookup_id: id,
        bytes: received[i]!.length,
        sha256: sha256(received[i]!),
      });
    });
  });

  it('exports an e-mail lookup: the merged values of the one analysis, then every source value', async () => {
    const me = await signedIn();
    const email = await me.get('/api/email?email=Rich.Demo%40example.test');
    const id = email.json().lookup_id as string;
    const analysis = analyzeEmailLookup(email.json().data);
    const counts = profileCounts(analysis.attributes);
    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="email-rich-demo-example-test-${today()}.csv"`,
    );
    expect(headerOf(csv.body)).toMatchObject({ lookup_id: id, kind: 'email', reused: 'false' });
    const rows = tableOf(csv.body);
    const merged = rows.filter((r) => r[0] === 'merged');
    expect(merged).toHaveLength(counts.facts);
    expect(merged.filter((r) => r[5] === 'corroborated')).toHaveLength(counts.corroborated);
    expect(counts.corroborated).toBeGreaterThan(0);
    const sections = new Set(rows.filter((r) => r[0] === 'source').map((r) => r[1]));
    for (const section of [
      'Full Names and Alias',
      'Qualifications',
      'Experience',
      'Skills',
      'Internet Presence',
    ]) {
      expect(sections, section).toContain(section);
    }
    expect(rows.filter((r) => r[0] === 'source').every((r) => r[4] !== '')).toBe(true);
    const json = (await me.get(`/api/history/${id}/export?format=json`)).json();
    expect(json).toMatchObject({
      kind: 'email',
      query: 'rich.demo@example.test',
      case_reference: null,
      counts,
    });
    expect(json.result.data.holeheData).toEqual(email.json().data.holeheData);

    // A free repeat exports the answer it reused, and says so.
    const again = await me.get('/api/email?email=rich.demo%40example.test');
    expect(again.json().cached).toBe(true);
    const repeat = await me.get(`/api/history/${again.json().lookup_id}/export?format=csv`);
    expect(headerOf(repeat.body)).toMatchObject({ reused: 'true', reused_from: id });
    expect(tableOf(repeat.body).filter((r) => r[0] === 'merged')).toHaveLength(counts.facts);
  });

  it('exports every match of a leak search, streamed, saying how many the file holds', async () => {
    const people = Array.from({ length: 137 }, (_, i) => ({
      name: `Streamed Person${i}`,
      username: `streamed${String(i).padStart(3, '0')}`,
      address: i === 0 ? '=HYPERLINK("http://x.test","a, b")' : `Street ${i} #4`,
    }));
    await addLeakRecords(t.db, { name: 'Export Test Breach', breachDate: '2022-05-06' }, people);
    const me = await signedIn();
    const found = await me.post('/api/leak-data-finder/?page=1&per_page=10', {
      fields: [{ id: 1, type: 'name', value: 'Streamed', isValid: true, error: '' }],
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().total).toBe(137);
    expect(found.json().data).toHaveLength(10);
    const id = found.json().lookup_id as string;

    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="leak-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(csv.headers['x-export-records']).toBe('137');
    expect(csv.headers['x-export-matches']).toBe('137');
    expect(headerOf(csv.body)).toMatchObject({
      lookup_id: id,
      kind: 'leak',
      matches: '137',
      records_in_file: '137',
      cap: '10000',
      note: '137 records match; this file holds all 137.',
    });
    const rows = tableOf(csv.body);
    expect(rows[0]).toEqual([
      'source',
      'breach_date',
      'name',
      'email',
      'phone',
      'username',
      'address',
      'other',
    ]);
    expect(rows).toHaveLength(1 + found.json().total);
    expect(
      rows
        .slice(1)
        .map((r) => r[5])
        .sort(),
    ).toEqual(people.map((p) => p.username).sort());
    expect(rows).toContainEqual([
      'Export Test Breach',
      '2022-05-06',
      'Streamed Person0',
      '',
      '',
      'streamed000',
      `'=HYPERLINK("http://x.test","a, b")`,
      '',
    ]);
    // A '#' inside a row is quoted, so a comment-aware parser keeps the whole address.
    expect(rows).toContainEqual(expect.arrayContaining(['Street 5 #4']));
    // The first page on screen is the file's first ten records (the same order).
    expect(rows.slice(1, 11).map((r) => r[5])).toEqual(
      found.json().data.map((r: { username: string }) => r.username),
    );
    const audit = await lastExport(me.user.id);
    expect(audit.outcome).toBe('success');
    expect(audit.details).toMatchObject({
      format: 'csv',
      lookup_id: id,
      records: 137,
      bytes: csv.rawPayload.length,
      sha256: sha256(csv.rawPayload),
    });

    const json = await me.get(`/api/history/${id}/export?format=json`);
    expect(json.statusCode).toBe(200);
    const document = json.json();
    expect(document.kind).toBe('leak');
    expect(document.result.data).toHaveLength(10);
    expect(document.export).toMatchObject({ matches: 137, records_in_file: 137, capped: false });
    expect(document.records).toHaveLength(137);
    expect(document.records[0].address).toBe('=HYPERLINK("http://x.test","a, b")');
    expect((await lastExport(me.user.id)).details).toMatchObject({
      format: 'json',
      sha256: sha256(json.rawPayload),
    });

    const xlsx = await me.get(`/api/history/${id}/export?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const sheets = await sheetsOf(xlsx.rawPayload);
    expect(Object.keys(sheets)).toEqual(['About', 'Records']);
    expect(sheets.About).toContainEqual(['records_in_file', '137']);
    expect(sheets.Records).toHaveLength(138);
    // Text, never a formula.
    expect(sheets.Records).toContainEqual(expect.arrayContaining(['=HYPERLINK("http://x.test","a, b")']));
    expect((await lastExport(me.user.id)).details).toMatchObject({
      format: 'xlsx',
      bytes: xlsx.rawPayload.length,
      sha256: sha256(xlsx.rawPayload),
    });
  });

  it('holds the first 10,000 matches of a larger leak search and says so', async () => {
    await t.db.execute(
      sql`insert into leak_sources (name, breach_date, sandbox) values ('Capped Breach', null, false)`,
    );
    await t.db.execute(sql`
      insert into leak_records (source_id, record_hash, name, name_tokens)
      select s.id, 'capped-' || g, 'Cappedname Person' || g, array['cappedname', 'person' || g]::text[]
      from leak_sources s, generate_series(1, ${LEAK_EXPORT_CAP + 25}) g where s.name = 'Capped Breach'`);
    const me = await signedIn();
    const found = await me.post('/api/leak-data-finder/?page=1&per_page=10', {
      fields: [{ id: 1, type: 'name', value: 'Cappedname', isValid: true, error: '' }],
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().total_capped).toBe(true);
    const id = found.json().lookup_id as string;
    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['x-export-records']).toBe(String(LEAK_EXPORT_CAP));
    expect(csv.headers['x-export-matches']).toBe(`${LEAK_EXPORT_CAP}+`);
    expect(headerOf(csv.body)).toMatchObject({
      matches: `${LEAK_EXPORT_CAP}+`,
      records_in_file: String(LEAK_EXPORT_CAP),
      note: 'More than 10,000 records match; this file holds the first 10,000.',
    });
    const rows = tableOf(csv.body);
    expect(rows).toHaveLength(1 + LEAK_EXPORT_CAP);
    expect(new Set(rows.slice(1).map((r) => r[2])).size).toBe(LEAK_EXPORT_CAP);
    const audit = await lastExport(me.user.id);
    expect(audit.details).toMatchObject({
      records: LEAK_EXPORT_CAP,
      capped: true,
      bytes: csv.rawPayload.length,
      sha256: sha256(csv.rawPayload),
    });
  });

  it('exports a corporate answer in the order and format of its results page', async () => {
    const me = await signedIn(50);
    const cin = await me.post('/api/corporate-intelligence', {
      type: 'corporate_cin',
      data: { id_number: 'U72200MH2015PTC248219' },
    });
    expect(cin.statusCode, cin.body).toBe(200);
    const id = cin.json().lookup_id as string;
    // What /corporate-results shows of the same answer (IntelResultsPage: layoutRecord).
    const layout = layoutRecord(cin.json().data, 'corporate:corporate_cin');
    expect(layout.rows.length).toBeGreaterThan(3);
    expect(layout.tables.length).toBeGreaterThan(0);

    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(headerOf(csv.body)).toMatchObject({ lookup_id: id, kind: 'corporate:corporate_cin' });
    const rows = tableOf(csv.body);
    expect(rows[0]).toEqual(['section', 'row', 'label', 'value']);
    const details = rows.filter((r) => r[0] === 'Details');
    expect(details.map((r) => [r[2], r[3]])).toEqual(layout.rows.map((r) => [r.label, r.value]));
    // The curated order's first field, not the vendor's 'charges 1 amount'.
    expect(rows[1]![0]).toBe('Details');
    expect(rows.some((r) => /^charges 1/i.test(r[2]!))).toBe(false);
    for (const table of layout.tables) {
      const cells = rows.filter((r) => r[0] === table.title);
      expect(cells.map((r) => r[3])).toEqual(table.rows.flat());
    }
    // Money as the screen shows it, not the vendor's bare number.
    const charges = layout.tables.find((table) => /charge/i.test(table.title))!;
    const amount = charges.columns.findIndex((c) => /amount/i.test(c.label));
    expect(charges.rows[0]![amount]).toMatch(/₹/);
    expect(rows).toContainEqual([
      charges.title,
      '1',
      charges.columns[amount]!.label,
      charges.rows[0]![amount]!,
    ]);

    const json = (await me.get(`/api/history/${id}/export?format=json`)).json();
    expect(json.fields).toEqual(layout.rows.map(({ label, value }) => ({ label, value })));
    expect(json.tables.map((table: { title: string }) => table.title)).toEqual(
      layout.tables.map((x) => x.title),
    );

    const xlsx = await me.get(`/api/history/${id}/export?format=xlsx`);
    const sheets = await sheetsOf(xlsx.rawPayload);
    expect(Object.keys(sheets)[0]).toBe('About');
    expect(sheets.Details!.slice(1)).toEqual(layout.rows.map((r) => [r.label, r.value]));
    expect((await lastExport(me.user.id)).details).toMatchObject({
      format: 'xlsx',
      sha256: sha256(xlsx.rawPayload),
    });
  });

  it('exports an RC detail as its modal lays it out', async () => {
    const me = await signedIn();
    const rc = await me.post('/api/rcfull-details', { id_number: 'MH12FP1234', case_reference: '=CASE' });
    expect(rc.statusCode, rc.body).toBe(200);
    const id = rc.json().lookup_id as string;
    const csv = await me.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="rc-mh12fp1234-${today()}.csv"`);
    // A formula typed as the case reference stays text.
    expect(headerOf(csv.body).case_reference).toBe("'=CASE");
    const rows = tableOf(csv.body);
    expect(rows[0]).toEqual(['section', 'row', 'label', 'value']);
    const layout = layoutRecord(rc.json().data.data, 'rc');
    expect(rows.filter((r) => r[0] === 'Details').map((r) => [r[2], r[3]])).toEqual(
      layout.rows.map((r) => [r.label, r.value]),
    );
    expect(rows).toContainEqual(['Details', '', 'RC Number', 'MH12FP1234']);
    for (const row of rows) expect(row).toHaveLength(4);
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

    for (const query of ['format=xml', 'format=', '', 'format=csv&extra=1', 'format=XLSX']) {
      const bad = await me.get(`/api/history/${id}/export?${query}`);
      expect(bad.statusCode, query).toBe(422);
    }
    expect((await me.get(`/api/history/${id}/export?format=xml`)).json().message).toBe(
      'The format must be csv, json or xlsx.',
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
