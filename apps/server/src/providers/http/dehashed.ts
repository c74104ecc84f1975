/**
 * DeHashed API v2, the search endpoint, for the Leak Data Finder's federation:
 * POST {base}/v2/search with `Dehashed-Api-Key` and a JSON body {query, page, size, wildcard, regex,
 * de_dupe}, where the query is field-scoped terms joined with AND (`email:"a@b.c" AND name:rohan`).
 * The answer is {balance, total, took, entries: [entry]} where each entry holds lists (`email[]`,
 * `name[]`, `phone[]`, `username[]`, `address[]`, `ip_address[]`, `password[]`, `hashed_password[]`…)
 * and its `database_name`. No match is `total: 0` with `entries` empty or null. One credit per search.
 * The vendor's page (app.dehashed.com/documentation/api) requires an account; this follows what
 * several independent clients of v2 agree on (see docs/providers.md).
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

export interface DehashedConfig {
  apiKey: string;
  baseUrl: string;
  /** How long the leak search waits for DeHashed. */
  timeoutMs: number;
}

const VENDOR = 'DeHashed';

/** Entries asked for per search (one request, one credit; the API pages up to 10,000). */
export const DEHASHED_SIZE = 100;

/** Answers are at most DEHASHED_SIZE entries of short lists: 2 MB is generous. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/** DeHashed searches every row type of the Leak Data Finder. */
const SEARCHABLE: readonly LeakFieldType[] = ['name', 'email', 'phone', 'username'];

/** Documented entry fields kept in `other`: everything but the record's own fields and the credentials. */
const OTHER_FIELDS = ['ip_address', 'company', 'url', 'social', 'vin'] as const;

const MAX_VALUE_LENGTH = 2_000;
const MAX_VALUES = 20;

/** A documented list field; a single string is read as a list of one. */
const values = z
  .union([z.array(z.string().max(MAX_VALUE_LENGTH)).max(1_000), z.string().max(MAX_VALUE_LENGTH)])
  .nullish();

const entry = z.object({
  id: z.union([z.string(), z.number()]).nullish(),
  email: values,
  username: values,
  name: values,
  phone: values,
  address: values,
  ip_address: values,
  company: values,
  url: values,
  social: values,
  vin: values,
  database_name: z.string().max(MAX_VALUE_LENGTH).nullish(),
});

const answer = z.object({
  balance: z.number().nullish(),
  total: z.number().int().nonnegative(),
  took: z.union([z.string(), z.number()]).nullish(),
  entries: z.array(entry).nullable(),
});

type Entry = z.infer<typeof entry>;

/** A value inside double quotes, with the two characters that would end it escaped. */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * The terms of one row: a name gives one term per token (any order, as the local index matches
 * names); the others are exact: the e-mail lower-cased, the username as typed, the phone's digits.
 */
function termsOf(row: LeakQueryRow): string[] {
  switch (row.type) {
    case 'name':
      return row.value
        .split(' ')
        .filter((token) => token !== '')
        .map((token) => `name:${quoted(token)}`);
    case 'email':
      return [`email:${quoted(row.value)}`];
    case 'username':
      return [`username:${quoted(row.raw)}`];
    case 'phone':
      return [`phone:${quoted(row.raw.replace(/\D/g, ''))}`];
  }
}

/** The DeHashed query for the rows: every term of every row, joined with AND. */
export const dehashedQueryOf = (rows: readonly LeakQueryRow[]): string => rows.flatMap(termsOf).join(' AND ');

/** A list field's values, trimmed, each once, at most MAX_VALUES. */
function listOf(value: Entry['email']): string[] {
  const list = typeof value === 'string' ? [value] : (value ?? []);
  return [...new Set(list.map((v) => v.trim()).filter((v) => v !== ''))].slice(0, MAX_VALUES);
}

/** A DeHashed entry as a vendor leak record: its lists in their places, never a password or a hash. */
export function toVendorRecord(raw: Entry): VendorLeakRecord {
  const other: Record<string, string> = {};
  for (const field of OTHER_FIELDS) {
    const list = listOf(raw[field]);
    if (list.length > 0) other[field] = list.join(', ');
  }
  const database = raw.database_name?.trim();
  return {
    source: { name: database ? database : null, breach_date: null },
    name: listOf(raw.name),
    email: listOf(raw.email),
    phone: listOf(raw.phone),
    username: listOf(raw.username),
    address: listOf(raw.address),
    other,
  };
}

/** The searcher: one POST per leak search, every row as a term of one query. */
export function dehashedSearcher(config: DehashedConfig, vendor: VendorInfo): LeakSearcher {
  return {
    vendor,
    searchable: SEARCHABLE,
    timeoutMs: config.timeoutMs,
    async search(query, signal) {
      const rows = query.rows.filter((row) => SEARCHABLE.includes(row.type));
      if (rows.length === 0) throw new SourceFailedError(`${VENDOR} was given nothing to search`);
      const res = await vendorFetch(`${config.baseUrl}/v2/search`, {
        vendor: VENDOR,
        method: 'POST',
        headers: {
          'Dehashed-Api-Key': config.apiKey,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({
          query: dehashedQueryOf(rows),
          page: 1,
          size: DEHASHED_SIZE,
          wildcard: false,
          regex: false,
          de_dupe: true,
        }),
        signal,
        maxBytes: MAX_ANSWER_BYTES,
      });
      // The search endpoint always exists: a 404 means a wrong base URL, not "no match".
      if (res.status === 404) throw new SourceFailedError(`${VENDOR} answered 404`, 404);
      const body = parseVendorBody(answer, res.body, VENDOR, res.status);
      return (body.entries ?? []).slice(0, DEHASHED_SIZE).map(toVendorRecord);
    },
  };
}

/** DeHashed: breach records for the Leak Data Finder, by name, e-mail, phone or username. On when DEHASHED_API_KEY is set. */
export const dehashed = defineLeakVendor({
  id: 'dehashed',
  name: VENDOR,
  prefix: 'DEHASHED',
  currency: 'USD',
  env: z.object({
    DEHASHED_API_KEY: secret().describe(
      'DeHashed API v2 key (`Dehashed-Api-Key`). Adds DeHashed to Leak Data Finder searches (one credit per search).',
    ),
    DEHASHED_BASE_URL: baseUrl('https://api.dehashed.com').describe('DeHashed API base URL.'),
    DEHASHED_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(500)
      .max(30_000)
      .default(5_000)
      .describe('How long a leak search waits for DeHashed before answering without it (ms).'),
  }),
  configure: (env) =>
    env.DEHASHED_API_KEY
      ? { apiKey: env.DEHASHED_API_KEY, baseUrl: env.DEHASHED_BASE_URL, timeoutMs: env.DEHASHED_TIMEOUT_MS }
      : undefined,
  searcher: (config, vendor) => dehashedSearcher(config, vendor),
});
