/**
 * LeakCheck API v2 (Pro), the lookup endpoint, for the Leak Data Finder's federation:
 * GET {base}/query/{value}?type={email|username|phone}&limit={n} with `X-API-Key` and
 * `Accept: application/json`. The answer is {success: true, found, quota, result: [row]} where each row
 * holds the leaked fields it has (listed in `fields`) and its `source` {name, breach_date "YYYY-MM",
 * unverified, passwordless, compilation}. No match is the same envelope with `found: 0` and an empty
 * `result`; an error is {success: false, error}. https://wiki.leakcheck.io/en/api/api-v2-pro
 */
import type { LeakFieldType } from '@footprint/domain';
import { z } from 'zod';
import {
  defineLeakVendor,
  type LeakQueryRow,
  type LeakSearcher,
  type VendorLeakRecord,
} from '../leak-vendor.ts';
import { SourceFailedError, type VendorInfo } from '../types.ts';
import { baseUrl, secret } from '../vendor.ts';
import { parseVendorBody, vendorFetch } from './fetch-json.ts';

export interface LeakCheckConfig {
  apiKey: string;
  baseUrl: string;
  /** How long the leak search waits for LeakCheck. */
  timeoutMs: number;
}

const VENDOR = 'LeakCheck';

/** Rows asked for per search (the API allows up to 1,000; one page of an investigation needs far fewer). */
export const LEAKCHECK_LIMIT = 100;

/** Answers are at most LEAKCHECK_LIMIT rows of short fields: 2 MB is generous. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/** The row types LeakCheck searches by (it has no name search), in the order one is chosen. */
const SEARCHABLE: readonly LeakFieldType[] = ['email', 'username', 'phone'];

/** Fields with a place of their own in a leak record; `password` is documented and never kept. */
const OWN_FIELDS = new Set([
  'email',
  'username',
  'first_name',
  'last_name',
  'name',
  'address',
  'phone',
  'password',
  'fields',
  'source',
]);

/** Keys that name a credential: never kept, whatever the vendor sends. */
const CREDENTIAL_KEY = /pass|pwd|hash|salt|secret|token|otp|cvv/i;

/** Most extra fields, and longest value, kept per row (the answer is untrusted). */
const MAX_EXTRA_FIELDS = 30;
const MAX_VALUE_LENGTH = 2_000;

const text = z.string().max(MAX_VALUE_LENGTH).nullish();
const flag = z.union([z.number(), z.boolean()]).nullish();

/** One row as documented; other keys (the list "is not limited to" the documented ones) pass through. */
const row = z.looseObject({
  email: text,
  username: text,
  first_name: text,
  last_name: text,
  name: text,
  address: text,
  phone: text,
  dob: text,
  zip: text,
  fields: z.array(z.string()).nullish(),
  source: z
    .object({
      name: text,
      breach_date: text,
      unverified: flag,
      passwordless: flag,
      compilation: flag,
    })
    .nullish(),
});

const answer = z.object({
  success: z.literal(true),
  found: z.number().int().nonnegative(),
  quota: z.number().nullish(),
  result: z.array(row).nullable(),
});

type Row = z.infer<typeof row>;

/** The row of the query LeakCheck is asked for: the first e-mail, else username, else phone. */
export function leakCheckRowOf(rows: readonly LeakQueryRow[]): LeakQueryRow | undefined {
  for (const type of SEARCHABLE) {
    const found = rows.find((r) => r.type === type);
    if (found) return found;
  }
  return undefined;
}

/** The value sent for a row: the address lower-cased, the username as typed, the phone's digits. */
function searchValue(r: LeakQueryRow): string {
  if (r.type === 'phone') return r.raw.replace(/\D/g, '');
  if (r.type === 'email') return r.value;
  return r.raw;
}

const present = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

const listOf = (...values: Array<string | null | undefined>): string[] => [
  ...new Set(values.filter(present).map((v) => v.trim())),
];

const isFlagSet = (value: number | boolean | null | undefined) => value === true || value === 1;

