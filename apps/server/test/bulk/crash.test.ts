// kill -9 in the middle of a bulk lookup: the real server in a child process on PostgreSQL, killed
// while rows are in flight, started again; the job must finish with every row run exactly once.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { authTokens } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { randomToken, sha256 } from '../../src/security/crypto.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';
import { booksOf, until } from './support.ts';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const serverDir = fileURLToPath(new URL('../..', import.meta.url));

let handle: DatabaseHandle & { url?: string };
const children = new Set<ChildProcess>();
beforeAll(async () => {
  if (postgres) handle = await createTestDatabase();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (handle) await handle.close();
});

const query = async <T>(statement: SQL) => rowsOf<T>(await handle.db.execute(statement));

/** Starts the server (src/main.ts) on the test database; answers its address once it listens. */
async function startServer(): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: handle.url!,
      APP_KEY: 'test-app-key-0123456789abcdefghijklmnop',
      LOG_LEVEL: 'warn',
      SANDBOX: 'true',
      // Slow enough that the kill lands with rows in flight.
      SANDBOX_LATENCY: '*=30-60',
      SANDBOX_LEAK_RECORDS: '0',
      COST_TEL: '1',
      BULK_STALE_SECONDS: '3',
      BULK_ROW_CONCURRENCY: '4',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let out = '';
  child.stderr!.on('data', (chunk) => {
    out += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      // The banner names APP_URL, then the address the server listens on (PORT=0: never APP_URL's).
      const listening = /listening on (\S+?);/.exec(out);
      if (listening) {
        clearTimeout(timer);
        resolve(`http://${listening[1]}`);
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
  });
  return { child, url, log: () => out };
}

describe.runIf(postgres)('bulk lookups across kill -9 (PostgreSQL)', () => {
  it('finishes the job after a restart with every row run exactly once, each charged once', async () => {
    const user = await createUser(handle.db, { appMode: 'live', credits: 1000 });
    const token = randomToken();
    await handle.db.insert(authTokens).values({
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const first = await startServer();
    const values = Array.from({ length: 300 }, (_, i) => String(6_000_000_000 + i));
    const created = await fetch(`${first.url}/api/bulk`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'tel', values, case_reference: 'OP-KILL-9' }),
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    await until(async () => {
      const job = (await (await fetch(`${first.url}/api/bulk/${id}`, { headers })).json()) as {
        done: number;
      };
      return job.done >= 60;
    }, 60_000);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    const [mid] = await query<{ status: string; done: number; in_flight: number }>(
      sql`select j.status,
            (select count(*)::int from bulk_rows where job_id = j.id and status <> 'pending') as done,
            (select count(*)::int from bulk_rows where job_id = j.id and status = 'pending' and lookup_id is not null) as in_flight
          from bulk_jobs j where j.id = ${id}`,
    );
    expect(mid).toMatchObject({ status: 'running' });
    expect(mid!.done).toBeGreaterThanOrEqual(60);
    expect(mid!.done).toBeLessThan(300);
    // The kill landed with rows taken and not finished: their lookups are what a retry must not charge again.
    expect(mid!.in_flight).toBeGreaterThanOrEqual(1);

    const second = await startServer();
    try {
      const job = await until(async () => {
        const res = await fetch(`${second.url}/api/bulk/${id}`, { headers });
        const body = (await res.json()) as { status: string };
        return body.status === 'done' ? body : false;
      }, 90_000);
      expect(job).toMatchObject({ status: 'done', total: 300, done: 300, charged: 300, credits_spent: 300 });
      // The take-over from the killed worker is one line of the log.
      const takeOvers = second
        .log()
        .split('\n')
        .filter((line) => line.includes('"msg":"bulk job taken over from a worker that stopped"'));
      expect(takeOvers).toHaveLength(1);
      expect(takeOvers[0]).toContain(`"bulk":"${id}"`);
    } finally {
      const stopped = new Promise((resolve) => second.child.once('exit', resolve));
      second.child.kill('SIGTERM');
      await stopped;
    }

    // One lookups row per bulk row, one charge each, no refund; the books and the balance agree.
    const books = await booksOf(handle.db, id);
    expect(books).toMatchObject({
      row_cost: 300,
      charged_rows: 300,
      ledger: 300,
      lookups: 300,
      rows_with_lookup: 300,
      max_lookups_per_row: 1,
      charges: 300,
    });
    const [all] = await query<{ lookups: number; charges: number; refunds: number; credits: number }>(
      sql`select
            (select count(*)::int from lookups where user_id = ${user.id}) as lookups,
            (select count(*)::int from credit_entries where user_id = ${user.id} and kind = 'charge') as charges,
            (select count(*)::int from credit_entries where user_id = ${user.id} and kind = 'refund') as refunds,
            (select credits from users where id = ${user.id}) as credits`,
    );
    expect(all).toEqual({ lookups: 300, charges: 300, refunds: 0, credits: 700 });
    const statuses = await query<{ status: string; n: number }>(
      sql`select status, count(*)::int as n from lookups where user_id = ${user.id} group by status`,
    );
    expect(statuses).toEqual([{ status: 'complete', n: 300 }]);
    const audits = await query<{ n: number }>(
      sql`select count(*)::int as n from audit_events
          where user_id = ${user.id} and action = 'lookup.tel' and outcome = 'success'`,
    );
    expect(audits[0]?.n).toBe(300);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  }, 240_000);
});
