/**
 * A bulk job's lease on the queue: sent keyed by its id, claimed only when no other worker's heartbeat
 * is fresh, kept alive by a heartbeat while it runs, stopped with its reason, and sent again by the
 * sweep when its worker has not been heard from.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { logFailure } from '../../outage.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { closeRemainingRows } from './outcomes.ts';
import { execute } from './sql.ts';
import type { Claimed } from './types.ts';

/** The queue's job that runs a bulk lookup's rows, keyed by the bulk job's id. */
export const BULK_JOB = 'bulk.run';

/**
 * How a bulk job is sent: keyed by its id, and on PostgreSQL expired (so retried elsewhere) when its
 * run outlives twice the stale heartbeat — a dead process's run is retried soon, and a live long run
 * that is retried meanwhile is safe: the retry finds the lease held and ends.
 */
export const sendBulkJob = (queue: JobQueue, jobId: string, staleSeconds: number, startAfter?: Date) =>
  queue.send(
    BULK_JOB,
    { jobId },
    {
      singletonKey: jobId,
      retryLimit: 5,
      expireInSeconds: staleSeconds * 2,
      ...(startAfter ? { startAfter } : {}),
    },
  );
/** The queue's periodic job that re-sends bulk jobs whose worker stopped (bulk jobs with a stale heartbeat). */
export const BULK_SWEEP = 'bulk.sweep';
export const BULK_SWEEP_SECONDS = 10;

/** Takes the job's lease: only a job that should run, and whose last worker's heartbeat is stale. */
export async function claimJob(
  db: Database,
  jobId: string,
  staleSeconds: number,
): Promise<Claimed | undefined> {
  // `silent_seconds`: how long the last worker had not been heard from (its heartbeat before this
  // claim); null when it let the lease go.
  const [row] = await execute<Claimed>(
    db,
    sql`with before as (select heartbeat_at from bulk_jobs where id = ${jobId})
        update bulk_jobs set status = 'running', heartbeat_at = now(), updated_at = now()
        where id = ${jobId} and status in ('queued', 'running')
          and (heartbeat_at is null or heartbeat_at < now() - ${staleSeconds} * interval '1 second')
        returning id, user_id, type, case_reference, ip, device_id,
          (select round(extract(epoch from now() - heartbeat_at)::numeric, 1)::float8 from before)
            as silent_seconds`,
  );
  return row;
}

/** Ends a job that cannot go on ('stopped' with its reason); the rows not run are skipped. */
export async function stopJob(db: Database, job: Claimed, reason: (skipped: number) => string) {
  const skipped = await closeRemainingRows(db, job.type, job.id);
  await db.execute(sql`
    update bulk_jobs set status = 'stopped', stop_reason = ${reason(skipped)}, finished_at = now(),
      updated_at = now()
    where id = ${job.id} and status = 'running'`);
}

/**
 * The running job's heartbeat, every half second: it keeps the lease, and tells the run (`onHalted`)
 * when the job was paused or cancelled in another process.
 */
export function startHeartbeat(
  db: Database,
  jobId: string,
  onHalted: () => void,
  log?: { error(o: object, m: string): void },
): NodeJS.Timeout {
  const heartbeat = setInterval(async () => {
    try {
      const alive = await execute<{ id: string }>(
        db,
        sql`update bulk_jobs set heartbeat_at = now() where id = ${jobId} and status = 'running' returning id`,
      );
      // Paused or cancelled: no new row is taken.
      if (alive.length === 0) onHalted();
    } catch (err) {
      logFailure(log, err, { bulk: jobId }, 'bulk heartbeat failed');
    }
  }, 500);
  heartbeat.unref();
  return heartbeat;
}

/** Sends again every job that should be running and whose worker has not been heard from. */
export async function sweepStaleJobs(db: Database, queue: JobQueue, staleSeconds: number): Promise<void> {
  const stale = await execute<{ id: string }>(
    db,
    sql`select id from bulk_jobs
        where status in ('queued', 'running')
          and (heartbeat_at is null or heartbeat_at < now() - ${staleSeconds} * interval '1 second')
          and updated_at < now() - interval '2 seconds'`,
  );
  for (const { id } of stale) await sendBulkJob(queue, id, staleSeconds);
}
