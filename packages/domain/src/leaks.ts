import { z } from 'zod';
import { caseReferenceField, searchLegalBasisField } from './case-reference.ts';
import { LEAK_INPUT_MAX_LENGTH, LEAK_MAX_ROWS, LEAK_PAGE_SIZE } from './constants.ts';
import { messages } from './messages.ts';
import { EMAIL_PATTERN } from './validation.ts';

/** Search types of the Leak Data Finder rows (spec §2.6), in the selector's order. */
export const LEAK_FIELD_TYPES = ['name', 'email', 'phone', 'username'] as const;
export type LeakFieldType = (typeof LEAK_FIELD_TYPES)[number];

/** The selector's labels (spec §2.6) and the placeholder per type; the texts live in messages.ts. */
export const LEAK_FIELD_LABELS: Record<LeakFieldType, string> = messages.leaks.typeLabels;

export const LEAK_PLACEHOLDERS: Record<LeakFieldType, string> = messages.leaks.placeholders;

/** A row as the spec's browser holds it (§3 'Leak search row'). */
export interface LeakRow {
  id: string | number;
  type: LeakFieldType;
  value: string;
  isValid?: boolean;
  error?: string;
}

const NAME = /^[\p{L} ]+$/u;
const PHONE = /^\d{10,15}$/;
const USERNAME = /^[A-Za-z0-9_]{3,30}$/;

/** The per-row rule of spec §5 'Leak finder': the row's message, or null when it is valid. */
export function leakRowError(type: LeakFieldType, raw: string): string | null {
  const value = raw.trim();
  if (value === '') return messages.leaks.required;
  switch (type) {
    case 'name':
      return NAME.test(value) ? null : messages.leaks.invalidName;
    case 'email':
      return EMAIL_PATTERN.test(value) ? null : messages.leaks.invalidEmail;
    case 'phone':
      return PHONE.test(value) ? null : messages.leaks.invalidPhone;
    case 'username':
      return USERNAME.test(value) ? null : messages.leaks.invalidUsername;
  }
}

// ---------- normalized search keys: the same functions index records and read queries ----------

export const normalizeLeakEmail = (value: string): string => value.trim().toLowerCase();

/** Phones match on their last 10 digits, whatever country code or formatting came with them. */
export const normalizeLeakPhone = (value: string): string => value.replace(/\D/g, '').slice(-10);

export const normalizeLeakUsername = (value: string): string => value.trim().toLowerCase();

const NON_ASCII = /[\u0080-\uffff]/;
const MARKS = /\p{M}+/gu;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/u;

/** Case- and accent-insensitive word tokens: 'José  ÁLVAREZ' → ['jose', 'alvarez']. */
export function nameTokens(value: string): string[] {
  // ASCII text has no marks and is its own NFD form: the importer meets it on most rows.
  const plain = NON_ASCII.test(value) ? value.normalize('NFD').replace(MARKS, '') : value;
  return plain
    .toLowerCase()
    .split(NOT_LETTER_OR_DIGIT)
    .filter((token) => token.length > 0);
}

// ---------- POST /api/leak-data-finder/?page=&per_page= ----------

const row = z.object({
  // The spec's browser sends its own row bookkeeping (id, isValid, error): accepted and ignored.
  id: z.union([z.string().max(100), z.number()]).optional(),
  isValid: z.boolean().optional(),
  error: z.string().max(200).nullable().optional(),
  type: z.enum(LEAK_FIELD_TYPES, { error: 'The type must be one of name, email, phone, username.' }),
  value: z
    .string({ error: messages.leaks.required })
    .max(LEAK_INPUT_MAX_LENGTH, `The value must not be greater than ${LEAK_INPUT_MAX_LENGTH} characters.`),
});

export const leakSearchBody = z.strictObject({
  fields: z
    .array(row, { error: 'The fields field must be a list of rows.' })
    .min(1, messages.leaks.required)
    .max(LEAK_MAX_ROWS, messages.leaks.maxRows),
  case_reference: caseReferenceField,
  legal_basis: searchLegalBasisField,
});

