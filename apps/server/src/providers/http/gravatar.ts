/**
 * Gravatar REST API v3, profile by e-mail hash → zehefData (the avatar service of an e-mail lookup).
 *
 * Checked against Gravatar's OpenAPI document (api.gravatar.com/v3/openapi, as vendored in
 * Automattic/Gravatar-SDK-iOS openapi/openapi.yaml) and docs.gravatar.com "Core Concepts":
 * - GET /profiles/{profileIdentifier}, the identifier being the SHA-256 hex of the trimmed, lower-cased
 *   address (never MD5); `Authorization: Bearer <key>` is optional and raises the limit to 1,000/hour.
 * - 200 is a `Profile` whose required fields are strings (hash, display_name, profile_url, avatar_url,
 *   avatar_alt_text, location, description, job_title, company, pronunciation, pronouns) plus
 *   `verified_accounts[]` {service_type, service_label, service_icon, url, is_hidden}.
 * - 404 "Profile not found" (no body documented); 429 carries the `Error` {error, code} body and
 *   X-RateLimit-* headers, no Retry-After; 500 without a body. 401/403 are documented only for /me/*.
 */
import { createHash } from 'node:crypto';
import type { AvatarServiceData } from '@footprint/domain';
import { z } from 'zod';
import { type Provider, SourceNotFoundError, type VendorInfo } from '../types.ts';
import { baseUrl, defineVendor, secret } from '../vendor.ts';
import { parseVendorBody, vendorFetch } from './fetch-json.ts';

export interface GravatarConfig {
  apiKey: string;
  baseUrl: string;
}

/** A profile is a few kilobytes; anything near this is not one. */
export const GRAVATAR_MAX_BYTES = 512 * 1024;

/** Gravatar's identifier for an address: SHA-256 hex of the trimmed, lower-cased address. */
export function gravatarHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/** The documented fields that are read, each checked for its type; unset ones come as '' (or null). */
const verifiedAccount = z.object({
  service_type: z.string().nullish(),
  service_label: z.string(),
  url: z.string(),
  is_hidden: z.boolean().nullish(),
});

const profile = z.object({
  hash: z.string(),
  display_name: z.string().nullish(),
  profile_url: z.string(),
  avatar_url: z.string().nullish(),
  location: z.string().nullish(),
  job_title: z.string().nullish(),
  company: z.string().nullish(),
  verified_accounts: z.array(verifiedAccount).nullish(),
});

type Profile = z.infer<typeof profile>;
type AvatarItem = NonNullable<NonNullable<AvatarServiceData['data']>[number]>;

/** '' means "not set" in a Gravatar profile. */
const filled = (value: string | null | undefined): string | null => (value?.trim() ? value.trim() : null);

/**
 * The profile URL's single path segment is the profile slug ('https://gravatar.com/alexmorgan' →
 * 'alexmorgan'), which Gravatar also accepts as an identifier: the person's Gravatar username.
 */
export function profileSlug(profileUrl: string): string | null {
  try {
    const segments = new URL(profileUrl).pathname.split('/').filter(Boolean);
    return segments.length === 1 ? decodeURIComponent(segments[0]!) : null;
  } catch {
    return null;
  }
}

/**
 * The profile as avatar-service items: Gravatar itself (who the person says they are), then each
 * account they verified on another site and did not hide from their profile.
 */
export function toAvatarService(found: Profile): AvatarServiceData {
  const gravatar: AvatarItem = {
    source: 'Gravatar',
    status: 'found',
    username: profileSlug(found.profile_url),
    avatar_url: filled(found.avatar_url),
    profile_url: filled(found.profile_url),
    display_name: filled(found.display_name),
    location: filled(found.location),
    job_title: filled(found.job_title),
    company: filled(found.company),
  };
  const verified = (found.verified_accounts ?? [])
    .filter((account) => account.is_hidden !== true && filled(account.service_label))
    .map(
      (account): AvatarItem => ({
        source: filled(account.service_label),
        status: 'found',
        username: null,
        avatar_url: null,
        profile_url: filled(account.url),
      }),
    );
  return { data: [gravatar, ...verified] };
}

/** Gravatar answering zehefData for e-mail lookups. 404 is "no profile for this address". */
export function gravatarProvider(config: GravatarConfig, vendor?: VendorInfo): Provider {
  return {
    id: 'gravatar:zehefData',
    source: 'zehefData',
    kinds: ['email'],
    sandbox: false,
    vendor,
    async fetch(query, signal) {
      const res = await vendorFetch(`${config.baseUrl}/profiles/${gravatarHash(query.value)}`, {
        vendor: 'Gravatar',
        method: 'GET',
        signal,
        maxBytes: GRAVATAR_MAX_BYTES,
        headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' },
      });
      if (res.status === 404) throw new SourceNotFoundError('No Gravatar profile for this address.');
      return toAvatarService(parseVendorBody(profile, res.body, 'Gravatar', res.status));
    },
  };
}

/** Gravatar: the public profile behind an e-mail address (zehefData). On when GRAVATAR_API_KEY is set. */
export const gravatar = defineVendor({
  id: 'gravatar',
  name: 'Gravatar',
  prefix: 'GRAVATAR',
  currency: 'USD',
  env: z.object({
    GRAVATAR_API_KEY: secret().describe(
      'Gravatar REST API v3 key (sent as a Bearer token; 1,000 profile requests/hour). Turns on zehefData.',
    ),
    GRAVATAR_BASE_URL: baseUrl('https://api.gravatar.com/v3').describe('Gravatar REST API base URL.'),
  }),
  configure: (env) =>
    env.GRAVATAR_API_KEY ? { apiKey: env.GRAVATAR_API_KEY, baseUrl: env.GRAVATAR_BASE_URL } : undefined,
  providers: (config, vendor) => [gravatarProvider(config, vendor)],
});
