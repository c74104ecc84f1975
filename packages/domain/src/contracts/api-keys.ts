import { z } from 'zod';
import { fieldMessages } from '../messages.ts';
import { requiredText } from '../validation.ts';
import { isoTimestamp } from './common.ts';

/**
 * API keys and the public API (beyond the spec; docs/api.md). A key is `fp_` and 43 random URL-safe
 * characters, shown once; the server keeps its SHA-256. Each key carries scopes: the routes a key may
 * call declare one (the server's route config `scope`), and a key reaches nothing else.
 */

/** What a key may reach; each API route that accepts keys declares one of these. */
export const API_KEY_SCOPES = ['lookups', 'leaks', 'intel', 'reports', 'bulk'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every key starts with it: the bearer check tells a key from a session token by it. */
export const API_KEY_PREFIX = 'fp_';
/** Active (not revoked, not expired) keys one account may hold. */
export const MAX_API_KEYS = 20;
export const API_KEY_NAME_MAX_LENGTH = 80;
/** The largest monthly credit cap a key may carry. */
export const API_KEY_MAX_MONTHLY_CAP = 1_000_000;
/** How far ahead a key's expiry may be: a longer-lived key is one nobody remembers to rotate. */
export const API_KEY_MAX_EXPIRY_YEARS = 5;

/** The latest expiry a key made at `at` may carry. */
export const latestApiKeyExpiry = (at: Date): Date => {
  const latest = new Date(at);
  latest.setUTCFullYear(latest.getUTCFullYear() + API_KEY_MAX_EXPIRY_YEARS);
  return latest;
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * When a key given `expires_at` stops working: a date alone means through the end of that day (UTC),
 * so a key "expiring on 2027-01-31" still works on the 31st; a date and time means that moment.
 * Undefined for anything that is not a real date.
 */
export function apiKeyExpiryOf(value: string): Date | undefined {
  const day = value.slice(0, 10);
  // JavaScript rolls 2027-02-30 over into March: a day the calendar does not have is refused.
  const midnight = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return undefined;
  if (DATE_ONLY.test(value)) return new Date(midnight.getTime() + 86_400_000);
  if (!DATE_TIME.test(value)) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

const apiKeyName = requiredText('name', API_KEY_NAME_MAX_LENGTH)
  .trim()
  .min(1, fieldMessages.required('name'))
  .regex(/^[^\p{Cc}]*$/u, 'The name field must be plain text.');

/** POST /api/api-keys. */
export const apiKeyCreateRequest = z.strictObject({
  name: apiKeyName,
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `Each scope must be one of ${API_KEY_SCOPES.join(', ')}.` }), {
      error: 'The scopes field must be a list of scopes.',
    })
    .min(1, 'Choose at least one scope.')
    .max(API_KEY_SCOPES.length, 'Each scope may be given once.')
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope may be given once.')
    .describe(`Any of ${API_KEY_SCOPES.join(', ')}.`),
  expires_at: z
    .string({ error: 'The expires at field must be a date (YYYY-MM-DD) or an ISO date-time.' })
    .max(40, 'The expires at field must be a date (YYYY-MM-DD) or an ISO date-time.')
    .refine(
      (value) => apiKeyExpiryOf(value) !== undefined,
      'The expires at field must be a date (YYYY-MM-DD) or an ISO date-time.',
    )
    .nullish()
    .describe(
      'A date (the key works through the end of that day, UTC) or an ISO date-time; none: no expiry.',
    ),
  monthly_credit_cap: z
    .number({ error: 'The monthly credit cap field must be a whole number.' })
    .int('The monthly credit cap field must be a whole number.')
    .min(1, 'The monthly credit cap must be at least 1.')
    .max(API_KEY_MAX_MONTHLY_CAP, `The monthly credit cap must be at most ${API_KEY_MAX_MONTHLY_CAP}.`)
    .nullish()
    .describe('Credits the key may spend per calendar month (UTC); none: no cap beyond the balance.'),
});
export type ApiKeyCreateRequest = z.input<typeof apiKeyCreateRequest>;

export interface ApiKeySummary {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The key's first characters and an ellipsis, to recognise it (`fp_ab12…`). */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  monthly_credit_cap: number | null;
  /** Credits the key's searches spent this calendar month (UTC), refunds excluded. */
  credits_this_month: number;
}

export const apiKeySummary: z.ZodType<ApiKeySummary> = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    prefix: z.string().describe('The first characters of the key and an ellipsis, e.g. `fp_ab12…`.'),
    created_at: isoTimestamp,
    last_used_at: isoTimestamp.nullable(),
    expires_at: isoTimestamp.nullable(),
    revoked_at: isoTimestamp.nullable(),
    monthly_credit_cap: z.number().int().nullable(),
    credits_this_month: z.number().int(),
  })
  .meta({ id: 'ApiKey', description: 'An API key, without its secret.' });

export interface ApiKeyCreated extends ApiKeySummary {
  /** The secret itself: answered once, never stored, never shown again. */
  key: string;
}

export const apiKeyCreatedResponse: z.ZodType<ApiKeyCreated> = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    prefix: z.string(),
    created_at: isoTimestamp,
    last_used_at: isoTimestamp.nullable(),
    expires_at: isoTimestamp.nullable(),
    revoked_at: isoTimestamp.nullable(),
    monthly_credit_cap: z.number().int().nullable(),
    credits_this_month: z.number().int(),
    key: z.string().describe('The key (`fp_…`). Shown this once: only its hash is stored.'),
  })
  .describe('The new key, with the secret this once.');

export interface ApiKeyList {
  api_keys: ApiKeySummary[];
  /** Active keys an account may hold. */
  max: number;
}

export const apiKeyListResponse: z.ZodType<ApiKeyList> = z
  .object({
    api_keys: z.array(apiKeySummary),
    max: z.number().int().describe('Active keys an account may hold.'),
  })
  .describe("The account's keys, newest first, revoked and expired ones included.");
