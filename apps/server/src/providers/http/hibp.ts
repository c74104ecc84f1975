import type { Breach } from '@footprint/domain';
import { isRecord } from '@footprint/domain';
import { z } from 'zod';
import {
  type Provider,
  SourceFailedError,
  SourceMisconfiguredError,
  SourceRateLimitedError,
  type VendorInfo,
} from '../types.ts';
import { baseUrl, defineVendor, secret } from '../vendor.ts';
import { fetchJson, retryAfterMs, sleep } from './fetch-json.ts';

export interface HibpConfig {
  apiKey: string;
  baseUrl: string;
  userAgent: string;
  /** Longest Retry-After we wait for before giving up on this lookup. */
  maxRetryWaitMs?: number;
}

/**
 * Have I Been Pwned API v3, breached-account lookup:
 * GET {base}/breachedaccount/{account}?truncateResponse=false with `hibp-api-key` and a user agent
 * (HIBP answers 403 without one). 404 means no breach; 429 carries Retry-After in seconds.
 * https://haveibeenpwned.com/API/v3#BreachesForAccount
 */
export function hibpProvider(config: HibpConfig, vendor?: VendorInfo): Provider {
  const maxWait = config.maxRetryWaitMs ?? 3000;
  return {
    id: 'hibp:hibpData',
    source: 'hibpData',
    kinds: ['email'],
    sandbox: false,
    vendor,
    async fetch(query, signal) {
      const url = `${config.baseUrl}/breachedaccount/${encodeURIComponent(query.value)}?truncateResponse=false`;
      const init = {
        method: 'GET',
        signal,
        headers: {
          'hibp-api-key': config.apiKey,
          'user-agent': config.userAgent,
          accept: 'application/json',
        },
      };
      for (let attempt = 0; ; attempt++) {
        const res = await fetchJson(url, init);
        if (res.status === 404) return [] satisfies Breach[];
        if (res.status === 429) {
          const wait = retryAfterMs(res.headers.get('retry-after'));
          if (attempt === 0 && wait !== undefined && wait <= maxWait) {
            await sleep(wait, signal);
            continue;
          }
          throw new SourceRateLimitedError('HIBP rate limit reached', wait);
        }
        if (res.status === 401 || res.status === 403)
          throw new SourceMisconfiguredError(`HIBP refused the key (${res.status})`, res.status);
        if (res.status !== 200) throw new SourceFailedError(`HIBP answered ${res.status}`, res.status);
        if (!Array.isArray(res.body))
          throw new SourceFailedError('HIBP answered an unexpected shape', res.status);
        return res.body.filter(isRecord).map(toBreach);
      }
    },
  };
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Keeps the documented fields only, each checked for its type. */
function toBreach(raw: Record<string, unknown>): Breach {
  return {
    Name: str(raw.Name),
    Title: str(raw.Title),
    Domain: str(raw.Domain),
    BreachDate: str(raw.BreachDate),
    AddedDate: str(raw.AddedDate),
    PwnCount: typeof raw.PwnCount === 'number' ? raw.PwnCount : undefined,
    Description: str(raw.Description),
    LogoPath: str(raw.LogoPath),
    DataClasses: Array.isArray(raw.DataClasses)
      ? raw.DataClasses.filter((c): c is string => typeof c === 'string')
      : [],
    IsVerified: typeof raw.IsVerified === 'boolean' ? raw.IsVerified : undefined,
    IsSensitive: typeof raw.IsSensitive === 'boolean' ? raw.IsSensitive : undefined,
  };
}

/** Have I Been Pwned: breaches of an e-mail address (hibpData). On when HIBP_API_KEY is set. */
export const hibp = defineVendor({
  id: 'hibp',
  name: 'Have I Been Pwned',
  prefix: 'HIBP',
  currency: 'USD',
  env: z.object({
    HIBP_API_KEY: secret().describe('HIBP API v3 key (`hibp-api-key`). Turns on hibpData.'),
    HIBP_BASE_URL: baseUrl('https://haveibeenpwned.com/api/v3').describe('HIBP API base URL.'),
    HIBP_USER_AGENT: z
      .string()
      .default('Footprint-Investigations')
      .describe('User agent sent to HIBP (it refuses requests without one).'),
  }),
  configure: (env) =>
    env.HIBP_API_KEY
      ? { apiKey: env.HIBP_API_KEY, baseUrl: env.HIBP_BASE_URL, userAgent: env.HIBP_USER_AGENT }
      : undefined,
  providers: (config, vendor) => [hibpProvider(config, vendor)],
});
