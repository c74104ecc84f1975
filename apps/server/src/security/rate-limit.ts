import { Redis } from 'ioredis';
import {
  type IRateLimiterOptions,
  RateLimiterDrizzle,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { DependencyUnavailableError, noteOutage, noteReachable } from '../outage.ts';

/**
 * A spent limit: the HTTP layer answers it with a 429 and a Retry-After header (http/errors.ts).
 * `message` replaces the default "too many requests" text when the caller gave one.
 */
export class RateLimitedError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly customMessage?: string,
    /** Where the spent limit stands (its size and window), for callers that advertise it. */
    readonly quota?: Quota,
  ) {
    super(customMessage ?? `rate limited, retry after ${retryAfterSeconds} s`);
    this.name = 'RateLimitedError';
  }
}

/**
 * Where one key of a limit stands after a request: what the IETF RateLimit fields advertise
 * (http/rate-limit-fields.ts).
 */
export interface Quota {
  /** Points of the window. */
  limit: number;
  windowSeconds: number;
  /** Points left in the current window. */
  remaining: number;
  /** Seconds until the current window ends and the points come back. */
  resetSeconds: number;
}

export interface LimitRule {
  points: number;
  durationSeconds: number;
  /** How long to block once the points are spent; defaults to the rest of the window. */
  blockSeconds?: number;
}

/**
 * The limits of the sign-in endpoints. The rule behind them: nothing an outsider sends may refuse a
 * user. So a failure counts against the address that sent it (per IP) and against the pair of the
 * account and that address (per account and IP), never against the account alone; a successful
 * sign-in spends nothing, so an office of officers behind one address is never limited by its
 * successes. Across all addresses an account only slows down (`defaultSlowdown`), it never locks.
 * docs/security.md ("Throttling and passwords") lists them with the reasons.
 */
