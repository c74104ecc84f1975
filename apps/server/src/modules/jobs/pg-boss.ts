import type pg from 'pg';
import PgBoss from 'pg-boss';
import { guardPool } from '../../db/client.ts';
import { failAfterRecovery, logFailure, noteOutage, OUTAGE_WAIT_MS, outageOf, whenUp } from '../../outage.ts';
import type { JobHandler, JobQueue, SendOptions, WorkOptions } from './queue.ts';

export interface PgBossOptions {
  connectionString: string;
  /** Connections pg-boss's own pool may open (apart from the app's). */
  poolSize?: number;
  /** How long `stop` waits for running handlers (ms); pg-boss fails the rest, to be retried. */
  graceMs?: number;
  /** How often pg-boss expires jobs whose process died, among its upkeep (seconds; default 15). */
  maintenanceIntervalSeconds?: number;
  log?: { error(o: object, m: string): void };
}

/** How soon an idle queue is looked at again after it last had a job (ms). */
const POLL_MS = 500;
/**
 * The longest wait between two looks at a queue that has had nothing for a while (ms): the wait
 * doubles from POLL_MS up to this. A job sent by this process wakes its loops at once; one sent by
 * another process, or a retry coming due, waits at most this long.
 */
export const IDLE_POLL_MAX_MS = 5000;

/**
 * What the fetch loops of one queue share in this process: while the queue is empty only one of them
 * (the poller) looks for jobs, on a timer that backs off, and the others wait for it; a job found, a
 * job ended or a send from this process wakes them all and starts the timer again from POLL_MS.
 * So an idle process sends one fetch per queue every few seconds rather than two a second per loop.
 */
export class QueueWaker {
  delayMs = POLL_MS;
  private polling = false;
  private wakers = new Set<() => void>();

  /** Something happened on the queue: every waiting loop looks again, soon. */
  wake() {
    this.delayMs = POLL_MS;
    const woken = [...this.wakers];
    this.wakers.clear();
    for (const wake of woken) wake();
  }

  /** After a fetch that found nothing: the poller waits its (growing) delay, the others until woken. */
  async idle(signal: AbortSignal) {
    if (this.polling) return this.wait(undefined, signal);
    this.polling = true;
    try {
      const delay = this.delayMs;
      this.delayMs = Math.min(this.delayMs * 2, IDLE_POLL_MAX_MS);
      await this.wait(delay, signal);
    } finally {
      this.polling = false;
    }
  }

  private wait(ms: number | undefined, signal: AbortSignal) {
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      const wakers = this.wakers;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wakers.delete(done);
        resolve();
      }
      if (signal.aborted) return done();
      signal.addEventListener('abort', done, { once: true });
      wakers.add(done);
    });
  }
}

/** A handler that outlives its job's expiration fails it (pg-boss retries it), as pg-boss's `work` did. */
const withinSeconds = async (run: Promise<void>, seconds: number) => {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`handler still running after ${seconds} s`)),
          seconds * 1000,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/** What a fetch loop works with: the queue's pg-boss, its log, its stop signal, and the jobs running (id → queue name). */
interface LoopContext {
  boss: PgBoss;
  log: PgBossOptions['log'];
  signal: AbortSignal;
  running: Map<string, string>;
  /** The queue's loops' shared idle state (QueueWaker). */
  waker: QueueWaker;
}

/**
 * Writes how a job ended. Awaited, so that a write cut off by a database outage waits for the
 * database and is tried again: pg-boss 10's own `work` leaves this promise floating, and its
 * rejection during an outage would exit the process. Not written at all, the job expires and is
 * retried by pg-boss's upkeep.
 */
async function settle(context: LoopContext, name: string, id: string, failure: unknown) {
  const { boss, log, signal } = context;
  for (let attempt = 0; ; attempt++) {
    try {
      if (failure === undefined) await boss.complete(name, id);
      else await boss.fail(name, id, failure as object);
      return;
    } catch (err) {
      if (outageOf(err) !== 'database' || attempt >= 3 || signal.aborted) {
        logFailure(log, err, { job: id }, 'job state not saved');
        return;
      }
      noteOutage('database', err);
      await whenUp('database', OUTAGE_WAIT_MS);
    }
  }
}

