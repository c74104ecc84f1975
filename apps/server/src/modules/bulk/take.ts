/**
 * The rows a run takes: first the rows a stopped worker had started (their lookup ids already
 * written), then fresh rows, each given its lookup id in the statement that takes it, before its
 * search.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { execute } from './sql.ts';
import type { RunState, TakenRow } from './types.ts';

/** Rows a stopped worker had started: settled from their lookups rows or resumed, first. */
export const startedRows = (db: Database, jobId: string) =>
  execute<TakenRow>(
    db,
    sql`select id, line, input, query, lookup_id from bulk_rows
        where job_id = ${jobId} and status = 'pending' and lookup_id is not null order by line`,
  );

/**
 * Rows are taken `rowConcurrency` at a time, each given its lookup id in the same statement, ahead
 * of the lanes, and handed to them in line order; a take finds nothing once the job is no longer
 * running. A pause or cancel stops the lanes before their next row (haltHere in this process, the
 * heartbeat from another); rows taken and not started stay pending with their id, and are resumed
 * (or skipped by a cancel) like a stopped worker's.
 */
export function createRowTaker(
  db: Database,
  jobId: string,
  rowConcurrency: number,
  started: TakenRow[],
  state: RunState,
) {
  let taken: TakenRow[] = [];
  let taking: Promise<void> | null = null;
  let exhausted = false;
  const takeMore = async () => {
    const rows = await execute<TakenRow>(
      db,
      sql`update bulk_rows set lookup_id = gen_random_uuid()
          where id in (
            select id from bulk_rows
            where job_id = ${jobId} and status = 'pending' and lookup_id is null
              and exists (select 1 from bulk_jobs where id = ${jobId} and status = 'running')
            order by line limit ${rowConcurrency} for update skip locked)
          returning id, line, input, query, lookup_id`,
    );
    if (rows.length === 0) {
      exhausted = true;
      const [still] = await execute<{ status: string }>(
        db,
        sql`select status from bulk_jobs where id = ${jobId}`,
      );
      if (still?.status !== 'running') state.halted = true;
    }
    taken = [...taken, ...rows.sort((x, y) => x.line - y.line)];
  };
  const refill = () => {
    taking ??= takeMore()
      .catch((error: unknown) => {
        state.error ??= error;
      })
      .finally(() => {
        taking = null;
      });
    return taking;
  };

  return {
    /** The next row for a lane: a started one first, else a fresh one; none when all are taken or the run stops. */
    async take(): Promise<(TakenRow & { resumed?: true }) | undefined> {
      const resumed = started.shift();
      if (resumed) return { ...resumed, resumed: true };
      while (taken.length === 0 && !exhausted && !state.halted && state.error === undefined) await refill();
      const row = taken.shift();
      // The next rows are taken while these run, so that a lane seldom waits for a take.
      if (taken.length < rowConcurrency / 2 && !exhausted && !state.halted) void refill();
      return row;
    },
    /** Every row of the job has been handed to a lane. */
    allTaken: () => exhausted && started.length === 0 && taken.length === 0,
  };
}

export type RowTaker = ReturnType<typeof createRowTaker>;
