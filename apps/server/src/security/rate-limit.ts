import { Redis } from 'ioredis';
import {
  type IRateLimiterOptions,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

/**
 * A spent limit: the HTTP layer answers it with a 429 and a Retry-After header (http/errors.ts).
 * `message` replaces the default "too many requests" text when the caller gave one.
 */
export class RateLimitedError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly customMessage?: string,
  ) {
    super(customMessage ?? `rate limited, retry after ${retryAfterSeconds} s`);
    this.name = 'RateLimitedError';
  }
}

export interface LimitRule {
  points: number;
  durationSeconds: number;
  /** How long to block once the points are spent; defaults to the rest of the window. */
  blockSeconds?: number;
}

/**
 * Limits for the abuse-prone endpoints. Per IP stops one machine hammering; per account stops a
 * distributed guess against one person's account.
 */
export const defaultLimits = {
  loginPerIp: { points: 30, durationSeconds: 300 },
  loginFailuresPerAccount: { points: 10, durationSeconds: 900, blockSeconds: 900 },
  otpPerIp: { points: 30, durationSeconds: 600 },
  otpFailuresPerAccount: { points: 15, durationSeconds: 3600, blockSeconds: 3600 },
  resendPerIp: { points: 10, durationSeconds: 600 },
  forgotPerIp: { points: 10, durationSeconds: 600 },
  forgotPerAccount: { points: 3, durationSeconds: 900 },
  resetPerIp: { points: 20, durationSeconds: 600 },
  registerPerIp: { points: 10, durationSeconds: 3600 },
  /** Second-factor codes and passkeys at sign-in, per IP (the password was right). */
  secondFactorPerIp: { points: 30, durationSeconds: 600 },
  /** Wrong second factors per account (at sign-in and when confirming a new app): only someone with the password can spend it. */
  secondFactorFailuresPerAccount: { points: 10, durationSeconds: 900, blockSeconds: 900 },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof defaultLimits;

export interface RateLimits {
  /** Spends one point; throws a RateLimitedError when none are left. */
  consume(name: LimitName, key: string, message?: string): Promise<void>;
  /** Throws a RateLimitedError when the key is currently blocked, without spending a point. */
  check(name: LimitName, key: string, message?: string): Promise<void>;
  /** Forgets a key, e.g. the failure counter after a successful login. */
  reset(name: LimitName, key: string): Promise<void>;
  close(): Promise<void>;
}

export function createRateLimits(options: {
  enabled: boolean;
  redisUrl?: string | undefined;
  limits?: Partial<Record<LimitName, LimitRule>>;
}): RateLimits {
  if (!options.enabled) {
    return { consume: async () => {}, check: async () => {}, reset: async () => {}, close: async () => {} };
  }
  const redis = options.redisUrl ? new Redis(options.redisUrl, { enableOfflineQueue: false }) : undefined;
  const rules: Record<LimitName, LimitRule> = { ...defaultLimits, ...options.limits };
  const limiters = new Map(
    Object.entries(rules).map(([name, rule]) => {
      const opts: IRateLimiterOptions = {
        keyPrefix: `fp:${name}`,
        points: rule.points,
        duration: rule.durationSeconds,
        blockDuration: rule.blockSeconds ?? 0,
      };
      const limiter = redis
        ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts) })
        : new RateLimiterMemory(opts);
      return [name as LimitName, limiter];
    }),
  );
  const limiterOf = (name: LimitName) => {
    const limiter = limiters.get(name);
    if (!limiter) throw new Error(`unknown rate limit ${name}`);
    return limiter;
  };
  const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

  return {
    async consume(name, key, message) {
      try {
        await limiterOf(name).consume(key);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw new RateLimitedError(retryAfter(error), message);
        throw error;
      }
    },
    async check(name, key, message) {
      const limiter = limiterOf(name);
      const res = await limiter.get(key);
      if (res && res.remainingPoints <= 0 && res.msBeforeNext > 0) {
        throw new RateLimitedError(retryAfter(res), message);
      }
    },
    async reset(name, key) {
      await limiterOf(name).delete(key);
    },
    async close() {
      redis?.disconnect();
    },
  };
}
