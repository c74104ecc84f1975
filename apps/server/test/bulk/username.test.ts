// A bulk list of usernames, on the sandbox's site check: each row checked by GET /api/username's rule,
// run through the paid search like a single username lookup (a name found nowhere answered, recorded
// no_record and refunded), its found accounts kept on the row and in the results files.
import { messages, SOURCE_LONG_LABELS } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.ts';
import { BULK_USERNAME_RESULT_COLUMNS } from '../../src/modules/bulk/export.ts';
import { BULK_XLSX_LIMITS } from '../../src/modules/bulk/parse.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { sitesPayload, USERNAME_DEMO } from '../../src/sandbox/index.ts';
import { readAllSheets } from '../../src/xlsx/read.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';
import { booksOf, until } from './support.ts';

/** A username lookup's price here: unlike the phone and e-mail prices, so the row's cost says which. */
const PRICE = 2;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { COST_USERNAME: String(PRICE), RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => t.close());

async function liveUser(credits = 50) {
  const user = await createUser(t.db, { appMode: 'live', credits });
  const { token } = await signIn(t, user.email, user.password);
  return { ...user, token };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (url: string, body: unknown, token: string) =>
  t.app.inject({ method: 'POST', url, ...json(body, undefined, token) });
const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: auth(token) });

async function finished(id: string, token: string) {
  return until(async () => {
    const job = (await get(`/api/bulk/${id}`, token)).json();
    return ['done', 'stopped', 'cancelled'].includes(job.status) ? job : false;
  });
}

/** The accounts the sandbox's site check finds for a name, as a row lists them. */
const accountsOf = (name: string) =>
  sitesPayload(name)
    .sites.filter((site) => site.state === 'found')
    .map((site) => ({ site: site.name, url: site.url }));

interface Row {
  line: number;
  input: string;
  query: string;
  status: string;
  cost: number;
  lookup_id: string | null;
  accounts: Array<{ site: string; url: string }>;
}

