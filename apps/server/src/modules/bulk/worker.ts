import type { Job } from '../jobs/queue.ts';
import { BULK_JOB, BULK_SWEEP, BULK_SWEEP_SECONDS, sweepStaleJobs } from './lease.ts';
import { runBulkJob } from './run.ts';
import type { BulkWorkerDeps } from './types.ts';

export { BULK_JOB, BULK_SWEEP, BULK_SWEEP_SECONDS, sendBulkJob } from './lease.ts';
export {
  closeRemainingRows,
  outcomeOf,
  type RowOutcome,
  settleRow,
  summaryOf,
  writeOutcomes,
} from './outcomes.ts';
export { haltHere, SHARED_ROWS } from './run.ts';
export type { BulkWorkerDeps } from './types.ts';

/**
 * Runs a bulk job's rows: the queue's handler of BULK_JOB. Delivery is at least once, so:
 *
 *   - the job is leased: a worker takes it only when no other worker's heartbeat is fresh (a process
 *     killed mid-job leaves a stale one, and the sweep sends the job again for another to take);
 *   - each row's lookup id is chosen and stored before its search, and the paid search writes its
 *     lookups row (and ledger row) under that id, so a row retried after a crash finds its charge: a
 *     settled lookup gives the row its outcome, a charged and unanswered one is resumed without a new
 *     charge (searches/service.ts), a missing one was never charged and runs;
 *   - a row's outcome is read from its lookups row, so what the job says it spent is what the ledger took.
 *
 * Rows run in line order, up to `rowConcurrency` at a time, fewer while people search (rowsAllowed).
 * A pause or cancel made in this process stops the run at once (haltHere), one made in another
 * process within half a second (the heartbeat): no new row starts, the rows in flight finish. A 402
 * ends the job 'stopped' and skips the rest.
 *
 * The lease, heartbeat and sweep are in lease.ts, the run and its lanes in run.ts, the rows' takes in
 * take.ts, one row's search in row.ts, and the rows' outcomes in outcomes.ts.
 */
export function createBulkWorker(deps: BulkWorkerDeps) {
  const run = (queued: Job<{ jobId: string }>) => runBulkJob(deps, queued);
  const sweep = () => sweepStaleJobs(deps.db, deps.queue, deps.staleSeconds);
  return {
    run,
    sweep,
    /** Registers the handlers on the queue (before or after it starts). */
    async register(concurrency: number) {
      await deps.queue.work<{ jobId: string }>(BULK_JOB, run, { concurrency });
      await deps.queue.work(BULK_SWEEP, sweep);
      await deps.queue.every(BULK_SWEEP, BULK_SWEEP_SECONDS);
    },
  };
}

export type BulkWorker = ReturnType<typeof createBulkWorker>;
