/**
 * The background work of the product (bulk lookups, watchlist runs) goes through one queue with two
 * implementations behind this interface:
 *
 *   - on PostgreSQL (`DATABASE_URL` set), a well-kept PostgreSQL-backed queue, so that several server
 *     processes on several machines share the work and a job outlives the process that took it;
 *   - on the embedded PGlite default, a runner inside the one process, keeping its jobs in the same
 *     database, so that they too resume after a restart.
 *
 * Delivery is at least once: a handler may run again after a crash or a retry, so a handler is written
 * to be idempotent (a bulk row already run is skipped, a watch run already compared is not compared
 * again). `singletonKey` folds sends of the same work: at most one job per name and key waits, and
 * one runs; a send while one runs queues the next, so that work arriving during a run is not lost.
 */
export interface Job<T> {
  id: string;
  name: string;
  data: T;
  /** How many times this job has been tried before (0 on the first run). */
  retryCount: number;
  /**
   * Aborted when the queue stops: a long handler ends early by throwing, and its job runs again
   * later (on another process, or on the next start).
   */
  signal: AbortSignal;
}

export type JobHandler<T> = (job: Job<T>) => Promise<void>;

export interface SendOptions {
  /**
   * At most one queued job with this key per job name (and one running); a second send is folded into
   * it. Required: on PostgreSQL a send without one is folded with every other keyless send of its
   * name (a queue of one job at a time), which no sender means; the key names the work (a bulk job's
   * id, a capture's id) or, where one run at a time is meant, says so.
   */
  singletonKey: string;
  /** Tries after the first failure (default 3), spaced by exponential backoff from `retryDelaySeconds`. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Not before this moment. */
  startAfter?: Date;
  /**
   * PostgreSQL: a run not finished after this long counts as lost with its process, and the job is
   * retried (pg-boss's expiration, checked at its upkeep; default 15 minutes). A handler that can run
   * longer guards itself against a second run (bulk's lease). The in-process runner has no need of it:
   * it takes back every job left running when it starts.
   */
  expireInSeconds?: number;
}

export interface WorkOptions {
  /** Jobs of this name run at once in this process (default 1). */
  concurrency?: number;
}

export interface JobQueue {
  readonly kind: 'postgres' | 'in-process';
  /** Registers the handler of a job name (before or after `start`). */
  work<T>(name: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /** Queues a job; answers its id, or null when a job with the same singletonKey is already queued. */
  send<T extends object>(name: string, data: T, options: SendOptions): Promise<string | null>;
  /** Sends `name` (with empty data) every `everySeconds`, once across all processes. */
  every(name: string, everySeconds: number): Promise<void>;
  /** Jobs waiting to run (due or not yet), per job name this process has sent or worked (metrics). */
  depth(): Promise<Record<string, number>>;
  start(): Promise<void>;
  /** Whether the queue is started and not stopping (GET /api/health/ready reports it). */
  isRunning(): boolean;
  /** Stops taking jobs and waits for the running ones (up to a grace period). */
  stop(): Promise<void>;
}
