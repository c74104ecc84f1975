import type { Breach } from '@footprint/domain';
import { isRecord } from '@footprint/domain';
import { type Provider, SourceFailedError } from '../types.ts';
import { fetchJson, sleep } from './fetch-json.ts';

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
export function hibpProvider(config: HibpConfig): Provider {
  const maxWait = config.maxRetryWaitMs ?? 3000;
  return {
    id: 'hibp:hibpData',
    source: 'hibpData',
    kinds: ['email'],
    sandbox: false,
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
        if (res.status === 429 && attempt === 0) {
          const seconds = Number(res.headers.get('retry-after') ?? 'NaN');
          if (Number.isFinite(seconds) && seconds * 1000 <= maxWait) {
            await sleep(Math.max(0, seconds) * 1000, signal);
            continue;
          }
          throw new SourceFailedError('HIBP rate limit reached', 429);
        }
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
