/**
 * Outages of what the server depends on (the database, Redis, the SMTP server), in one place:
 *
 *   - `outageOf(error)` says whether an error means a dependency is unreachable, and which one; the
 *     error handler answers such an error with a 503 and Retry-After instead of a 500 (http/errors.ts);
 *   - one tracker per dependency remembers whether it is up and since when, and logs an outage and
 *     its recovery once each, in one line, however many requests, jobs and pools saw it;
 *   - `dependencyState()` is what a readiness check reads.
 *
 * A dependency is marked down by the first error that shows it (a pool's, a query's, a send's) and up
 * by the first success: a new connection, a probe its owner registered (run every second while it is
 * down), or a send that went through.
 */

export type Dependency = 'database' | 'redis' | 'smtp';

export const DEPENDENCIES: readonly Dependency[] = ['database', 'redis', 'smtp'];

/** What the 503 of an outage asks a client to wait before trying again (seconds). */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** How often a dependency that is down is probed (ms). */
const PROBE_MS = 1000;

/**
 * For this long after a recovery, errors are taken for stragglers of the outage (operations started
 * before it ended), not a new one: a lasting outage keeps failing and is logged again after it.
 */
const STRAGGLER_MS = 2000;

/** An error of a dependency, tagged where it was raised (the mailer, the rate limiter). */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: Dependency,
    override readonly cause: unknown,
  ) {
    super(`${dependency} unreachable: ${errorName(cause)}`);
    this.name = 'DependencyUnavailableError';
  }
}

/** Socket errors that mean the other end is gone, refusing, or unreachable. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's answers that the server is going away or not taking connections: admin_shutdown,
 * crash_shutdown, cannot_connect_now, too_many_connections, and class 08 (connection exceptions).
 */
const isPostgresOutageCode = (code: string) =>
  code === '57P01' ||
  code === '57P02' ||
  code === '57P03' ||
  code === '53300' ||
  /^08[0-9A-Z]{3}$/.test(code);

/** node-postgres's own words for a connection lost, timed out or unusable (it gives them no code). */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
];

/** The errors in a chain: the error, its `cause`s, and an AggregateError's members (connect to ::1 and 127.0.0.1). */
function* chainOf(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (depth > 8 || error === null || typeof error !== 'object') return;
  const err = error as Record<string, unknown>;
  yield err;
  if (Array.isArray(err.errors)) for (const member of err.errors) yield* chainOf(member, depth + 1);
  if (err.cause !== undefined && err.cause !== error) yield* chainOf(err.cause, depth + 1);
}

/**
 * The dependency an error shows to be unreachable, or undefined for any other error. Errors tagged
 * where they were raised name theirs; an untagged connection error (a pool's connect, a query cut off,
 * PostgreSQL shutting down, also wrapped by Drizzle as DrizzleQueryError) is the database's.
 */
export function outageOf(error: unknown): Dependency | undefined {
  for (const err of chainOf(error)) {
    if (err instanceof DependencyUnavailableError) return err.dependency;
    const code = typeof err.code === 'string' ? err.code : '';
    if (CONNECTION_CODES.has(code) || isPostgresOutageCode(code)) return 'database';
    const message = typeof err.message === 'string' ? err.message : '';
    if (PG_CONNECTION_MESSAGES.some((words) => message.includes(words))) return 'database';
  }
  return undefined;
}

/** The shortest name of what went wrong: the innermost code (ECONNREFUSED, 57P01), else the message. */
export function errorName(error: unknown): string {
  let name: string | undefined;
  for (const err of chainOf(error)) {
    if (typeof err.code === 'string' && (CONNECTION_CODES.has(err.code) || isPostgresOutageCode(err.code)))
      name = err.code;
  }
  if (name) return name;
  let message = String(error);
  for (const err of chainOf(error)) if (typeof err.message === 'string' && err.message) message = err.message;
  return message.slice(0, 200);
}

interface Tracker {
  up: boolean;
  since: Date;
  probes: Set<() => Promise<unknown>>;
  timer: NodeJS.Timeout | undefined;
  waiters: Set<() => void>;
  /** When it last came back (ms), for the stragglers of that outage. */
  recoveredAt: number | undefined;
}

type Log = {
  warn(o: object, m: string): void;
  info(o: object, m: string): void;
  error(o: object, m: string): void;
};

/** Until the app's logger is given (setOutageLog), outages go to stderr as one JSON line each. */
const stderrLog: Log = {
  warn: (o, m) => console.error(JSON.stringify({ level: 40, msg: m, ...o })),
  info: (o, m) => console.error(JSON.stringify({ level: 30, msg: m, ...o })),
  error: (o, m) => console.error(JSON.stringify({ level: 50, msg: m, ...o })),
};
let log: Log = stderrLog;

