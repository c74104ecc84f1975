import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { failAfterRecovery, logFailure } from '../../outage.ts';
import {
  claimJob,
  finishJob,
  insertJob,
  type JobRow,
  takeBackAbandoned,
  waitingJobs,
} from './in-process-store.ts';
import type { Job, JobHandler, JobQueue, SendOptions, WorkOptions } from './queue.ts';

export interface InProcessOptions {
  /** How often the poller looks for due jobs when nothing woke it (ms). */
  pollMs?: number;
  /** How often a running job's heartbeat is written (ms). */
  heartbeatMs?: number;
  /** How long `stop` waits for running handlers before leaving them to the next start (ms). */
  graceMs?: number;
  log?: { error(o: object, m: string): void; warn(o: object, m: string): void };
}

/** The runner's state: its handlers, the jobs running, its timers, and where it is in its life. */
export interface Runner {
  db: Database;
  pollMs: number;
  heartbeatMs: number;
  graceMs: number;
  log: InProcessOptions['log'];
  handlers: Map<string, { handler: JobHandler<unknown>; concurrency: number; running: number }>;
  running: Set<Promise<void>>;
  abort: AbortController;
  intervals: NodeJS.Timeout[];
  everies: Array<{ name: string; seconds: number }>;
  started: boolean;
  stopping: boolean;
  timer: NodeJS.Timeout | undefined;
  polling: boolean;
  again: boolean;
}

export function createRunner(db: Database, options: InProcessOptions = {}): Runner {
  return {
    db,
    pollMs: options.pollMs ?? 500,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    graceMs: options.graceMs ?? 10_000,
    log: options.log,
    handlers: new Map(),
    running: new Set(),
    abort: new AbortController(),
    intervals: [],
    everies: [],
    started: false,
    stopping: false,
    timer: undefined,
    polling: false,
    again: false,
  };
}

/** Runs a claimed job in the background with its heartbeat, and records how it ended. */
export function runJob(runner: Runner, row: JobRow) {
  const { db } = runner;
  const entry = runner.handlers.get(row.name)!;
  entry.running++;
  const job: Job<unknown> = {
    id: row.id,
    name: row.name,
    data: row.data,
    retryCount: row.retry_count,
    signal: runner.abort.signal,
  };
  const beat = setInterval(() => {
    void db.execute(sql`update jobs set heartbeat_at = now() where id = ${row.id}`).catch(() => {});
  }, runner.heartbeatMs);
  beat.unref();
  const task = (async () => {
    let failure: unknown;
    try {
      // Cut off by a database outage: its end is written once the database is back.
      await failAfterRecovery(() => entry.handler(job), runner.abort.signal);
    } catch (error) {
      failure = error ?? new Error('job failed');
    } finally {
      clearInterval(beat);
    }
    // Stopped before the handler ended: the row stays 'active' and the next start takes it back.
    await finishJob(db, row, failure).catch((err) =>
      logFailure(runner.log, err, { job: row.id }, 'job state not saved'),
    );
  })().finally(() => {
    entry.running--;
    runner.running.delete(task);
    wake(runner);
  });
  runner.running.add(task);
}

/** Claims and starts due jobs of every name up to its concurrency; a call during a poll makes it look again. */
export async function poll(runner: Runner) {
  if (runner.polling) {
    runner.again = true;
    return;
  }
  runner.polling = true;
  try {
    do {
      runner.again = false;
      for (const [name, entry] of runner.handlers) {
        while (!runner.stopping && entry.running < entry.concurrency) {
          const row = await claimJob(runner.db, name);
          if (!row) break;
          runJob(runner, row);
        }
      }
    } while (runner.again && !runner.stopping);
  } catch (err) {
    logFailure(runner.log, err, {}, 'job poll failed');
  } finally {
    runner.polling = false;
  }
}

export function wake(runner: Runner) {
  if (!runner.started || runner.stopping) return;
  void poll(runner);
}

function schedule(runner: Runner) {
  if (runner.stopping) return;
  runner.timer = setTimeout(async () => {
    await poll(runner);
    schedule(runner);
  }, runner.pollMs);
  runner.timer.unref();
}

export async function sendJob<T extends object>(runner: Runner, name: string, data: T, opts: SendOptions) {
  const id = await insertJob(runner.db, name, data, opts);
  if (id) setImmediate(() => wake(runner));
  return id;
}

function startEvery(runner: Runner, name: string, seconds: number) {
  const tick = () =>
    void sendJob(runner, name, {}, { singletonKey: `every:${name}`, retryLimit: 0 }).catch((err) =>
      logFailure(runner.log, err, { job: name }, 'scheduled job not sent'),
    );
  tick();
  const interval = setInterval(tick, seconds * 1000);
  interval.unref();
  runner.intervals.push(interval);
}

export async function startRunner(runner: Runner) {
  if (runner.started) return;
  await takeBackAbandoned(runner.db);
  runner.started = true;
  runner.stopping = false;
  runner.abort = new AbortController();
  for (const { name, seconds } of runner.everies) startEvery(runner, name, seconds);
  schedule(runner);
  wake(runner);
}

export async function stopRunner(runner: Runner) {
  runner.stopping = true;
  if (runner.timer) clearTimeout(runner.timer);
  for (const interval of runner.intervals.splice(0)) clearInterval(interval);
  runner.abort.abort();
  const all = Promise.allSettled([...runner.running]);
  let graceTimer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    graceTimer = setTimeout(resolve, runner.graceMs);
  });
  await Promise.race([all, grace]);
  clearTimeout(graceTimer);
  if (runner.running.size > 0) {
    runner.log?.warn(
      { running: runner.running.size },
      'jobs still running at stop: resumed on the next start',
    );
  }
  runner.started = false;
}

/**
 * The queue on the embedded PGlite: jobs kept in our own `jobs` table, so that they outlive a restart,
 * and run by one poller inside this process (PGlite serves one process, so there is no one to share
 * the work with). Failures are retried with exponential backoff (delay × 2^tries); `singletonKey` is
 * enforced by a partial unique index (at most one job per name and key waiting, one running). On start
 * every job still 'active' was left by a process that stopped (this one is the only one), so it is
 * taken back and run again: handlers are idempotent (queue.ts). The statements are in
 * in-process-store.ts, the runner's steps above.
 */
export function createInProcessQueue(db: Database, options: InProcessOptions = {}): JobQueue {
  const runner = createRunner(db, options);
  return {
    kind: 'in-process',

    async work<T>(name: string, handler: JobHandler<T>, opts: WorkOptions = {}) {
      runner.handlers.set(name, {
        handler: handler as JobHandler<unknown>,
        concurrency: Math.max(1, opts.concurrency ?? 1),
        running: 0,
      });
      wake(runner);
    },

    send: <T extends object>(name: string, data: T, opts: SendOptions) => sendJob(runner, name, data, opts),

    async every(name: string, everySeconds: number) {
      runner.everies.push({ name, seconds: everySeconds });
      if (runner.started) startEvery(runner, name, everySeconds);
    },

    depth: () => waitingJobs(db),
    start: () => startRunner(runner),
    isRunning: () => runner.started && !runner.stopping,
    stop: () => stopRunner(runner),
  };
}
