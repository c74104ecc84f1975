import type { ReadinessChecks } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { migrationStatus } from '../../db/migrations.ts';
import type { RateLimits } from '../../security/rate-limit.ts';
import type { JobQueue } from '../jobs/queue.ts';

/** How long one dependency may take to answer a readiness check. */
export const CHECK_TIMEOUT_MS = 1000;
/** A verdict is shared by the checks asked for within this long (a load balancer polls often). */
const REUSE_MS = 500;

export type CheckName = keyof ReadinessChecks;

export interface Verdict {
  ready: boolean;
  checks: ReadinessChecks;
  /** The checks that fail, in the order of `checks`. */
  failing: CheckName[];
}

/**
 * Whether this process should receive traffic: the database answers `select 1`, every migration of
 * this build is applied, Redis (when the rate limits use it) answers PING, the job queue runs, and
 * the process is not draining for a shutdown. Each dependency gets CHECK_TIMEOUT_MS.
 */
export interface Readiness {
  check(): Promise<Verdict>;
  /** From now on every check fails with `draining` (SIGTERM: main.ts). */
  drain(): void;
  readonly draining: boolean;
}

export interface ReadinessOptions {
  db: Database;
  migrationsFolder: string;
  limits: Pick<RateLimits, 'ping'>;
  jobs: Pick<JobQueue, 'isRunning'>;
  timeoutMs?: number;
  log?: { warn(o: object, m: string): void };
}

class Timeout extends Error {}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Timeout(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function createReadiness(options: ReadinessOptions): Readiness {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  let draining = false;
  /** Migrations once all applied stay applied: the table is not read again. */
  let migrated = false;
  let unreadableLogged = false;
  type Measured = Pick<ReadinessChecks, 'database' | 'migrations' | 'redis'>;
  let last: { at: number; measured: Promise<Measured> } | undefined;

  async function database(): Promise<ReadinessChecks['database']> {
    try {
      await within(options.db.execute(sql`select 1`), timeoutMs);
      return 'ok';
    } catch {
      return 'unreachable';
    }
  }

  async function migrations(): Promise<ReadinessChecks['migrations']> {
    if (migrated) return 'ok';
    try {
      const status = await within(migrationStatus(options.db, options.migrationsFolder), timeoutMs);
      migrated = status.pending.length === 0;
      return migrated ? 'ok' : 'pending';
    } catch (err) {
      if (!unreadableLogged) {
        unreadableLogged = true;
        options.log?.warn({ err }, 'readiness: the applied migrations could not be read');
      }
      return 'unknown';
    }
  }

  async function redis(): Promise<ReadinessChecks['redis']> {
    if (!options.limits.ping) return 'not configured';
    try {
      await within(options.limits.ping(), timeoutMs);
      return 'ok';
    } catch {
      return 'unreachable';
    }
  }

  async function measure(): Promise<Measured> {
    const [db, cache] = await Promise.all([database(), redis()]);
    // With the database down the migrations cannot be read: that check is `unknown`, not failing.
    const applied = db === 'ok' ? await migrations() : migrated ? 'ok' : 'unknown';
    return { database: db, migrations: applied, redis: cache };
  }

  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
    async check() {
      const now = Date.now();
      if (!last || now - last.at > REUSE_MS) last = { at: now, measured: measure() };
      const measured = await last.measured;
      const checks: ReadinessChecks = {
        ...measured,
        jobs: options.jobs.isRunning() ? 'ok' : 'stopped',
        draining,
      };
      const failing: CheckName[] = [];
      if (checks.database !== 'ok') failing.push('database');
      // `unknown` (the table could not be read, e.g. its grant missing) is logged, not failed.
      if (checks.migrations === 'pending') failing.push('migrations');
      if (checks.redis === 'unreachable') failing.push('redis');
      if (checks.jobs !== 'ok') failing.push('jobs');
      if (checks.draining) failing.push('draining');
      return { ready: failing.length === 0, checks, failing };
    },
  };
}