/** Every extra string (or number) field of a row, credentials and oversized values left out. */
function extrasOf(raw: Row): Record<string, string> {
  const out: Record<string, string> = {};
  let kept = 0;
  for (const [key, value] of Object.entries(raw)) {
    if (OWN_FIELDS.has(key) || CREDENTIAL_KEY.test(key) || kept >= MAX_EXTRA_FIELDS) continue;
    const shown = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof shown !== 'string' || !present(shown) || shown.length > MAX_VALUE_LENGTH) continue;
    out[key] = shown.trim();
    kept += 1;
  }
  if (isFlagSet(raw.source?.unverified)) out.unverified_source = 'yes';
  if (isFlagSet(raw.source?.compilation)) out.compilation = 'yes';
  return out;
}

/** A LeakCheck row as a vendor leak record: the documented fields in their places, never the password. */
export function toVendorRecord(raw: Row): VendorLeakRecord {
  const fullName = listOf(raw.first_name, raw.last_name).join(' ');
  return {
    source: {
      name: present(raw.source?.name) ? raw.source.name.trim() : null,
      breach_date: present(raw.source?.breach_date) ? raw.source.breach_date.trim() : null,
    },
    name: listOf(raw.name, fullName),
    email: listOf(raw.email),
    phone: listOf(raw.phone),
    username: listOf(raw.username),
    address: listOf(raw.address),
    other: extrasOf(raw),
  };
}

/** The searcher: one GET per leak search, for the query's first row LeakCheck can search by. */
export function leakCheckSearcher(config: LeakCheckConfig, vendor: VendorInfo): LeakSearcher {
  return {
    vendor,
    searchable: SEARCHABLE,
    timeoutMs: config.timeoutMs,
    async search(query, signal) {
      const asked = leakCheckRowOf(query.rows);
      if (!asked)
        throw new SourceFailedError(`${VENDOR} cannot search by ${query.rows.map((r) => r.type).join(', ')}`);
      const params = new URLSearchParams({ type: asked.type, limit: String(LEAKCHECK_LIMIT) });
      const url = `${config.baseUrl}/query/${encodeURIComponent(searchValue(asked))}?${params}`;
      const res = await vendorFetch(url, {
        vendor: VENDOR,
        method: 'GET',
        headers: { 'X-API-Key': config.apiKey, accept: 'application/json' },
        signal,
        maxBytes: MAX_ANSWER_BYTES,
      });
      // The query endpoint always exists: a 404 means a wrong base URL, not "no match".
      if (res.status === 404) throw new SourceFailedError(`${VENDOR} answered 404`, 404);
      const body = parseVendorBody(answer, res.body, VENDOR, res.status);
      return (body.result ?? []).slice(0, LEAKCHECK_LIMIT).map(toVendorRecord);
    },
  };
}

/** LeakCheck: breach records for the Leak Data Finder, by e-mail, username or phone. On when LEAKCHECK_API_KEY is set. */
export const leakcheck = defineLeakVendor({
  id: 'leakcheck',
  name: VENDOR,
  prefix: 'LEAKCHECK',
  currency: 'USD',
  env: z.object({
    LEAKCHECK_API_KEY: secret().describe(
      'LeakCheck API v2 (Pro) key (`X-API-Key`). Adds LeakCheck to Leak Data Finder searches by e-mail, username or phone.',
    ),
    LEAKCHECK_BASE_URL: baseUrl('https://leakcheck.io/api/v2').describe('LeakCheck API v2 base URL.'),
    LEAKCHECK_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(500)
      .max(30_000)
      .default(5_000)
      .describe('How long a leak search waits for LeakCheck before answering without it (ms).'),
  }),
  configure: (env) =>
    env.LEAKCHECK_API_KEY
      ? {
          apiKey: env.LEAKCHECK_API_KEY,
          baseUrl: env.LEAKCHECK_BASE_URL,
          timeoutMs: env.LEAKCHECK_TIMEOUT_MS,
        }
      : undefined,
  searcher: (config, vendor) => leakCheckSearcher(config, vendor),
});
