import { messages, SOURCE_LONG_LABELS } from '@footprint/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.ts';
import { auditEvents, caseItems, cases, lookups } from '../../src/db/schema.ts';
import { BULK_RESULT_COLUMNS } from '../../src/modules/bulk/export.ts';
import { BULK_XLSX_LIMITS } from '../../src/modules/bulk/parse.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { readAllSheets } from '../../src/xlsx/read.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';
import { hostile, workbookOf } from '../support/xlsx.ts';
import {
  booksOf,
  bulkProviders,
  holdAnswers,
  SILENT_PHONE,
  testEnv,
  UNKNOWN_PHONE,
  until,
  upstream,
} from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ providers: bulkProviders, env: testEnv });
});
afterAll(() => t.close());
beforeEach(() => {
  upstream.delayMs = 0;
  upstream.gate = null;
  upstream.calls = 0;
});

async function liveUser(credits = 100) {
  const user = await createUser(t.db, { appMode: 'live', credits });
  const { token } = await signIn(t, user.email, user.password);
  return { ...user, token };
}

const query = async <T = unknown>(statement: SQL) => rowsOf<T>(await t.db.execute(statement));
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (url: string, body: unknown, token: string) =>
  t.app.inject({ method: 'POST', url, ...json(body, undefined, token) });
const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: auth(token) });

