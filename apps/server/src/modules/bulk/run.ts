/**
 * One bulk job's run on this process: claimed under its lease, its account and case checked, its rows
 * run by lanes that give way to people searching, and the lease let go (and the job sent again when
 * it should still run).
 */

import { messages } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import { usesLiveFeatures } from '../../access/policy.ts';
import { users } from '../../db/schema.ts';
import { DomainError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { failAfterRecovery } from '../../outage.ts';
import type { Job } from '../jobs/queue.ts';
import type { CaseReference } from '../searches/service.ts';
import { claimJob, sendBulkJob, startHeartbeat, stopJob } from './lease.ts';
import { createOutcomeWriter } from './outcomes.ts';
import { type RowRun, runRow } from './row.ts';
import { execute } from './sql.ts';
import { createRowTaker, type RowTaker, startedRows } from './take.ts';
import type { BulkWorkerDeps, Claimed, RunState } from './types.ts';

/**
 * The rows a job keeps in flight while people are searching, shared with them: with n interactive
 * searches in flight lately, a job keeps at most SHARED_ROWS / (1 + n) rows in flight (one person: 8,
 * four: 3), and one at least, so that a job always moves. Measured by bench:bulk: more than about 6
 * rows in flight beside four people searching doubles their p99.
 */
export const SHARED_ROWS = 16;

/**
 * How many of a job's rows may be in flight now: all its lanes (BULK_ROW_CONCURRENCY) when nobody is
 * searching, its share (SHARED_ROWS) while people are. Interactive lookups go first.
 */
export const rowsAllowed = (deps: Pick<BulkWorkerDeps, 'searches' | 'rowConcurrency'>) => {
  const people = deps.searches.foreground.recent();
  if (people === 0) return deps.rowConcurrency;
  return Math.max(1, Math.min(deps.rowConcurrency, Math.floor(SHARED_ROWS / (1 + people))));
};

/** The jobs this process is running, each with what stops its lanes before their next row. */
const runningHere = new Map<string, () => void>();

/**
 * A pause or cancel of a job: this process's run of it starts no new row from now on (rows in flight
 * finish). A run in another process sees it by its heartbeat, within half a second.
 */
export function haltHere(jobId: string): void {
  runningHere.get(jobId)?.();
}

/**
 * What the job's rows are searched as: its account (still active and live), its case reference
 * checked as a lookup's, the price of a row and the client that created the job. Undefined when the
 * job cannot run: it is stopped with the reason.
 */
async function prepareRun(deps: BulkWorkerDeps, job: Claimed) {
  const { db } = deps;
  const [user] = await db.select().from(users).where(sql`${users.id} = ${job.user_id}`);
  if (!user || user.status !== 'active' || !usesLiveFeatures(user)) {
    await stopJob(db, job, () => messages.bulkJobs.accountNotLive);
    return undefined;
  }
  let caseReference: CaseReference;
  try {
    caseReference = await deps.searches.caseReference(job.case_reference, user);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await stopJob(db, job, () => error.message);
    return undefined;
  }
  const price = deps.lookups.prices()[job.type] ?? 0;
  const client: ClientContext = {
    ip: job.ip ?? '',
    deviceId: job.device_id ?? undefined,
    userAgent: undefined,
  };
  return { user, caseReference, price, client };
}

/** The run's lanes, up to `rowConcurrency`, each taking and running rows until the run stops. */
async function runLanes(deps: BulkWorkerDeps, run: RowRun, rows: RowTaker, signal: AbortSignal) {
  const { state } = run;
  const going = () => !state.halted && !state.outOfCredits && state.error === undefined && !signal.aborted;
  const lane = async (index: number) => {
    while (going()) {
      // Interactive lookups go first: while they run, the lanes past the job's share wait.
      while (index >= rowsAllowed(deps) && going() && !rows.allTaken())
        await deps.searches.foreground.ended(50);
      if (!going()) return;
      const row = await rows.take();
      // A row taken and not started stays pending with its id: resumed later, or skipped by a cancel.
      if (!row || !going()) return;
      try {
        await runRow(run, row);
      } catch (error) {
        state.error = error;
      }
    }
  };
  await Promise.all(Array.from({ length: deps.rowConcurrency }, (_, index) => lane(index)));
}

/** Runs a claimed job's rows, then ends it: 'done', 'stopped' (credits ran out), or left to run again. */
export async function runClaimed(deps: BulkWorkerDeps, job: Claimed, signal: AbortSignal): Promise<void> {
  const { db } = deps;
  const ready = await prepareRun(deps, job);
  if (!ready) return;
  const started = await startedRows(db, job.id);
  const state: RunState = { halted: false, outOfCredits: false, error: undefined };
  const heartbeat = startHeartbeat(
    db,
    job.id,
    () => {
      state.halted = true;
    },
    deps.log,
  );
  const rows = createRowTaker(db, job.id, deps.rowConcurrency, started, state);
  const run: RowRun = {
    ...ready,
    db,
    lookups: deps.lookups,
    job,
    state,
    outcomes: createOutcomeWriter(db, deps.rowConcurrency * 4),
  };
  runningHere.set(job.id, () => {
    state.halted = true;
  });
  try {
    await runLanes(deps, run, rows, signal);
    await run.outcomes.drain();
  } finally {
    runningHere.delete(job.id);
    clearInterval(heartbeat);
  }
  if (state.error !== undefined) throw state.error;
  if (state.outOfCredits) {
    await stopJob(db, job, messages.bulkJobs.creditsRanOut);
    return;
  }
  // The queue is stopping: the job is tried again (here after a restart, or by another process).
  if (signal.aborted) throw new Error('the job queue stopped');
  if (state.halted) return;
  await db.execute(sql`
    update bulk_jobs set status = 'done', finished_at = now(), updated_at = now()
    where id = ${job.id} and status = 'running'
      and not exists (select 1 from bulk_rows where job_id = ${job.id} and status = 'pending')`);
}

/** The queue's handler of BULK_JOB: the job claimed, run, and its lease let go whatever happened. */
export async function runBulkJob(deps: BulkWorkerDeps, queued: Job<{ jobId: string }>): Promise<void> {
  const { db } = deps;
  const jobId = queued.data.jobId;
  const job = await claimJob(db, jobId, deps.staleSeconds);
  if (!job) return;
  // Its last worker stopped without letting the lease go (killed, or cut off): said once, here.
  if (job.silent_seconds != null) {
    deps.log?.warn(
      { bulk: jobId, silentSeconds: job.silent_seconds },
      'bulk job taken over from a worker that stopped',
    );
  }
  let failure: unknown;
  try {
    // Cut off by a database outage: the run ends once the database is back, so that the lease is let
    // go below and the queue's retry (seconds later) takes the job again and resumes its rows.
    await failAfterRecovery(() => runClaimed(deps, job, queued.signal), queued.signal);
  } catch (error) {
    failure = error;
  } finally {
    // The lease goes with the worker. A resume that came while this worker finished its last rows
    // found the lease held: its job is sent again here.
    const [after] = await execute<{ status: string }>(
      db,
      sql`update bulk_jobs set heartbeat_at = null where id = ${jobId} returning status`,
    ).catch(() => []);
    if (after?.status === 'queued' || (failure === undefined && after?.status === 'running')) {
      await sendBulkJob(deps.queue, jobId, deps.staleSeconds, new Date(Date.now() + 1000)).catch(() => null);
    }
  }
  if (failure !== undefined) throw failure;
}