/** Takes one job of `name` at a time, runs it, and writes how it ended, until the queue stops. */
async function fetchLoop(context: LoopContext, name: string, handler: JobHandler<unknown>) {
  const { boss, log, signal, running, waker } = context;
  while (!signal.aborted) {
    let job: PgBoss.JobWithMetadata<unknown> | undefined;
    try {
      [job] = await boss.fetch<unknown>(name, { batchSize: 1, includeMetadata: true });
    } catch (err) {
      logFailure(log, err, { job: name }, 'job fetch failed');
    }
    if (!job) {
      await waker.idle(signal);
      continue;
    }
    // More may be waiting: the other loops of this queue look too.
    waker.wake();
    const { id, data, retryCount, expireInSeconds } = job;
    running.set(id, name);
    let failure: unknown;
    try {
      // Cut off by a database outage: it fails once the database is back, to be retried.
      await failAfterRecovery(
        () => withinSeconds(handler({ id, name, data, retryCount, signal }), expireInSeconds),
        signal,
      );
    } catch (err) {
      failure = err ?? new Error('job failed');
    }
    // Stopped meanwhile: stop() fails what is still running.
    if (!running.delete(id)) continue;
    await settle(context, name, id, failure);
    // A failed job comes back after its retry delay: look again soon rather than after a long idle wait.
    waker.wake();
  }
}

/** The QueueWaker of each queue this process works or sends to. */
class QueueWakers {
  private readonly byName = new Map<string, QueueWaker>();

  of(name: string): QueueWaker {
    let waker = this.byName.get(name);
    if (!waker) {
      waker = new QueueWaker();
      this.byName.set(name, waker);
    }
    return waker;
  }

  /** A job of `name` was sent or came due: its loops in this process look at once. */
  wake(name: string) {
    this.byName.get(name)?.wake();
  }
}

/**
 * Two processes creating the same queue at once: the loser finds it made, or, when it lost before the
 * winner committed (its table's type name taken, say), tries again shortly.
 */