const positiveInt = (field: string, fallback: number, max: number) =>
  z.coerce
    .number({ error: `The ${field} field must be a whole number.` })
    .int(`The ${field} field must be a whole number.`)
    .min(1, `The ${field} field must be at least 1.`)
    .max(max, `The ${field} field must not be greater than ${max}.`)
    .default(fallback);

export const leakSearchQuery = z.strictObject({
  page: positiveInt('page', 1, 100_000),
  per_page: positiveInt('per page', LEAK_PAGE_SIZE, LEAK_PAGE_SIZE),
});

/** Totals are counted exactly up to this many matches, then reported as capped. */
export const LEAK_TOTAL_CAP = 10_000;

/** Most records one export of a leak search holds (GET /api/history/{id}/export; the file says so). */
export const LEAK_EXPORT_CAP = LEAK_TOTAL_CAP;

/**
 * Where a leak record was found: the local index of imported breaches, or a leak-search vendor
 * queried alongside it (federation). A record found in several places lists each of them.
 */
export const LEAK_ORIGIN_KINDS = ['local', 'vendor'] as const;
export type LeakOriginKind = (typeof LEAK_ORIGIN_KINDS)[number];

/** The local index's name in `origins` and `origin_status`. */
export const LOCAL_LEAK_ORIGIN = 'Local index';

export interface LeakOrigin {
  kind: LeakOriginKind;
  /** 'Local index', or the vendor's name ('LeakCheck'). */
  name: string;
}

/**
 * How one origin answered the search: `ok` (records found), `not_found`, `rate_limited`, `failed`,
 * `timed_out`, or `unsupported` (a vendor that cannot search any of the query's field types, so it
 * was not asked).
 */
export const LEAK_ORIGIN_STATUSES = [
  'ok',
  'not_found',
  'rate_limited',
  'failed',
  'timed_out',
  'unsupported',
] as const;
export type LeakOriginState = (typeof LEAK_ORIGIN_STATUSES)[number];

export interface LeakOriginStatus extends LeakOrigin {
  status: LeakOriginState;
  /** Records this origin found for the query (before records found in several places are merged). */
  records: number;
}

export interface LeakRecord {
  id: string;
  source: { name: string; breach_date: string | null; description: string | null };
  name: string | null;
  email: string | null;
  phone: string | null;
  username: string | null;
  address: string | null;
  /** Every other field of the record, as imported (passwords and hashes are never imported). */
  other: Record<string, string>;
  /** Which of the searched types this record matched, for highlighting. */
  matched: LeakFieldType[];
  /** Where it was found: the local index and/or vendors (an identical record found twice is one record). */
  origins: LeakOrigin[];
}

export interface LeakSearchResponse {
  data: LeakRecord[];
  /** Local matches (up to LEAK_TOTAL_CAP) plus the vendors' records the local index does not hold. */
  total: number;
  /** True when more than LEAK_TOTAL_CAP records match: `total` is then the cap, not exact. */
  total_capped: boolean;
  page: number;
  per_page: number;
  credits: number;
  /** True when this query was already paid for within the lookup-cache window. */
  cached: boolean;
  lookup_id: string;
  /** True when a record on this page is synthetic sandbox data (the web shows the sandbox banner). */
  sandbox: boolean;
  /** Each origin searched (the local index first, then each configured vendor) and how it answered. */
  origin_status: LeakOriginStatus[];
}

/**
 * A leak search as the user typed its rows, for history and the audit trail (matching uses the
 * normalized rows): 'Name: Rohan Deshmukh · Email: R.Deshmukh@example.in'. The caller still cleans
 * the text for storage (cleanTypedQuery).
 */
export const leakTypedText = (rows: ReadonlyArray<{ type: LeakFieldType; value: string }>): string =>
  rows.map((row) => `${LEAK_FIELD_LABELS[row.type] ?? row.type}: ${row.value.trim()}`).join(' · ');