export const defaultLimits = {
  /** Failed logins from one address, whatever the accounts. */
  loginFailuresPerIp: { points: 50, durationSeconds: 900, blockSeconds: 900 },
  /** Failed logins for one account from one address. */
  loginFailuresPerAccountIp: { points: 10, durationSeconds: 900, blockSeconds: 900 },
  /** Failed logins for one account from anywhere: only a counter for the slowdown, never a block. */
  loginFailuresPerAccount: { points: 1_000_000, durationSeconds: 900 },
  /** Wrong codes from one address (a code with no open challenge counts here, not per account). */
  otpFailuresPerIp: { points: 30, durationSeconds: 600, blockSeconds: 600 },
  /** Wrong codes for an open challenge of one account from one address. */
  otpFailuresPerAccountIp: { points: 15, durationSeconds: 3600, blockSeconds: 3600 },
  /** Resend requests from one address. */
  resendPerIp: { points: 20, durationSeconds: 600 },
  /** Forgot-password requests from one address. */
  forgotPerIp: { points: 10, durationSeconds: 600 },
  /** Forgot-password requests for one account from one address. */
  forgotPerAccountIp: { points: 3, durationSeconds: 900 },
  /**
   * Reset-link mails to one account: beyond them a request still answers the same and mails nothing,
   * because the owner's inbox already holds links of the last minutes (valid for an hour).
   */
  forgotMailsPerAccount: { points: 3, durationSeconds: 900 },
  /** Failed resets (wrong or spent token) from one address; a successful reset spends nothing. */
  resetFailuresPerIp: { points: 20, durationSeconds: 600, blockSeconds: 600 },
  /** Registrations from one address. */
  registerPerIp: { points: 10, durationSeconds: 3600 },
  /** "Someone tried to register with your address" mails to one account; beyond them none is sent. */
  registerTakenMailsPerAccount: { points: 3, durationSeconds: 3600 },
  /** POST /api/verify: a court or an editor checks a few files, never thousands of hashes. */
  verifyPerIp: { points: 30, durationSeconds: 600 },
  /**
   * POST /api/verify/capture: one per capture, and an evidence bundle dropped on /verify checks each of
   * its captures at once; a signature check is cheap, yet nobody needs thousands.
   */
  captureChecksPerIp: { points: 300, durationSeconds: 600 },
  /** Pages one account asks the server's browser to capture: an investigator's hour, not a crawler's. */
  capturesPerUser: { points: 120, durationSeconds: 3600 },
  /** Wrong second factors at sign-in from one address (a right one spends nothing). */
  secondFactorFailuresPerIp: { points: 30, durationSeconds: 600, blockSeconds: 600 },
  /** Wrong second factors per account (at sign-in and when confirming a new app): only someone with the password can spend it. */
  secondFactorFailuresPerAccount: { points: 10, durationSeconds: 900, blockSeconds: 900 },
  /**
   * Requests with one API key (docs/api.md): its own budget, whatever the address, so a runaway
   * script slows down without touching its owner's browser sessions. API_KEY_RATE_LIMIT sets the points.
   */
  apiKeyRequests: { points: 60, durationSeconds: 60 },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof defaultLimits;

/**
 * The per-account slowdown of sign-in: after `afterFailures` failed logins for one account within
 * loginFailuresPerAccount's window (from any address), each further attempt for it waits
 * baseMs × 2^(failures − afterFailures − 1), at most maxMs, before the password is checked. A
 * device the account already trusts never waits. It slows a guesser and never refuses anyone.
 */
export interface SlowdownRule {
  afterFailures: number;
  baseMs: number;
  maxMs: number;
}

export const defaultSlowdown: SlowdownRule = { afterFailures: 5, baseMs: 250, maxMs: 4000 };

export const slowdownMs = (failures: number, rule: SlowdownRule = defaultSlowdown): number =>
  failures <= rule.afterFailures
    ? 0
    : Math.min(rule.maxMs, rule.baseMs * 2 ** Math.min(30, failures - rule.afterFailures - 1));

export interface RateLimits {
  /** Where the counters live: 'redis', 'database' or 'memory' (tests), or 'off'. */
  readonly store: 'redis' | 'database' | 'memory' | 'off';
  /**
   * Resolves once the store can be used (Redis connected, or given up on after `timeoutMs`): until
   * then a Redis-backed limiter would count in its in-process insurance and forget at the next restart.
   */
  ready(timeoutMs?: number): Promise<void>;
  /**
   * Spends one point; throws a RateLimitedError (with its quota) when none are left. Answers where the
   * key stands after it, or nothing when limits are off.
   */
  consume(name: LimitName, key: string, message?: string): Promise<Quota | undefined>;
  /** Spends one point without ever throwing (counting a failure); answers whether points were left. */
  count(name: LimitName, key: string): Promise<boolean>;
  /** Throws a RateLimitedError when the key is currently blocked, without spending a point. */
  check(name: LimitName, key: string, message?: string): Promise<void>;
  /** The points spent on a key in its current window (0 when none). */
  spent(name: LimitName, key: string): Promise<number>;
  /** Forgets a key, e.g. a failure counter after a successful login. */
  reset(name: LimitName, key: string): Promise<void>;
  /** How long a sign-in for an account waits after `failures` recent failures (the slowdown). */
  slowdownMs(failures: number): number;
  /** With the counters in Redis: a PING, rejected when Redis does not answer (readiness). */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

/** The key of a counter for one account as seen from one address. */
export const accountAtIp = (email: string, ip: string) => `${email}|${ip}`;

export function createRateLimits(options: {
  enabled: boolean;
  redisUrl?: string | undefined;
  /** Without Redis the counters are kept here (table rate_limits), so they survive a restart. */
  db?: Database | undefined;
  limits?: Partial<Record<LimitName, LimitRule>>;
  slowdown?: SlowdownRule;
}): RateLimits {
  const slowdown = options.slowdown ?? defaultSlowdown;
  if (!options.enabled) {
    return {
      store: 'off',
      ready: async () => {},
      consume: async () => undefined,
      count: async () => true,
      check: async () => {},
      spent: async () => 0,
      reset: async () => {},
      slowdownMs: () => 0,
      close: async () => {},
    };
  }
  const redis = options.redisUrl ? new Redis(options.redisUrl, { enableOfflineQueue: false }) : undefined;
  // ioredis reconnects by itself; without a listener every failed attempt would print its stack as
  // an "Unhandled error event". The outage and the recovery are logged once each (outage.ts).
  redis?.on('error', (err) => noteOutage('redis', err));
  redis?.on('ready', () => noteReachable('redis'));
  const store = redis ? 'redis' : options.db ? 'database' : 'memory';
  const rules: Record<LimitName, LimitRule> = { ...defaultLimits, ...options.limits };
  const limiters = new Map(
    Object.entries(rules).map(([name, rule]) => {
      const opts: IRateLimiterOptions = {
        keyPrefix: `fp:${name}`,
        points: rule.points,
        duration: rule.durationSeconds,
        blockDuration: rule.blockSeconds ?? 0,
      };
      let limiter: RateLimiterStoreAbstract | RateLimiterMemory;
      if (redis) {
        // While Redis is unreachable the process counts on its own rather than failing sign-ins.
        limiter = new RateLimiterRedis({
          ...opts,
          storeClient: redis,
          insuranceLimiter: new RateLimiterMemory(opts),
        });
      } else if (options.db) {
        limiter = new RateLimiterDrizzle({ ...opts, storeClient: options.db, schema: rateLimits });
      } else {
        limiter = new RateLimiterMemory(opts);
      }
      return [name as LimitName, limiter];
    }),
  );
  const limiterOf = (name: LimitName) => {
    const limiter = limiters.get(name);
    if (!limiter) throw new Error(`unknown rate limit ${name}`);
    return limiter;
  };
  /**
   * A store failure that is not a verdict: with Redis not ready (the in-process insurance answers
   * most of these), a Redis outage, which the edge answers with a 503.
   */
  const storeFailure = (error: unknown) =>
    redis && redis.status !== 'ready' && !(error instanceof RateLimiterRes)
      ? new DependencyUnavailableError('redis', error)
      : error;
  const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  const quotaOf = (name: LimitName, res: RateLimiterRes): Quota => ({
    limit: rules[name].points,
    windowSeconds: rules[name].durationSeconds,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
  });

  return {
    store,
    async ready(timeoutMs = 5000) {
      if (!redis || redis.status === 'ready') return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          redis.off('ready', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        redis.once('ready', done);
      });
    },
    async consume(name, key, message) {
      try {
        return quotaOf(name, await limiterOf(name).consume(key));
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          throw new RateLimitedError(retryAfter(error), message, quotaOf(name, error));
        }
        throw storeFailure(error);
      }
    },
    async count(name, key) {
      try {
        await limiterOf(name).consume(key);
        return true;
      } catch (error) {
        if (error instanceof RateLimiterRes) return false;
        throw storeFailure(error);
      }
    },
    async check(name, key, message) {
      const res = await limiterOf(name)
        .get(key)
        .catch((error) => {
          throw storeFailure(error);
        });
      if (res && res.remainingPoints <= 0 && res.msBeforeNext > 0) {
        throw new RateLimitedError(retryAfter(res), message);
      }
    },
    async spent(name, key) {
      const res = await limiterOf(name)
        .get(key)
        .catch((error) => {
          throw storeFailure(error);
        });
      return res && res.msBeforeNext !== 0 ? res.consumedPoints : 0;
    },
    async reset(name, key) {
      await limiterOf(name)
        .delete(key)
        .catch((error) => {
          throw storeFailure(error);
        });
    },
    slowdownMs: (failures) => slowdownMs(failures, slowdown),
    ...(redis && {
      async ping() {
        await redis.ping();
      },
    }),
    async close() {
      redis?.disconnect();
    },
  };
}