async function createQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, { name, policy: 'stately' });
      return;
    } catch (error) {
      if (await boss.getQueue(name)) return;
      if (attempt >= 5) throw new Error(`queue ${name} could not be created`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}

const DEFAULT_RETRY_LIMIT = 3;
const DEFAULT_RETRY_DELAY_SECONDS = 2;

/** pg-boss's options; it hands them to node-postgres's Pool as they are (its types list only its own). */
function bossOptionsOf(
  options: PgBossOptions,
): PgBoss.ConstructorOptions & Pick<pg.PoolConfig, 'idleTimeoutMillis'> {
  return {
    connectionString: options.connectionString,
    schema: 'pgboss',
    max: options.poolSize ?? 4,
    // As the app's pool (db/client.ts): node-postgres's 10 s closed and reopened a backend every few
    // seconds per process once the idle queue was polled every 5 s (`connections opened` in
    // bench:scale), each new backend loading its caches again.
    idleTimeoutMillis: 60_000,
    application_name: 'footprint-jobs',
    // Its upkeep expires the jobs of dead processes: often enough that a job is not left long.
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 15,
  };
}

/**
 * The queue on PostgreSQL: pg-boss (10.x) in its own schema
 * `pgboss`, with its own small pool. Every server process polls the same tables, so the work is shared
 * and a job outlives the process that took it (pg-boss expires a job whose process died and retries
 * it). Queues are created with the 'stately' policy, which gives `singletonKey` the meaning queue.ts
 * states: one job per key waiting and one running. Retries back off exponentially (pg-boss's
 * `retryBackoff`, with jitter). `every` is a send keyed to the interval's time slot
 * (`singletonSeconds`): each process sends it, the database keeps one. Jobs are taken by our own fetch
 * loops (`fetch`, then `complete` or `fail`, awaited) rather than pg-boss's `work`, so that a database
 * outage neither exits the process nor loses a job's end (`settle`).
 */
export function createPgBossQueue(options: PgBossOptions): JobQueue {
  const boss = new PgBoss(bossOptionsOf(options));
  // Its fetch loops, upkeep and pool report failures here: an outage is noted once (outage.ts),
  // and pg-boss keeps polling until the database is back.
  boss.on('error', (err) => logFailure(options.log, err, {}, 'job queue error'));
  const queues = new Map<string, Promise<void>>();
  const wakers = new QueueWakers();
  const workers: Array<() => Promise<void>> = [];
  const intervals: NodeJS.Timeout[] = [];
  const everies: Array<{ name: string; seconds: number }> = [];
  let abort = new AbortController();
  let started = false;
  /** From `stop` on: no longer taking jobs, though pg-boss may still be finishing the running ones. */
  let stopping = false;
  /** pg-boss's own start (its pool, schema, upkeep): also made by a send before `start`. */
  let opened: Promise<unknown> | undefined;
  const open = () => {
    opened ??= boss.start().then((started) => {
      // Its pool's clients get the same guard as the app's (db/client.ts).
      const pool = (boss.getDb() as { pool?: pg.Pool }).pool;
      if (pool) guardPool(pool);
      return started;
    });
    return opened;
  };

  /** pg-boss 10 wants a queue created before it is sent to or worked (idempotent; once per process). */
  function ensureQueue(name: string): Promise<void> {
    let ready = queues.get(name);
    if (!ready) {
      ready = open().then(() => createQueue(boss, name));
      queues.set(name, ready);
      ready.catch(() => queues.delete(name));
    }
    return ready;
  }

  async function send<T extends object>(name: string, data: T, opts: SendOptions) {
    await ensureQueue(name);
    const id = await boss.send(name, data, {
      retryLimit: opts.retryLimit ?? DEFAULT_RETRY_LIMIT,
      retryDelay: opts.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      singletonKey: opts.singletonKey,
      ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
      ...(opts.expireInSeconds ? { expireInSeconds: opts.expireInSeconds } : {}),
    });
    // This process's loops of the queue take it at once, whatever their idle wait.
    wakers.wake(name);
    return id;
  }

  /** The fetch loops running, and the jobs they run (id → queue name). */
  const loops = new Set<Promise<void>>();
  const running = new Map<string, string>();

  function startEvery(name: string, seconds: number) {
    const tick = () =>
      void ensureQueue(name)
        .then(() =>
          boss.send(name, {}, { singletonKey: `every:${name}`, singletonSeconds: seconds, retryLimit: 0 }),
        )
        .then((id) => {
          if (id) wakers.wake(name);
        })
        .catch((err) => logFailure(options.log, err, { job: name }, 'scheduled job not sent'));
    tick();
    // Twice a slot, so that a slot is never missed by a timer's drift; the slot's key keeps one.
    const interval = setInterval(tick, Math.max(1, seconds / 2) * 1000);
    interval.unref();
    intervals.push(interval);
  }

  return {
    kind: 'postgres',

    async work<T>(name: string, handler: JobHandler<T>, opts: WorkOptions = {}) {
      const register = async () => {
        await ensureQueue(name);
        // One fetch loop per unit of concurrency, each taking one job at a time.
        for (let i = 0; i < Math.max(1, opts.concurrency ?? 1); i++) {
          const context = { boss, log: options.log, signal: abort.signal, running, waker: wakers.of(name) };
          const loop = fetchLoop(context, name, handler as JobHandler<unknown>);
          loops.add(loop);
          void loop.finally(() => loops.delete(loop));
        }
      };
      if (started) await register();
      else workers.push(register);
    },

    send,

    async depth() {
      if (!started) return {};
      const names = [...queues.keys()];
      // pg-boss counts a queue's jobs before 'active': created and waiting to retry.
      const sizes = await Promise.all(names.map((name) => boss.getQueueSize(name)));
      return Object.fromEntries(names.map((name, i) => [name, sizes[i] ?? 0]));
    },

    async every(name: string, everySeconds: number) {
      everies.push({ name, seconds: everySeconds });
      if (started) startEvery(name, everySeconds);
    },

    async start() {
      if (started) return;
      abort = new AbortController();
      await open();
      started = true;
      stopping = false;
      for (const register of workers.splice(0)) await register();
      for (const { name, seconds } of everies) startEvery(name, seconds);
    },

    isRunning: () => started && !stopping,

    async stop() {
      if (!opened) return;
      stopping = true;
      for (const interval of intervals.splice(0)) clearInterval(interval);
      abort.abort();
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...loops]),
        new Promise((resolve) => {
          graceTimer = setTimeout(resolve, options.graceMs ?? 10_000);
        }),
      ]);
      clearTimeout(graceTimer);
      // Handlers still running after the grace period: failed now, so that they are retried soon
      // (here after a restart, or by another process) instead of when they expire.
      await Promise.allSettled(
        [...running].map(([id, name]) => boss.fail(name, id, new Error('the job queue stopped'))),
      );
      await boss.stop({ graceful: true, wait: true, timeout: 1000 });
      started = false;
      opened = undefined;
    },
  };
}
