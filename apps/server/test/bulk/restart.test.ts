// A bulk job outlives its server: the runtime is closed mid-job (rows in flight) and started again on
// the same database; the job resumes and finishes with every row run once. On PGlite this is the
// in-process queue taking its job back; on PostgreSQL pg-boss retrying it.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { createTestApp, createUser, json, signIn } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';
import { booksOf, bulkProviders, holdAnswers, testEnv, until, upstream } from './support.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const query = async <T>(statement: SQL) => rowsOf<T>(await handle.db.execute(statement));

describe('bulk lookups across a restart', () => {
  it('resumes a job the stopped server was running and runs each row once', async () => {
    const first = await createTestApp({ database: handle, providers: bulkProviders, env: testEnv });
    const user = await createUser(first.db, { appMode: 'live', credits: 100 });
    const { token } = await signIn(first, user.email, user.password);
    const open = holdAnswers();
    const values = Array.from({ length: 30 }, (_, i) => String(7_300_000_000 + i));
    const res = await first.app.inject({
      method: 'POST',
      url: '/api/bulk',
      ...json({ type: 'tel', values }, undefined, token),
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().id as string;
    await until(
      async () =>
        (await query(sql`select 1 from bulk_rows where job_id = ${id} and lookup_id is not null`)).length >=
        4,
    );
    // Close with rows in flight: they finish (the answers are let through), no new row starts.
    const closing = first.close();
    setTimeout(open, 100);
    await closing;
    const [mid] = await query<{ status: string; done: number }>(
      sql`select j.status, (select count(*)::int from bulk_rows where job_id = j.id and status <> 'pending') as done
          from bulk_jobs j where j.id = ${id}`,
    );
    expect(mid?.status).toBe('running');
    expect(mid!.done).toBeLessThan(30);

    upstream.gate = null;
    const second = await createTestApp({ database: handle, providers: bulkProviders, env: testEnv });
    try {
      const job = await until(async () => {
        const body = (
          await second.app.inject({
            method: 'GET',
            url: `/api/bulk/${id}`,
            headers: { authorization: `Bearer ${token}` },
          })
        ).json();
        return body.status === 'done' ? body : false;
      }, 60_000);
      expect(job).toMatchObject({ done: 30, charged: 30, credits_spent: 30 });
      expect(await booksOf(handle.db, id)).toMatchObject({
        row_cost: 30,
        ledger: 30,
        lookups: 30,
        max_lookups_per_row: 1,
        charges: 30,
      });
      expect(await findLedgerMismatches(handle.db)).toEqual([]);
    } finally {
      await second.close();
    }
  }, 90_000);
});