/** A multipart/form-data body with one file and some fields. */
function multipart(fields: Record<string, string>, file?: { name: string; type: string; body: Buffer }) {
  const boundary = `----bulk${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.body,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const upload = (url: string, token: string, body: ReturnType<typeof multipart>) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...auth(token), 'content-type': body.contentType },
  });

async function finished(id: string, token: string) {
  return until(async () => {
    const job = (await get(`/api/bulk/${id}`, token)).json();
    return ['done', 'stopped', 'cancelled'].includes(job.status) ? job : false;
  });
}

describe('bulk lookups: the list', () => {
  it('previews a pasted list: default dial code, repeats folded, bad rows listed, nothing stored', async () => {
    const user = await liveUser(30);
    const res = await post(
      '/api/bulk/preview',
      {
        type: 'tel',
        values: [
          '9876543210',
          '+91 98765-43210',
          '12345',
          '',
          '919123456780',
          '44 7700 900123',
          '98765x43210',
          '(+91) 98765',
        ],
      },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      type: 'tel',
      total: 7,
      // A 10-digit number takes 91; a dial code of the picker (44) and 10 digits is valid as it is.
      valid: 3,
      duplicates: 1,
      invalid: [
        { line: 3, value: '12345', error: messages.search.invalidPhone },
        { line: 7, value: '98765x43210', error: messages.search.invalidPhone },
        { line: 8, value: '(+91) 98765', error: messages.search.invalidPhone },
      ],
      cost_per_row: 1,
      cost: 3,
      balance: 30,
    });
    const [count] = await query<{ n: number }>(
      sql`select count(*)::int as n from bulk_jobs where user_id = ${user.id}`,
    );
    expect(count?.n).toBe(0);
  });

  it('checks e-mail addresses as GET /api/email does', async () => {
    const user = await liveUser();
    const res = await post(
      '/api/bulk/preview',
      {
        type: 'email',
        values: [
          'Rich.Demo@Example.TEST',
          'rich.demo@example.test',
          'not-an-email',
          `${'a'.repeat(95)}@x.test`,
        ],
      },
      user.token,
    );
    expect(res.json()).toMatchObject({
      total: 4,
      valid: 1,
      duplicates: 1,
      invalid: [
        { line: 3, error: messages.search.invalidEmail },
        { line: 4, error: messages.search.invalidEmail },
      ],
    });
  });

  it('refuses 10,001 rows, a bad type and unknown fields with a clear 422, storing nothing', async () => {
    const user = await liveUser();
    const values = Array.from({ length: 10_001 }, (_, i) => String(9_000_000_000 + i));
    for (const url of ['/api/bulk/preview', '/api/bulk']) {
      const res = await post(url, { type: 'tel', values }, user.token);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('A bulk lookup takes at most 10,000 rows.');
    }
    const csv = Buffer.from(['phone', ...values].join('\n'));
    const file = await upload(
      '/api/bulk/preview',
      user.token,
      multipart({ type: 'tel' }, { name: 'big.csv', type: 'text/csv', body: csv }),
    );
    expect(file.statusCode).toBe(422);
    expect(file.json().message).toBe('A bulk lookup takes at most 10,000 rows.');

    const badType = await post('/api/bulk', { type: 'rc', values: ['MH12FP1234'] }, user.token);
    expect(badType.statusCode).toBe(422);
    expect(badType.json().message).toBe('The type field must be tel, email or username.');
    const extra = await post('/api/bulk', { type: 'tel', values: ['9876543210'], fresh: true }, user.token);
    expect(extra.statusCode).toBe(422);
    const jobs = await get('/api/bulk', user.token);
    expect(jobs.json()).toEqual({ data: [] });
  });

  it('reads a CSV upload: the column headed phone, its lines as a spreadsheet counts them', async () => {
    const user = await liveUser();
    const csv = Buffer.from('name,phone\r\n"Doe, J",9876543210\r\nX,=cmd()\r\nY,+91-9123456780\r\n');
    const res = await upload(
      '/api/bulk/preview',
      user.token,
      multipart({ type: 'tel' }, { name: 'people.csv', type: 'text/csv', body: csv }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      total: 3,
      valid: 2,
      invalid: [{ line: 3, value: '=cmd()', error: messages.search.invalidPhone }],
    });
  });

  it('reads an XLSX upload (numbers, links and text cells) and runs it as a job named after the file', async () => {
    const user = await liveUser();
    // Shared strings, rich text in an inline string, a formula's cached text, a number in another column.
    const body = workbookOf(
      '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><v>42</v></c></row>' +
        '<row r="3"><c r="A3" t="inlineStr"><is><r><t>Second@</t></r><r><rPr><b/></rPr><t>Example.test</t></r></is></c></row>' +
        '<row r="4"><c r="A4" t="str"><f>LOWER("BROKEN@")</f><v>broken@</v></c></row>' +
        '<row r="5"><c r="A5" t="s"><v>1</v></c></row>',
      '<si><t>Email</t></si><si><r><t>first@</t></r><r><t>example.test</t></r></si>',
    );
    const xlsx = {
      name: 'targets.xlsx',
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      body,
    };
    const preview = await upload('/api/bulk/preview', user.token, multipart({ type: 'email' }, xlsx));
    expect(preview.json()).toMatchObject({
      total: 4,
      valid: 2,
      duplicates: 1,
      invalid: [{ line: 4, value: 'broken@' }],
    });
    const created = await upload('/api/bulk', user.token, multipart({ type: 'email' }, xlsx));
    expect(created.statusCode).toBe(202);
    expect(created.json()).toMatchObject({ name: 'targets.xlsx', type: 'email', total: 2 });
    const job = await finished(created.json().id, user.token);
    expect(job).toMatchObject({ status: 'done', done: 2, charged: 2, credits_spent: 2 });
    const rows = (await get(`/api/bulk/${job.id}/rows`, user.token)).json();
    expect(rows.data.map((r: { query: string; line: number }) => [r.line, r.query])).toEqual([
      [2, 'first@example.test'],
      [3, 'second@example.test'],
    ]);
  });

  it('reads at most 2 files at a time and lets 4 wait: one more is 503 bulk_busy with Retry-After', async () => {
    const user = await liveUser();
    // Each is read to its 10,001st value (a fraction of a second), so ten at once overlap.
    const body = multipart(
      { type: 'tel' },
      { name: 'rows.xlsx', type: 'application/octet-stream', body: hostile.millionRows() },
    );
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => upload('/api/bulk/preview', user.token, body)),
    );
    const busy = answers.filter((res) => res.statusCode === 503);
    expect(answers.filter((res) => res.statusCode === 422)).toHaveLength(10 - busy.length);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(busy.length).toBeLessThanOrEqual(4);
    expect(busy[0]!.headers['retry-after']).toBe('2');
    expect(busy[0]!.json()).toMatchObject({ message: messages.bulkJobs.busy(2), retry_after: 2 });
    // The places are free again.
    expect((await upload('/api/bulk/preview', user.token, body)).statusCode).toBe(422);
  });

  it('refuses an unreadable file, a missing file and a missing type with 4xx', async () => {
    const user = await liveUser();
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 1)]);
    const broken = await upload(
      '/api/bulk/preview',
      user.token,
      multipart({ type: 'tel' }, { name: 'x.xlsx', type: 'application/octet-stream', body: zip }),
    );
    expect(broken.statusCode).toBe(422);
    expect(broken.json().message).toBe(messages.bulkJobs.unreadableFile);
    const binary = await upload(
      '/api/bulk/preview',
      user.token,
      multipart(
        { type: 'tel' },
        { name: 'x.csv', type: 'text/csv', body: Buffer.from([0xff, 0xfe, 0x00, 0x41]) },
      ),
    );
    expect(binary.statusCode).toBe(422);
    const noFile = await upload('/api/bulk/preview', user.token, multipart({ type: 'tel' }));
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().message).toBe(messages.bulkJobs.noFile);
    const noType = await upload(
      '/api/bulk/preview',
      user.token,
      multipart({}, { name: 'a.csv', type: 'text/csv', body: Buffer.from('9876543210\n') }),
    );
    expect(noType.statusCode).toBe(422);
    expect(noType.json().message).toBe(messages.bulkJobs.typeRequired);
  });

  it('is for live accounts only, and signed-in users only', async () => {
    const trial = await createUser(t.db, { appMode: 'trial', credits: 20 });
    const { token } = await signIn(t, trial.email, trial.password);
    const res = await post('/api/bulk', { type: 'tel', values: ['9876543210'] }, token);
    expect(res.statusCode).toBe(403);
    expect((await get('/api/bulk', token)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/bulk' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a list with no valid row (422) and a balance of 0 (402), storing nothing', async () => {
    const user = await liveUser(0);
    const none = await post('/api/bulk', { type: 'tel', values: ['123', 'abc'] }, user.token);
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe(messages.bulkJobs.noValidRow('tel'));
    const broke = await post('/api/bulk', { type: 'tel', values: ['9876543210'] }, user.token);
    expect(broke.statusCode).toBe(402);
    expect(broke.json()).toMatchObject({ credits: 0 });
    expect((await get('/api/bulk', user.token)).json()).toEqual({ data: [] });
  });
});

describe('bulk lookups: the job', () => {
  it('runs every row through the paid search, filed under the case, with the books balanced', async () => {
    const user = await liveUser(20);
    // Within the cache window, a repeat of an earlier lookup is free.
    const single = await t.app.inject({
      method: 'GET',
      url: '/api/tel?number=919876543211',
      headers: auth(user.token),
    });
    expect(single.statusCode).toBe(200);
    const res = await post(
      '/api/bulk',
      {
        type: 'tel',
        values: ['9876543210', '9876543211', SILENT_PHONE, UNKNOWN_PHONE, '98765 43210', 'bad'],
        case_reference: 'OP-BULK-1',
      },
      user.token,
    );
    expect(res.statusCode).toBe(202);
    const created = res.json();
    expect(created).toMatchObject({
      status: 'queued',
      total: 4,
      name: 'Pasted list',
      case_reference: 'OP-BULK-1',
    });
    const job = await finished(created.id, user.token);
    // The no-record row (line 4) is refunded, as every "no record" is: one row charged.
    expect(job).toMatchObject({ status: 'done', total: 4, done: 4, charged: 1, failed: 1, credits_spent: 1 });
    expect(job.finished_at).toEqual(expect.any(String));

    const rows = (await get(`/api/bulk/${job.id}/rows?page=1`, user.token)).json();
    expect(rows.total).toBe(4);
    expect(rows.data).toEqual([
      expect.objectContaining({
        line: 1,
        input: '9876543210',
        query: '919876543210',
        status: 'success',
        cost: 1,
        name: 'Synthetic 3210',
        sources_answered: ['wpData'],
        lookup_id: expect.any(String),
      }),
      expect.objectContaining({ line: 2, query: '919876543211', status: 'cached', cost: 0 }),
      expect.objectContaining({ line: 3, query: SILENT_PHONE, status: 'failed', cost: 0 }),
      expect.objectContaining({ line: 4, query: UNKNOWN_PHONE, status: 'no_record', cost: 0 }),
    ]);

    // The books: the rows' costs are what the ledger took for their lookups, and the balance agrees.
    const books = await booksOf(t.db, job.id);
    expect(books.row_cost).toBe(1);
    expect(books.ledger).toBe(1);
    expect(books.lookups).toBe(4);
    expect((await get('/api/credits', user.token)).statusCode).toBeLessThan(500);
    expect(await findLedgerMismatches(t.db)).toEqual([]);

    // Every row's lookup is in the case, and each has its own audit row; the job its creation row.
    const [filed] = await t.db.select().from(cases).where(eq(cases.ownerId, user.id));
    const items = await t.db.select().from(caseItems).where(eq(caseItems.caseId, filed!.id));
    expect(items).toHaveLength(4);
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.userId, user.id));
    expect(audit.filter((a) => a.action === 'bulk.create')).toEqual([
      expect.objectContaining({ outcome: 'success', target: job.id, caseReference: 'OP-BULK-1' }),
    ]);
    const rowAudit = audit.filter((a) => a.action === 'lookup.tel' && a.caseReference === 'OP-BULK-1');
    expect(rowAudit).toHaveLength(4);
    const lookupRows = await t.db
      .select()
      .from(lookups)
      .where(and(eq(lookups.userId, user.id), eq(lookups.caseReference, 'OP-BULK-1')));
    expect(lookupRows.map((l) => l.id).sort()).toEqual(
      rows.data
        .filter((r: { lookup_id: string | null }) => r.lookup_id)
        .map((r: { lookup_id: string }) => r.lookup_id)
        .sort(),
    );

    // Results: CSV (formula-safe, attachment), JSON and XLSX, one line per row.
    const csv = await get(`/api/bulk/${job.id}/results?format=csv`, user.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="bulk-pasted-list-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'line,input,query,status,name,emails,phones,addresses,sources_answered,cost,lookup_id',
    );
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^1,9876543210,919876543210,success,Synthetic 3210,/);
    // Sources by their names, as the results page says them, not by their keys.
    expect(lines[1]).toContain(`,${SOURCE_LONG_LABELS.wpData},`);
    expect(lines[1]).not.toContain('wpData');
    const asJson = (await get(`/api/bulk/${job.id}/results?format=json`, user.token)).json();
    expect(asJson.data).toHaveLength(4);
    const xlsx = await get(`/api/bulk/${job.id}/results?format=xlsx`, user.token);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const [sheet] = await readAllSheets(xlsx.rawPayload, BULK_XLSX_LIMITS);
    expect(sheet!.name).toBe('Results');
    expect(sheet!.rows).toHaveLength(5);
    expect(sheet!.rows[0]).toEqual([...BULK_RESULT_COLUMNS]);
    expect(sheet!.rows[1]!.slice(0, 4)).toEqual(['1', '9876543210', '919876543210', 'success']);
    expect((await get(`/api/bulk/${job.id}/results?format=pdf`, user.token)).statusCode).toBe(422);

    const list = (await get('/api/bulk', user.token)).json();
    expect(list.data.map((j: { id: string }) => j.id)).toEqual([job.id]);
  });

  it('neutralises formulas in the CSV results', async () => {
    const user = await liveUser();
    const res = await post('/api/bulk', { type: 'tel', values: ['+919876543212'] }, user.token);
    const job = await finished(res.json().id, user.token);
    const csv = (await get(`/api/bulk/${job.id}/results`, user.token)).body;
    expect(csv.split('\r\n')[1]).toMatch(/^1,'\+919876543212,919876543212,/);
  });

  it("answers 404 for another user's job, and for ids that are not ids", async () => {
    const owner = await liveUser();
    const other = await liveUser();
    const res = await post('/api/bulk', { type: 'tel', values: ['9876543213'] }, owner.token);
    const id = res.json().id;
    await finished(id, owner.token);
    for (const path of ['', '/rows', '/results', '/events']) {
      expect((await get(`/api/bulk/${id}${path}`, other.token)).statusCode).toBe(404);
    }
    for (const action of ['pause', 'resume', 'cancel']) {
      expect((await post(`/api/bulk/${id}/${action}`, {}, other.token)).statusCode).toBe(404);
    }
    expect((await get('/api/bulk/not-a-uuid', owner.token)).statusCode).toBe(404);
    expect((await get(`/api/bulk/${id}/rows?page=0`, owner.token)).statusCode).toBe(422);
    expect((await get('/api/bulk', other.token)).json()).toEqual({ data: [] });
  });

  it('stops when the credits run out: the rest skipped, and the books balance', async () => {
    const user = await liveUser(50);
    const values = Array.from({ length: 1000 }, (_, i) => String(8_000_000_000 + i));
    const res = await post('/api/bulk', { type: 'tel', values }, user.token);
    expect(res.statusCode).toBe(202);
    const job = await finished(res.json().id, user.token);
    expect(job).toMatchObject({ status: 'stopped', total: 1000, charged: 50, credits_spent: 50, done: 1000 });
    expect(job.stop_reason).toMatch(/^Credits ran out: \d+ rows were not run\.$/);
    const books = await booksOf(t.db, job.id);
    expect(books).toMatchObject({ row_cost: 50, charged_rows: 50, ledger: 50, charges: 50 });
    const credits = await query<{ credits: number }>(sql`select credits from users where id = ${user.id}`);
    expect(credits[0]?.credits).toBe(0);
    const [counts] = await query<{ skipped: number; refused: number }>(
      sql`select count(*) filter (where status = 'skipped')::int as skipped,
                 count(*) filter (where status = 'insufficient_credits')::int as refused
          from bulk_rows where job_id = ${job.id}`,
    );
    expect(counts!.skipped + counts!.refused).toBe(950);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  }, 120_000);

  it('pauses (rows in flight finish, no new row starts), resumes, and refuses illegal transitions', async () => {
    const user = await liveUser();
    const open = holdAnswers();
    const values = Array.from({ length: 12 }, (_, i) => String(7_000_000_000 + i));
    const id = (await post('/api/bulk', { type: 'tel', values }, user.token)).json().id;
    await until(async () => upstream.calls >= 4);
    const paused = await post(`/api/bulk/${id}/pause`, {}, user.token);
    expect(paused.statusCode).toBe(200);
    expect(paused.json().status).toBe('paused');
    expect((await post(`/api/bulk/${id}/pause`, {}, user.token)).statusCode).toBe(409);
    open();
    // The four rows in flight finish; nothing more runs while paused.
    await until(async () => (await get(`/api/bulk/${id}`, user.token)).json().done === 4);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await get(`/api/bulk/${id}`, user.token)).json()).toMatchObject({ status: 'paused', done: 4 });
    const resumed = await post(`/api/bulk/${id}/resume`, {}, user.token);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().status).toBe('queued');
    const job = await finished(id, user.token);
    expect(job).toMatchObject({ status: 'done', done: 12, charged: 12 });
    const again = await post(`/api/bulk/${id}/resume`, {}, user.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A done bulk lookup cannot be resumed.');
    expect((await post(`/api/bulk/${id}/cancel`, {}, user.token)).statusCode).toBe(409);
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.target, id));
    expect(audit.map((a) => a.action).sort()).toEqual(['bulk.create', 'bulk.pause', 'bulk.resume']);
  });

  it('cancels: the rows not run are skipped, the rows in flight keep their outcome', async () => {
    const user = await liveUser();
    const open = holdAnswers();
    const values = Array.from({ length: 10 }, (_, i) => String(7_100_000_000 + i));
    const id = (await post('/api/bulk', { type: 'tel', values }, user.token)).json().id;
    await until(
      async () =>
        (await query(sql`select 1 from bulk_rows where job_id = ${id} and lookup_id is not null`)).length >=
        4,
    );
    const cancelled = await post(`/api/bulk/${id}/cancel`, {}, user.token);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    open();
    await until(async () => (await get(`/api/bulk/${id}`, user.token)).json().charged === 4);
    const job = (await get(`/api/bulk/${id}`, user.token)).json();
    expect(job).toMatchObject({ status: 'cancelled', done: 10, charged: 4, credits_spent: 4 });
    const rows = (await get(`/api/bulk/${id}/rows`, user.token)).json().data;
    expect(rows.filter((r: { status: string }) => r.status === 'skipped')).toHaveLength(6);
    expect((await booksOf(t.db, id)).ledger).toBe(4);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('gives way to interactive lookups: fewer rows in flight while people search, all lanes after', async () => {
    const user = await liveUser();
    const searcher = await liveUser();
    const open = holdAnswers();
    // Seven interactive lookups in flight (held): a job's share is 16 / (1 + 7) = 2 of its 4 lanes.
    const interactive = Array.from({ length: 7 }, (_, i) =>
      t.app.inject({ method: 'GET', url: `/api/tel?number=91720000000${i}`, headers: auth(searcher.token) }),
    );
    await until(async () => upstream.calls >= 7);
    const values = Array.from({ length: 10 }, (_, i) => String(7_200_000_000 + i));
    const id = (await post('/api/bulk', { type: 'tel', values }, user.token)).json().id;
    await until(async () => upstream.calls >= 9);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const inFlight = async () =>
      (
        await query<{ n: number }>(
          sql`select count(*)::int as n from lookups where user_id = ${user.id} and status = 'pending'`,
        )
      )[0]!.n;
    expect(upstream.calls).toBe(9);
    expect(await inFlight()).toBe(2);
    open();
    for (const answer of await Promise.all(interactive)) expect(answer.statusCode).toBe(200);
    const job = await finished(id, user.token);
    expect(job).toMatchObject({ status: 'done', done: 10, charged: 10 });
    expect((await booksOf(t.db, id)).ledger).toBe(10);
  });

  it('streams progress as server-sent events and ends after the final status', async () => {
    const user = await liveUser();
    upstream.delayMs = 30;
    const values = Array.from({ length: 40 }, (_, i) => String(7_200_000_000 + i));
    const id = (await post('/api/bulk', { type: 'tel', values }, user.token)).json().id;
    const res = await get(`/api/bulk/${id}/events`, user.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const events = res.body
      .split('\n\n')
      .filter((chunk) => chunk.startsWith('data: '))
      .map((chunk) => JSON.parse(chunk.slice(6)));
    expect(events.length).toBeGreaterThan(2);
    const done = events.map((e) => e.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ id, status: 'done', done: 40 });
    // A finished job's stream answers its one event and ends.
    const after = await get(`/api/bulk/${id}/events`, user.token);
    expect(after.body.match(/^data: /gm)).toHaveLength(1);
  });
});
