import {
  type BulkRowStatus,
  type BulkType,
  type EmailLookupData,
  type MergedProfile,
  mergeEmailProfile,
  mergePhoneProfile,
  messages,
  type PhoneLookupResponse,
} from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { users } from '../../db/schema.ts';
import { DomainError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import type { Job, JobQueue } from '../jobs/queue.ts';
import type { LookupService } from '../lookup/service.ts';
import type { CaseReference, Searches } from '../searches/service.ts';

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

export interface BulkWorkerDeps {
  db: Database;
  lookups: LookupService;
  searches: Searches;
  queue: JobQueue;
  /** Rows of one job whose lookups run at once. */
  rowConcurrency: number;
  /** A running job's heartbeat older than this was left by a stopped process. */
  staleSeconds: number;
  log?: { error(o: object, m: string): void; info(o: object, m: string): void };
}

interface TakenRow {
  id: string;
  line: number;
  input: string;
  query: string;
  lookup_id: string;
}

/** What the row's lookups row says: its outcome, and the stored answer (a free repeat's: the original's). */
interface LookupState {
  status: 'pending' | 'complete' | 'no_record' | 'refunded';
  cost: number;
  cache_of: string | null;
  sources_answered: string[];
  result: unknown;
}

const execute = async <T>(db: Executor, query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

const SUMMARY_MAX = 20;
const valuesOf = (entries: ReadonlyArray<{ value: string }>) =>
  [...new Set(entries.map((entry) => entry.value))].slice(0, SUMMARY_MAX);

/** The merged profile's headline fields, for a row of the results file. */
export function summaryOf(type: BulkType, result: unknown) {
  const stored = (result ?? {}) as { payloads?: Record<string, unknown>; errors?: Record<string, unknown> };
  const answer = { ...(stored.payloads ?? {}), errors: stored.errors ?? {} };
  let profile: MergedProfile;
  try {
    profile =
      type === 'tel'
        ? mergePhoneProfile(answer as Partial<PhoneLookupResponse>)
        : mergeEmailProfile(answer as Partial<EmailLookupData>);
  } catch {
    return { name: null, emails: [], phones: [], addresses: [] };
  }
  return {
    name: profile.names[0]?.value ?? null,
    emails: valuesOf(profile.emails),
    phones: valuesOf(profile.phones),
    addresses: valuesOf([...profile.verifiedAddresses, ...profile.locations]),
  };
}

async function lookupState(db: Executor, lookupId: string): Promise<LookupState | undefined> {
  const [row] = await execute<LookupState>(
    db,
    sql`select l.status, l.cost, l.cache_of, l.sources_answered,
          coalesce(l.result, (select o.result from lookups o where o.id = l.cache_of)) as result
        from lookups l where l.id = ${lookupId}`,
  );
  return row;
}

/** The row's status from its lookups row: a free repeat is 'cached', a refunded lookup 'failed'. */
function rowStatusOf(state: LookupState): BulkRowStatus {
  if (state.status === 'refunded') return 'failed';
  if (state.cache_of) return 'cached';
  return state.status === 'no_record' ? 'no_record' : 'success';
}

/** What a finished row says: its status, what it cost, and its answer's headline fields. */
export interface RowOutcome {
  id: string;
  status: BulkRowStatus;
  cost: number;
  summary: ReturnType<typeof summaryOf>;
  sourcesAnswered: string[];
  error: string | null;
  /** The row's search wrote no lookups row (refused before any charge): its reserved id is let go. */
  release: boolean;
}

const NO_SUMMARY = { name: null, emails: [], phones: [], addresses: [] };

/**
 * A row's outcome from its lookups row, which is the truth about its money: the cost the row shows
 * is the cost the ledger charged.
 */
export function outcomeOf(
  type: BulkType,
  row: { id: string },
  state: LookupState,
  error: string | null = null,
): RowOutcome {
  const status = rowStatusOf(state);
  return {
    id: row.id,
    status,
    cost: state.status === 'refunded' ? 0 : state.cost,
    summary: status === 'failed' ? NO_SUMMARY : summaryOf(type, state.result),
    sourcesAnswered: state.sources_answered ?? [],
    error,
    release: false,
  };
}

/** The outcome of a row whose search wrote no lookups row (refused before any charge). */
const refusalOf = (row: { id: string }, status: BulkRowStatus, error: string | null): RowOutcome => ({
  id: row.id,
  status,
  cost: 0,
  summary: NO_SUMMARY,
  sourcesAnswered: [],
  error,
  release: true,
});

/**
 * Writes rows' outcomes in one statement. Only a row still pending is written, or one a cancel marked
 * skipped while its lookup was in flight: it gets its real outcome.
 */
export async function writeOutcomes(db: Executor, outcomes: RowOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const values = sql.join(
    outcomes.map(
      (o) =>
        sql`(${o.id}::uuid, ${o.status}::text, ${o.cost}::int, ${o.summary.name}::text,
          ${JSON.stringify(o.summary.emails)}::jsonb, ${JSON.stringify(o.summary.phones)}::jsonb,
          ${JSON.stringify(o.summary.addresses)}::jsonb, ${JSON.stringify(o.sourcesAnswered)}::jsonb,
          ${o.error}::text, ${o.release}::boolean)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    update bulk_rows b set status = v.status, cost = v.cost, name = v.name, emails = v.emails,
      phones = v.phones, addresses = v.addresses, sources_answered = v.sources_answered, error = v.error,
      finished_at = now(), lookup_id = case when v.release then null else b.lookup_id end
    from (values ${values}) as v(id, status, cost, name, emails, phones, addresses, sources_answered, error, release)
    where b.id = v.id and b.status in ('pending', 'skipped')`);
}

/** Writes one row's outcome from its lookups row (outcomeOf). */
export const settleRow = (
  db: Executor,
  type: BulkType,
  row: { id: string },
  state: LookupState,
  error: string | null = null,
) => writeOutcomes(db, [outcomeOf(type, row, state, error)]);

/**
 * Rows' outcomes written in the background, many per statement, one statement at a time: a lane hands
 * its row's outcome over and takes its next row, and waits only while `bound` outcomes are unwritten.
 * A crash meanwhile loses nothing: a row stays pending until its outcome is written, and a pending
 * row whose lookup settled gets that outcome from its lookups row when the job runs again.
 */
function createOutcomeWriter(db: Executor, bound: number) {
  let queue: RowOutcome[] = [];
  /** The statement in flight, if any. */
  let current: Promise<void> | null = null;
  let failure: unknown;

  /** Writes what is queued, a statement at a time, until the queue is empty. */
  function pump() {
    if (current || queue.length === 0 || failure !== undefined) return;
    const batch = queue;
    queue = [];
    current = writeOutcomes(db, batch)
      .catch((error: unknown) => {
        failure = error;
      })
      .finally(() => {
        current = null;
        pump();
      });
  }

  return {
    async write(outcome: RowOutcome): Promise<void> {
      if (failure !== undefined) throw failure;
      queue.push(outcome);
      pump();
      while (queue.length >= bound && current) await current;
      if (failure !== undefined) throw failure;
    },
    /** Waits until every outcome handed over is written; throws the first write's error. */
    async drain(): Promise<void> {
      while (current) await current;
      if (failure !== undefined) throw failure;
    },
  };
}

/**
 * Closes the rows of a job that will not run (cancel, credits ran out): a row whose lookup settled
 * gets that outcome, every other pending row is 'skipped' (a charged lookup left pending by a stopped
 * process is refunded by the recovery sweep, modules/searches/recovery.ts). Answers how many were skipped.
 */
export async function closeRemainingRows(db: Executor, type: BulkType, jobId: string): Promise<number> {
  const started = await execute<{ id: string; lookup_id: string }>(
    db,
    sql`select id, lookup_id from bulk_rows
        where job_id = ${jobId} and status = 'pending' and lookup_id is not null`,
  );
  for (const row of started) {
    const state = await lookupState(db, row.lookup_id);
    if (state && state.status !== 'pending') await settleRow(db, type, row, state);
  }
  const skipped = await execute<{ id: string }>(
    db,
    sql`update bulk_rows set status = 'skipped', finished_at = now()
        where job_id = ${jobId} and status = 'pending' returning id`,
  );
  return skipped.length;
}

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
const rowsAllowed = (deps: BulkWorkerDeps) => {
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

interface Claimed {
  id: string;
  user_id: string;
  type: BulkType;
  case_reference: string | null;
  ip: string | null;
  device_id: string | null;
}

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
 */
export function createBulkWorker(deps: BulkWorkerDeps) {
  const { db } = deps;

  async function claim(jobId: string): Promise<Claimed | undefined> {
    const [row] = await execute<Claimed>(
      db,
      sql`update bulk_jobs set status = 'running', heartbeat_at = now(), updated_at = now()
          where id = ${jobId} and status in ('queued', 'running')
            and (heartbeat_at is null or heartbeat_at < now() - ${deps.staleSeconds} * interval '1 second')
          returning id, user_id, type, case_reference, ip, device_id`,
    );
    return row;
  }

  /** Ends a job that cannot go on ('stopped' with its reason); the rows not run are skipped. */
  async function stop(job: Claimed, reason: (skipped: number) => string) {
    const skipped = await closeRemainingRows(db, job.type, job.id);
    await db.execute(sql`
      update bulk_jobs set status = 'stopped', stop_reason = ${reason(skipped)}, finished_at = now(),
        updated_at = now()
      where id = ${job.id} and status = 'running'`);
  }

  async function run(queued: Job<{ jobId: string }>): Promise<void> {
    const jobId = queued.data.jobId;
    const job = await claim(jobId);
    if (!job) return;
    let failure: unknown;
    try {
      await runClaimed(job, queued.signal);
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
        await sendBulkJob(deps.queue, jobId, deps.staleSeconds, new Date(Date.now() + 1000)).catch(
          () => null,
        );
      }
    }
    if (failure !== undefined) throw failure;
  }

  async function runClaimed(job: Claimed, signal: AbortSignal) {
    const [user] = await db.select().from(users).where(sql`${users.id} = ${job.user_id}`);
    if (!user || user.status !== 'active' || user.appMode !== 'live') {
      await stop(job, () => messages.bulkJobs.accountNotLive);
      return;
    }
    let caseReference: CaseReference;
    try {
      caseReference = await deps.searches.caseReference(job.case_reference, user);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await stop(job, () => error.message);
      return;
    }
    const price = deps.lookups.prices()[job.type] ?? 0;
    const client: ClientContext = {
      ip: job.ip ?? '',
      deviceId: job.device_id ?? undefined,
      userAgent: undefined,
    };
    // Rows a stopped worker had started: settled from their lookups rows or resumed, first.
    const started = await execute<TakenRow>(
      db,
      sql`select id, line, input, query, lookup_id from bulk_rows
          where job_id = ${job.id} and status = 'pending' and lookup_id is not null order by line`,
    );
    const state = { halted: false, outOfCredits: false, error: undefined as unknown };
    const heartbeat = setInterval(async () => {
      try {
        const alive = await execute<{ id: string }>(
          db,
          sql`update bulk_jobs set heartbeat_at = now() where id = ${job.id} and status = 'running' returning id`,
        );
        // Paused or cancelled: no new row is taken.
        if (alive.length === 0) state.halted = true;
      } catch (err) {
        deps.log?.error({ err, bulk: job.id }, 'bulk heartbeat failed');
      }
    }, 500);
    heartbeat.unref();

    // Rows are taken `rowConcurrency` at a time, each given its lookup id in the same statement, ahead
    // of the lanes, and handed to them in line order; a take finds nothing once the job is no longer
    // running. A pause or cancel stops the lanes before their next row (haltHere in this process, the
    // heartbeat from another); rows taken and not started stay pending with their id, and are resumed
    // (or skipped by a cancel) like a stopped worker's.
    let taken: TakenRow[] = [];
    let taking: Promise<void> | null = null;
    let exhausted = false;
    const takeMore = async () => {
      const rows = await execute<TakenRow>(
        db,
        sql`update bulk_rows set lookup_id = gen_random_uuid()
            where id in (
              select id from bulk_rows
              where job_id = ${job.id} and status = 'pending' and lookup_id is null
                and exists (select 1 from bulk_jobs where id = ${job.id} and status = 'running')
              order by line limit ${deps.rowConcurrency} for update skip locked)
            returning id, line, input, query, lookup_id`,
      );
      if (rows.length === 0) {
        exhausted = true;
        const [still] = await execute<{ status: string }>(
          db,
          sql`select status from bulk_jobs where id = ${job.id}`,
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
    const take = async (): Promise<(TakenRow & { resumed?: true }) | undefined> => {
      const resumed = started.shift();
      if (resumed) return { ...resumed, resumed: true };
      while (taken.length === 0 && !exhausted && !state.halted && state.error === undefined) await refill();
      const row = taken.shift();
      // The next rows are taken while these run, so that a lane seldom waits for a take.
      if (taken.length < deps.rowConcurrency / 2 && !exhausted && !state.halted) void refill();
      return row;
    };
    const outcomes = createOutcomeWriter(db, deps.rowConcurrency * 4);
    const settle = (row: { id: string }, after: LookupState, error: string | null = null) =>
      outcomes.write(outcomeOf(job.type, row, after, error));

    const runRow = async (row: TakenRow & { resumed?: true }) => {
      // Only a row a stopped worker had taken can have a lookup already; a fresh id has none.
      if (row.resumed) {
        const before = await lookupState(db, row.lookup_id);
        if (before && before.status !== 'pending') return settle(row, before);
      }
      let outcome: Awaited<ReturnType<LookupService['lookup']>>;
      try {
        outcome = await deps.lookups.lookup(user, job.type, row.query, client, null, {
          typed: row.input,
          lookupId: row.lookup_id,
          // A fresh row's id was made by its take: no earlier run can have charged under it.
          lookupIdIsNew: row.resumed !== true,
          background: true,
          checkedCase: caseReference,
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === 'insufficient_credits') {
          state.outOfCredits = true;
          return outcomes.write(refusalOf(row, 'insufficient_credits', error.message));
        }
        // Refused or refunded (no source answered, no source of the kind): the lookups row, if the
        // search wrote one, says what it cost (nothing).
        const after = await lookupState(db, row.lookup_id);
        if (after && after.status !== 'pending') return settle(row, after, error.message);
        return outcomes.write(refusalOf(row, 'failed', error.message));
      }
      if (row.resumed) {
        // A resumed charge may have been refunded by the recovery sweep meanwhile: the row says so.
        const after = await lookupState(db, row.lookup_id);
        if (!after || after.status === 'pending')
          throw new Error(`bulk row ${row.id}: its lookup was not settled`);
        return settle(row, after);
      }
      // A fresh row's answer is the one its search just settled: charged at the price, or a free repeat;
      // no source payload at all is the search's no_record (lookup/service.ts).
      await settle(row, {
        status: Object.keys(outcome.payloads).length === 0 ? 'no_record' : 'complete',
        cost: outcome.cached ? 0 : price,
        cache_of: outcome.reusedFrom?.lookupId ?? null,
        sources_answered: Object.keys(outcome.payloads),
        result: { payloads: outcome.payloads, errors: outcome.errors },
      });
    };

    const allTaken = () => exhausted && started.length === 0 && taken.length === 0;
    const going = () => !state.halted && !state.outOfCredits && state.error === undefined && !signal.aborted;
    const lane = async (index: number) => {
      while (going()) {
        // Interactive lookups go first: while they run, the lanes past the job's share wait.
        while (index >= rowsAllowed(deps) && going() && !allTaken()) await deps.searches.foreground.ended(50);
        if (!going()) return;
        const row = await take();
        // A row taken and not started stays pending with its id: resumed later, or skipped by a cancel.
        if (!row || !going()) return;
        try {
          await runRow(row);
        } catch (error) {
          state.error = error;
        }
      }
    };
    runningHere.set(job.id, () => {
      state.halted = true;
    });
    try {
      await Promise.all(Array.from({ length: deps.rowConcurrency }, (_, index) => lane(index)));
      await outcomes.drain();
    } finally {
      runningHere.delete(job.id);
      clearInterval(heartbeat);
    }
    if (state.error !== undefined) throw state.error;
    if (state.outOfCredits) {
      await stop(job, messages.bulkJobs.creditsRanOut);
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

  /** Sends again every job that should be running and whose worker has not been heard from. */
  async function sweep(): Promise<void> {
    const stale = await execute<{ id: string }>(
      db,
      sql`select id from bulk_jobs
          where status in ('queued', 'running')
            and (heartbeat_at is null or heartbeat_at < now() - ${deps.staleSeconds} * interval '1 second')
            and updated_at < now() - interval '2 seconds'`,
    );
    for (const { id } of stale) await sendBulkJob(deps.queue, id, deps.staleSeconds);
  }

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
