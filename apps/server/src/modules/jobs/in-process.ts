import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
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

interface JobRow {
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

/**
 * The queue on the embedded PGlite: jobs kept in our own `jobs` table, so that they outlive a restart,
 * and run by one poller inside this process (PGlite serves one process, so there is no one to share
 * the work with). Failures are retried with exponential backoff (delay × 2^tries); `singletonKey` is
 * enforced by a partial unique index (at most one job per name and key waiting, one running). On start
 * every job still 'active' was left by a process that stopped (this one is the only one), so it is
 * taken back and run again: handlers are idempotent (queue.ts).
 */
export function createInProcessQueue(db: Database, options: InProcessOptions = {}): JobQueue {
  const pollMs = options.pollMs ?? 500;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const graceMs = options.graceMs ?? 10_000;
  const handlers = new Map<string, { handler: JobHandler<unknown>; concurrency: number; running: number }>();
  const running = new Set<Promise<void>>();
  let abort = new AbortController();
  const intervals: NodeJS.Timeout[] = [];
  const everies: Array<{ name: string; seconds: number }> = [];
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let again = false;

  const execute = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

  /** Takes the oldest due job of a name whose singleton key has no job running. */
  async function claim(name: string): Promise<JobRow | undefined> {
    const [row] = await execute<JobRow>(sql`
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
      returning id, name, data, retry_count, retry_limit, retry_delay_seconds`);
    return row;
  }

  async function finish(row: JobRow, error: unknown) {
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

  function runJob(row: JobRow) {
    const entry = handlers.get(row.name)!;
    entry.running++;
    const job: Job<unknown> = {
      id: row.id,
      name: row.name,
      data: row.data,
      retryCount: row.retry_count,
      signal: abort.signal,
    };
    const beat = setInterval(() => {
      void db.execute(sql`update jobs set heartbeat_at = now() where id = ${row.id}`).catch(() => {});
    }, heartbeatMs);
    beat.unref();
    const task = (async () => {
      let failure: unknown;
      try {
        await entry.handler(job);
      } catch (error) {
        failure = error ?? new Error('job failed');
      } finally {
        clearInterval(beat);
      }
      // Stopped before the handler ended: the row stays 'active' and the next start takes it back.
      await finish(row, failure).catch((err) =>
        options.log?.error({ err, job: row.id }, 'job state not saved'),
      );
    })().finally(() => {
      entry.running--;
      running.delete(task);
      wake();
    });
    running.add(task);
  }

  async function poll() {
    if (polling) {
      again = true;
      return;
    }
    polling = true;
    try {
      do {
        again = false;
        for (const [name, entry] of handlers) {
          while (!stopping && entry.running < entry.concurrency) {
            const row = await claim(name);
            if (!row) break;
            runJob(row);
          }
        }
      } while (again && !stopping);
    } catch (err) {
      options.log?.error({ err }, 'job poll failed');
    } finally {
      polling = false;
    }
  }

  function wake() {
    if (!started || stopping) return;
    void poll();
  }

  function schedule() {
    if (stopping) return;
    timer = setTimeout(async () => {
      await poll();
      schedule();
    }, pollMs);
    timer.unref();
  }

  async function send<T extends object>(name: string, data: T, opts: SendOptions = {}) {
    const [row] = await execute<{ id: string }>(sql`
      insert into jobs (name, data, singleton_key, retry_limit, retry_delay_seconds, start_after)
      values (${name}, ${JSON.stringify(data)}::jsonb, ${opts.singletonKey ?? null},
        ${opts.retryLimit ?? DEFAULT_RETRY_LIMIT}, ${opts.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS},
        ${(opts.startAfter ?? new Date()).toISOString()}::timestamptz)
      on conflict do nothing
      returning id`);
    if (row) setImmediate(wake);
    return row?.id ?? null;
  }

  function startEvery(name: string, seconds: number) {
    const tick = () =>
      void send(name, {}, { singletonKey: `every:${name}`, retryLimit: 0 }).catch((err) =>
        options.log?.error({ err, job: name }, 'scheduled job not sent'),
      );
    tick();
    const interval = setInterval(tick, seconds * 1000);
    interval.unref();
    intervals.push(interval);
  }

  return {
    kind: 'in-process',

    async work<T>(name: string, handler: JobHandler<T>, opts: WorkOptions = {}) {
      handlers.set(name, {
        handler: handler as JobHandler<unknown>,
        concurrency: Math.max(1, opts.concurrency ?? 1),
        running: 0,
      });
      wake();
    },

    send,

    async every(name: string, everySeconds: number) {
      everies.push({ name, seconds: everySeconds });
      if (started) startEvery(name, everySeconds);
    },

    async start() {
      if (started) return;
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
      started = true;
      stopping = false;
      abort = new AbortController();
      for (const { name, seconds } of everies) startEvery(name, seconds);
      schedule();
      wake();
    },

    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      for (const interval of intervals.splice(0)) clearInterval(interval);
      abort.abort();
      const all = Promise.allSettled([...running]);
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
      });
      await Promise.race([all, grace]);
      clearTimeout(graceTimer);
      if (running.size > 0) {
        options.log?.warn({ running: running.size }, 'jobs still running at stop: resumed on the next start');
      }
      started = false;
    },
  };
}