describe('bulk lookups of usernames', () => {
  it('previews a list by the username lookup’s rule: @name folded into name, bad names listed, priced', async () => {
    const user = await liveUser(30);
    const res = await post(
      '/api/bulk/preview',
      {
        type: 'username',
        values: ['rohand90', '@rohand90', 'two words', '', 'a/b', ' nobody.demo ', 'x'.repeat(65)],
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const error = messages.search.invalidUsername;
    expect(res.json()).toEqual({
      type: 'username',
      total: 6,
      valid: 2,
      duplicates: 1,
      invalid: [
        { line: 3, value: 'two words', error },
        { line: 5, value: 'a/b', error },
        { line: 7, value: `${'x'.repeat(65)}`, error },
      ],
      cost_per_row: PRICE,
      cost: 2 * PRICE,
      balance: 30,
    });
    const none = await post('/api/bulk', { type: 'username', values: ['no one', 'a/b'] }, user.token);
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe(messages.bulkJobs.noValidRow('username'));
    expect(none.json().message).toBe('The list holds no valid username: nothing was run.');
  });

  it('reads the column headed handle (or username) of an uploaded CSV', async () => {
    const user = await liveUser();
    for (const header of ['Handle', 'username', 'User name']) {
      const boundary = '----bulkusernames';
      const body = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nusername\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="handles.csv"\r\n` +
          `Content-Type: text/csv\r\n\r\nname,${header}\r\nRohan,@rohand90\r\nNobody,nobody.demo\r\nX,=cmd()\r\n\r\n` +
          `--${boundary}--\r\n`,
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/bulk/preview',
        payload: body,
        headers: { ...auth(user.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), header).toMatchObject({
        total: 3,
        valid: 2,
        invalid: [{ line: 4, value: '=cmd()', error: messages.search.invalidUsername }],
      });
    }
  });

  it('runs to done: the accounts found on each row, a name found nowhere no_record at no cost, the books balanced', async () => {
    const user = await liveUser(20);
    const res = await post(
      '/api/bulk',
      {
        type: 'username',
        values: [
          USERNAME_DEMO.rich,
          `@${USERNAME_DEMO.none}`,
          USERNAME_DEMO.none,
          USERNAME_DEMO.blocked,
          'not a name',
          '-dash.demo',
        ],
        case_reference: 'OP-BULK-U1',
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ type: 'username', total: 4, status: 'queued' });
    const job = await finished(res.json().id, user.token);
    const rows: Row[] = (await get(`/api/bulk/${job.id}/rows`, user.token)).json().data;

    const rich = accountsOf(USERNAME_DEMO.rich);
    const blocked = accountsOf(USERNAME_DEMO.blocked);
    const dash = accountsOf('-dash.demo');
    expect(rich.length).toBeGreaterThan(20);
    expect(blocked.length).toBeGreaterThan(0);
    expect(rows).toEqual([
      expect.objectContaining({
        line: 1,
        input: 'rohand90',
        query: 'rohand90',
        status: 'success',
        cost: PRICE,
        accounts: rich,
        name: null,
        sources_answered: ['sitesData'],
        lookup_id: expect.any(String),
      }),
      // Found on no site: answered whole, but no_record and refunded, as the single lookup is.
      expect.objectContaining({
        line: 2,
        input: '@nobody.demo',
        query: 'nobody.demo',
        status: 'no_record',
        cost: 0,
        accounts: [],
        lookup_id: expect.any(String),
      }),
      expect.objectContaining({ line: 4, query: 'blocked.demo', status: 'success', accounts: blocked }),
      expect.objectContaining({
        line: 6,
        query: '-dash.demo',
        status: dash.length > 0 ? 'success' : 'no_record',
        cost: dash.length > 0 ? PRICE : 0,
      }),
    ]);
    for (const account of rows[0]!.accounts) expect(account.url).toContain('rohand90');
    const charged = rows.filter((row) => row.cost > 0).length;
    expect(job).toMatchObject({
      status: 'done',
      done: 4,
      charged,
      credits_spent: charged * PRICE,
      failed: 0,
    });

    // The lookups row says the same as the bulk row: no_record, refunded.
    const [lookup] = rowsOf<{ status: string; cost: number }>(
      await t.db.execute(sql`select status, cost from lookups where id = ${rows[1]!.lookup_id}`),
    );
    expect(lookup?.status).toBe('no_record');
    const books = await booksOf(t.db, job.id);
    expect(books).toMatchObject({ row_cost: charged * PRICE, ledger: charged * PRICE, lookups: 4 });
    const [balance] = rowsOf<{ credits: number }>(
      await t.db.execute(sql`select credits from users where id = ${user.id}`),
    );
    expect(balance?.credits).toBe(20 - charged * PRICE);
    expect(await findLedgerMismatches(t.db)).toEqual([]);

    // The results files: a username job's own columns, its accounts as "Site url; …".
    const csv = await get(`/api/bulk/${job.id}/results?format=csv`, user.token);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(BULK_USERNAME_RESULT_COLUMNS.join(','));
    expect(lines[0]).toBe('line,input,query,status,accounts_found,accounts,sources_answered,cost,lookup_id');
    expect(lines).toHaveLength(5);
    const joined = rich.map((account) => `${account.site} ${account.url}`).join('; ');
    expect(lines[1]).toBe(
      `1,rohand90,rohand90,success,${rich.length},${joined},${SOURCE_LONG_LABELS.sitesData},${PRICE},${rows[0]!.lookup_id}`,
    );
    // Formulas neutralised: the typed '@' and a leading '-' are shown as text.
    expect(lines[2]).toMatch(/^2,'@nobody\.demo,nobody\.demo,no_record,0,,[^,]*,0,/);
    expect(lines[4]).toMatch(/^6,'-dash\.demo,'-dash\.demo,/);
    const asJson = (await get(`/api/bulk/${job.id}/results?format=json`, user.token)).json();
    expect(asJson.job).toMatchObject({ type: 'username' });
    expect(asJson.data[0].accounts).toEqual(rich);
    const xlsx = await get(`/api/bulk/${job.id}/results?format=xlsx`, user.token);
    const [sheet] = await readAllSheets(xlsx.rawPayload, BULK_XLSX_LIMITS);
    expect(sheet!.rows[0]).toEqual([...BULK_USERNAME_RESULT_COLUMNS]);
    expect(sheet!.rows[1]!.slice(0, 6)).toEqual([
      '1',
      'rohand90',
      'rohand90',
      'success',
      String(rich.length),
      joined,
    ]);

    // The job is one entry of the grouped history, under the username kind.
    const history = await get('/api/history?group=job&kind=username', user.token);
    expect(history.statusCode, history.body).toBe(200);
    expect(JSON.stringify(history.json())).toContain(job.id);
  });
});
