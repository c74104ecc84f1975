import PgBoss from 'pg-boss';
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

const DEFAULT_RETRY_LIMIT = 3;
const DEFAULT_RETRY_DELAY_SECONDS = 2;

/**
 * The queue on PostgreSQL: pg-boss (10.x, the last line that runs on Node 20) in its own schema
 * `pgboss`, with its own small pool. Every server process polls the same tables, so the work is shared
 * and a job outlives the process that took it (pg-boss expires a job whose process died and retries
 * it). Queues are created with the 'stately' policy, which gives `singletonKey` the meaning queue.ts
 * states: one job per key waiting and one running. Retries back off exponentially (pg-boss's
 * `retryBackoff`, with jitter). `every` is a send keyed to the interval's time slot
 * (`singletonSeconds`): each process sends it, the database keeps one.
 */
export function createPgBossQueue(options: PgBossOptions): JobQueue {
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: 'pgboss',
    max: options.poolSize ?? 4,
    application_name: 'footprint-jobs',
    // Its upkeep expires the jobs of dead processes: often enough that a job is not left long.
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 15,
  });
  boss.on('error', (err) => options.log?.error({ err }, 'job queue error'));
  const queues = new Map<string, Promise<void>>();
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
    opened ??= boss.start();
    return opened;
  };

  /**
   * Two processes creating the same queue at once: the loser finds it made, or, when it lost
   * before the winner committed (its table's type name taken, say), tries again shortly.
   */
  async function createQueue(name: string): Promise<void> {
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

  /** pg-boss 10 wants a queue created before it is sent to or worked (idempotent; once per process). */
  function ensureQueue(name: string): Promise<void> {
    let ready = queues.get(name);
    if (!ready) {
      ready = open().then(() => createQueue(name));
      queues.set(name, ready);
      ready.catch(() => queues.delete(name));
    }
    return ready;
  }

  async function send<T extends object>(name: string, data: T, opts: SendOptions = {}) {
    await ensureQueue(name);
    return boss.send(name, data, {
      retryLimit: opts.retryLimit ?? DEFAULT_RETRY_LIMIT,
      retryDelay: opts.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
      ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
      ...(opts.expireInSeconds ? { expireInSeconds: opts.expireInSeconds } : {}),
    });
  }

  function startEvery(name: string, seconds: number) {
    const tick = () =>
      void ensureQueue(name)
        .then(() =>
          boss.send(name, {}, { singletonKey: `every:${name}`, singletonSeconds: seconds, retryLimit: 0 }),
        )
        .catch((err) => options.log?.error({ err, job: name }, 'scheduled job not sent'));
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
        // pg-boss 10 has no team size: each `work` call is one fetch loop taking one job at a time.
        for (let i = 0; i < Math.max(1, opts.concurrency ?? 1); i++) {
          await boss.work<T>(
            name,
            { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 0.5 },
            async ([job]) => {
              if (!job) return;
              await handler({
                id: job.id,
                name: job.name,
                data: job.data,
                retryCount: job.retryCount,
                signal: abort.signal,
              });
            },
          );
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
      await boss.stop({ graceful: true, wait: true, timeout: options.graceMs ?? 10_000 });
      started = false;
      opened = undefined;
    },
  };
}