const trackers = Object.fromEntries(
  DEPENDENCIES.map((dependency) => [
    dependency,
    {
      up: true,
      since: new Date(),
      probes: new Set(),
      timer: undefined,
      waiters: new Set(),
      recoveredAt: undefined,
    },
  ]),
) as Record<Dependency, Tracker>;

/** Where outages and recoveries are logged (the app's logger). */
export function setOutageLog(logger: Log): void {
  log = logger;
}

/** Whether each dependency is reachable, and since when: what a readiness check answers from. */
export function dependencyState(): Record<Dependency, { up: boolean; since: Date }> {
  return Object.fromEntries(
    DEPENDENCIES.map((dependency) => [
      dependency,
      { up: trackers[dependency].up, since: trackers[dependency].since },
    ]),
  ) as Record<Dependency, { up: boolean; since: Date }>;
}

export const isDown = (dependency: Dependency): boolean => !trackers[dependency].up;

/** Marks a dependency unreachable; the first error of an outage is logged, the rest are not. */
export function noteOutage(dependency: Dependency, error: unknown): void {
  const tracker = trackers[dependency];
  if (!tracker.up) return;
  if (tracker.recoveredAt !== undefined && Date.now() - tracker.recoveredAt < STRAGGLER_MS) return;
  tracker.up = false;
  tracker.since = new Date();
  log.error({ kind: dependency, error: errorName(error) }, `${dependency} unreachable`);
  probe(dependency);
}

/** Marks a dependency reachable again; logged once, with how long it was down. */
export function noteReachable(dependency: Dependency): void {
  const tracker = trackers[dependency];
  if (tracker.up) return;
  const downSeconds = Math.round((Date.now() - tracker.since.getTime()) / 100) / 10;
  tracker.up = true;
  tracker.since = new Date();
  tracker.recoveredAt = Date.now();
  clearTimeout(tracker.timer);
  tracker.timer = undefined;
  log.info({ kind: dependency, downSeconds }, `${dependency} reachable again`);
  for (const wake of tracker.waiters) wake();
}

/**
 * Registers a check that succeeds when the dependency answers (a `select 1`, an SMTP greeting): run
 * every second while it is down, so that a recovery is seen and logged without waiting for traffic.
 * Answers the function that unregisters it.
 */
export function watchRecovery(dependency: Dependency, check: () => Promise<unknown>): () => void {
  const tracker = trackers[dependency];
  tracker.probes.add(check);
  if (!tracker.up) probe(dependency);
  return () => {
    tracker.probes.delete(check);
  };
}

function probe(dependency: Dependency) {
  const tracker = trackers[dependency];
  if (tracker.up || tracker.timer || tracker.probes.size === 0) return;
  tracker.timer = setTimeout(async () => {
    const results = await Promise.allSettled([...tracker.probes].map((check) => check()));
    tracker.timer = undefined;
    if (results.some((result) => result.status === 'fulfilled')) noteReachable(dependency);
    else probe(dependency);
  }, PROBE_MS);
  tracker.timer.unref();
}

/** Resolves true once the dependency is up again, or false after `timeoutMs`. */
export function whenUp(dependency: Dependency, timeoutMs: number): Promise<boolean> {
  const tracker = trackers[dependency];
  if (tracker.up) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (up: boolean) => {
      clearTimeout(timer);
      tracker.waiters.delete(wake);
      resolve(up);
    };
    const wake = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    timer.unref();
    tracker.waiters.add(wake);
  });
}

/**
 * Logs a failure of background work (a job, a flush, a sweep), unless it is an outage: that is noted
 * on its tracker, which logs it once. Answers whether it was an outage.
 */
export function logFailure(
  logger: { error(o: object, m: string): void } | undefined,
  error: unknown,
  context: object,
  message: string,
): boolean {
  const dependency = outageOf(error);
  if (dependency) {
    noteOutage(dependency, error);
    return true;
  }
  logger?.error({ err: error, ...context }, message);
  return false;
}

/** How long background work cut off by a database outage waits for it to come back (ms). */
export const OUTAGE_WAIT_MS = 60_000;

/**
 * Runs background work; when a database outage cuts it off, its failure is held until the database
 * is back (at most `waitMs`, or until `signal` aborts), so that the queue can write it and retry the
 * work: it cannot while the database is down.
 */
export async function failAfterRecovery<T>(
  run: () => Promise<T>,
  signal?: AbortSignal,
  waitMs = OUTAGE_WAIT_MS,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (outageOf(error) === 'database' && !signal?.aborted) {
      noteOutage('database', error);
      const aborted = new Promise<void>((resolve) =>
        signal?.addEventListener('abort', () => resolve(), { once: true }),
      );
      await Promise.race([whenUp('database', waitMs), aborted]);
    }
    throw error;
  }
}
