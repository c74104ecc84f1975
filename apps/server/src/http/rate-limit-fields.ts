import type { Quota } from '../security/rate-limit.ts';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, the structured-field
 * syntax of drafts 08 and later), for one named policy: `RateLimit-Policy` states the quota (`q`
 * requests per `w` seconds) and `RateLimit` where the caller stands (`r` requests left, `t` seconds
 * until the window ends). docs/api.md shows them.
 */
export function rateLimitFields(policy: string, quota: Quota): Record<string, string> {
  const name = JSON.stringify(policy);
  return {
    'ratelimit-policy': `${name};q=${quota.limit};w=${quota.windowSeconds}`,
    ratelimit: `${name};r=${quota.remaining};t=${quota.resetSeconds}`,
  };
}
