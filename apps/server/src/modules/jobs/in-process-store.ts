/**
 * The in-process queue's statements on its `jobs` table: a job sent, claimed, finished (completed,
 * retried with backoff, or failed), and the jobs a stopped process left taken back on start.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { SendOptions } from './queue.ts';

export interface JobRow {
  id: string;
  name: string;
  data: unknown;
  retry_count: number;
  retry_limit: number;
  retry_delay_seconds: number;
}

const DEFAULT_RETRY_LIMIT = 3;
const DEFAULT_RETRY_DELAY_SECONDS = 2;
/** The longest a retry waits, whatever the backoff reached. */
const MAX_BACKOFF_SECONDS = 3600;

const isUniqueViolation = (error: unknown) => {
  const err = error as { code?: string; cause?: { code?: string } } | undefined;
  return (err?.code ?? err?.cause?.code) === '23505';
};

const execute = async <T>(db: Database, query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

/** Takes the oldest due job of a name whose singleton key has no job running. */
export async function claimJob(db: Database, name: string): Promise<JobRow | undefined> {
  const [row] = await execute<JobRow>(
    db,
    sql`
    update jobs set state = 'active', started_at = now(), heartbeat_at = now()
    where id = (
      select j.id from jobs j
      where j.name = ${name} and j.state = 'created' and j.start_after <= now()
        and (j.singleton_key is null or not exists (
          select 1 from jobs a
          where a.name = j.name and a.singleton_key = j.singleton_key and a.state = 'active'))
      order by j.start_after, j.created_at
      limit 1
    )
    returning id, name, data, retry_count, retry_limit, retry_delay_seconds`,
  );
  return row;
}

/** A job's end: completed, or on failure retried with exponential backoff until its limit, then failed. */
export async function finishJob(db: Database, row: JobRow, error: unknown) {
  if (error === undefined) {
    await db.execute(sql`update jobs set state = 'completed', completed_at = now() where id = ${row.id}`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (row.retry_count >= row.retry_limit) {
    await db.execute(sql`
      update jobs set state = 'failed', completed_at = now(), last_error = ${message} where id = ${row.id}`);
    return;
  }
  const delay = Math.min(MAX_BACKOFF_SECONDS, row.retry_delay_seconds * 2 ** row.retry_count);
  try {
    await db.execute(sql`
      update jobs set state = 'created', retry_count = retry_count + 1, heartbeat_at = null,
        start_after = now() + ${delay} * interval '1 second', last_error = ${message}
      where id = ${row.id}`);
  } catch (err) {
    // A job of the same key is already waiting: it will do the same work, this one is folded into it.
    if (!isUniqueViolation(err)) throw err;
    await db.execute(sql`
      update jobs set state = 'failed', completed_at = now(),
        last_error = ${`${message} (folded into the queued job of its key)`}
      where id = ${row.id}`);
  }
}

/** Stores a job; answers its id, or null when a job of its singleton key already waits. */
export async function insertJob<T extends object>(
  db: Database,
  name: string,
  data: T,
  opts: SendOptions,
): Promise<string | null> {
  const [row] = await execute<{ id: string }>(
    db,
    sql`
    insert into jobs (name, data, singleton_key, retry_limit, retry_delay_seconds, start_after)
    values (${name}, ${JSON.stringify(data)}::jsonb, ${opts.singletonKey},
      ${opts.retryLimit ?? DEFAULT_RETRY_LIMIT}, ${opts.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS},
      ${(opts.startAfter ?? new Date()).toISOString()}::timestamptz)
    on conflict do nothing
    returning id`,
  );
  return row?.id ?? null;
}

/** Jobs waiting to run, per name. */
export async function waitingJobs(db: Database): Promise<Record<string, number>> {
  const rows = await execute<{ name: string; count: number }>(
    db,
    sql`select name, count(*)::int as count from jobs where state = 'created' group by name`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.count)]));
}

/** On start: the jobs a stopped process left running taken back, and old finished jobs dropped. */
export async function takeBackAbandoned(db: Database): Promise<void> {
  // Only this process uses the database: a job still 'active' was left by one that stopped. One
  // whose key already has a job waiting is folded into it; the others wait to run again.
  await db.execute(sql`
    update jobs set state = 'failed', completed_at = now(),
      last_error = 'abandoned by a stopped process (folded into the queued job of its key)'
    where state = 'active' and singleton_key is not null and exists (
      select 1 from jobs c
      where c.name = jobs.name and c.singleton_key = jobs.singleton_key and c.state = 'created')`);
  await db.execute(sql`
    update jobs set state = 'created', heartbeat_at = null, start_after = now(),
      last_error = 'abandoned by a stopped process'
    where state = 'active'`);
  // Finished jobs are kept a week for inspection, then dropped.
  await db.execute(sql`
    delete from jobs where state in ('completed', 'failed') and completed_at < now() - interval '7 days'`);
}
