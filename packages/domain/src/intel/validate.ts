/**
 * The validation of spec §5 'Corporate' and 'Verification', written once from the field definitions:
 * the browser runs it before sending, the server runs it on every request and answers 400 with the
 * first failing rule's message (the spec's browser reads 422 as 'no record found').
 */
import { z } from 'zod';
import { searchLegalBasisField } from '../case-reference.ts';
import { messages } from '../messages.ts';
import type { FieldErrors } from '../validation.ts';
import {
  INTEL_MOBILE_MAX,
  INTEL_MOBILE_MIN,
  INTEL_TEXT_MAX,
  type IntelField,
  type IntelType,
} from './fields.ts';

/** Five capital letters, four digits, one capital letter (spec §5). */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
const DIGITS = /^\d+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

export const isValidPan = (value: string): boolean => PAN_PATTERN.test(value);

/** A real calendar day written YYYY-MM-DD, from 1800-01-01 (the vendors' "unknown" date) on. */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1800 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** True when a consent value agrees: the browser's ticked box (true) or the wire's 'Y'. */
const consents = (value: unknown): boolean => value === true || value === 'Y';

/** The message of the first rule one field breaks, or null. */
function fieldError(t: IntelType, field: IntelField, value: unknown): string | null {
  const { label } = field;
  switch (field.kind) {
    case 'consent':
      return consents(value) ? null : messages.intel.consent;
    case 'checkbox': {
      if (value === undefined) return null;
      const ok =
        t.checkboxWire === 'yn'
          ? value === 'Y' || value === 'N' || typeof value === 'boolean'
          : typeof value === 'boolean';
      return ok ? null : messages.intel.notCheckbox(label);
    }
    default:
      break;
  }
  if (isBlank(value)) {
    return field.optional || t.combinations ? null : messages.intel.required(label);
  }
  if (typeof value !== 'string') return messages.intel.notText(label);
  const v = value.trim();
  const max = field.maxLength ?? INTEL_TEXT_MAX;
  if (CONTROL.test(v)) return messages.intel.badCharacters(label);
  switch (field.kind) {
    case 'mobile':
      if (!DIGITS.test(v)) return messages.intel.mobileDigits;
      if (v.length < INTEL_MOBILE_MIN || v.length > INTEL_MOBILE_MAX) return messages.intel.mobileLength;
      return null;
    case 'pan':
      return isValidPan(v) ? null : messages.intel.invalidPan;
    case 'date':
      return isIsoDate(v) ? null : messages.intel.invalidDate(label);
    case 'year':
    case 'gender': {
      const options = (field.options ?? []).map((o) => o.value);
      return options.includes(v) ? null : messages.intel.invalidOption(label, options);
    }
    default:
      return v.length > max ? messages.intel.tooLong(label, max) : null;
  }
}

/** The fields of `t` that hold a non-blank value. */
export function filledIntelFields(t: IntelType, values: Record<string, unknown>): string[] {
  return t.fields.filter((f) => !isBlank(values[f.name])).map((f) => f.name);
}

/**
 * The first failing rule's message (spec §5 wording where the spec gives one), or null when valid.
 * Order: fields that do not belong to the type, then each field in form order, then the employment
 * combination rule.
 */
export function validateIntel(t: IntelType, values: Record<string, unknown>): string | null {
  const known = new Set(t.fields.map((f) => f.name));
  for (const key of Object.keys(values)) {
    if (!known.has(key)) return messages.intel.unknownField(key, t.label);
  }
  for (const field of t.fields) {
    const error = fieldError(t, field, values[field.name]);
    if (error) return error;
  }
  if (t.combinations) {
    const filled = new Set(filledIntelFields(t, values));
    if (!t.combinations.some((combo) => combo.every((name) => filled.has(name)))) {
      return messages.intel.combination;
    }
  }
  return null;
}

/** The key of a `data` field in an answer's per-field `errors`: 'data.id_number'. */
export const intelErrorKey = (name: string): string => `data.${name}`;

/**
 * Every rule `values` breaks, per field, in validateIntel's order (its first message is validateIntel's
 * answer): a field that does not belong to the type and each failing field under `data.<name>`, the
 * employment combination rule under `data`.
 */
export function intelFieldErrors(t: IntelType, values: Record<string, unknown>): FieldErrors {
  // A Map, not an object: a client may send keys such as '__proto__'.
  const errors = new Map<string, string[]>();
  const known = new Set(t.fields.map((f) => f.name));
  for (const key of Object.keys(values)) {
    if (!known.has(key)) errors.set(intelErrorKey(key), [messages.intel.unknownField(key, t.label)]);
  }
  for (const field of t.fields) {
    const error = fieldError(t, field, values[field.name]);
    if (error) errors.set(intelErrorKey(field.name), [error]);
  }
  if (errors.size === 0 && t.combinations) {
    const filled = new Set(filledIntelFields(t, values));
    if (!t.combinations.some((combo) => combo.every((name) => filled.has(name)))) {
      errors.set('data', [messages.intel.combination]);
    }
  }
  return Object.fromEntries(errors);
}

/**
 * What the browser sends as `data`: strings trimmed, empty optional fields (and empty employment
 * fields) left out, checkboxes as 'Y'/'N' for the credit report and as booleans otherwise (spec §3).
 */
export function toIntelRequestData(
  t: IntelType,
  values: Record<string, string | boolean>,
): Record<string, string | boolean> {
  const data: Record<string, string | boolean> = {};
  for (const field of t.fields) {
    const value = values[field.name];
    if (field.kind === 'checkbox' || field.kind === 'consent') {
      const on = value === true || value === 'Y';
      data[field.name] = t.checkboxWire === 'yn' ? (on ? 'Y' : 'N') : on;
      continue;
    }
    const v = typeof value === 'string' ? value.trim() : '';
    if (v === '' && (field.optional || t.combinations)) continue;
    data[field.name] = v;
  }
  return data;
}

/**
 * The server's canonical form of valid `data` (call validateIntel first): strings trimmed, blank
 * optional fields dropped, checkboxes and consent as booleans whatever the wire used.
 */
export function normalizeIntelData(
  t: IntelType,
  values: Record<string, unknown>,
): Record<string, string | boolean> {
  const data: Record<string, string | boolean> = {};
  for (const field of t.fields) {
    const value = values[field.name];
    if (field.kind === 'checkbox' || field.kind === 'consent') {
      data[field.name] = value === true || value === 'Y';
      continue;
    }
    if (typeof value === 'string' && value.trim() !== '') data[field.name] = value.trim();
  }
  return data;
}

/**
 * A readable, canonical text of a search for the lookups row and the audit trail, fields in form
 * order: 'id_number=27ABCDE1234F1Z5&year=2024&filing_status=true'. Unticked boxes are left out.
 */
export function intelQueryText(t: IntelType, data: Record<string, string | boolean>): string {
  return t.fields
    .filter((f) => data[f.name] !== undefined && data[f.name] !== false)
    .map((f) => `${f.name}=${String(data[f.name])}`)
    .join('&');
}

/** The optional case reference a search may carry: trimmed, at most 100 characters, empty means none. */
const INTEL_CASE_REFERENCE_MAX = 100;

/** POST /api/corporate-intelligence and /api/verification-id: { type, data, case_reference? }. */
export const intelRequestSchema = z.strictObject(
  {
    type: z
      .string({ error: messages.intel.missingType })
      .trim()
      .min(1, { error: messages.intel.missingType }),
    data: z.record(z.string(), z.unknown(), { error: messages.intel.badData }),
    case_reference: z
      .string({ error: messages.intel.notText(messages.caseReference.label) })
      .trim()
      .max(INTEL_CASE_REFERENCE_MAX, { error: messages.caseReference.tooLong })
      .refine((value) => !CONTROL.test(value), {
        error: messages.intel.badCharacters(messages.caseReference.label),
      })
      .nullish()
      .transform((value) => (value ? value : undefined)),
    legal_basis: searchLegalBasisField,
  },
  { error: messages.intel.badBody },
);

export type IntelRequest = z.output<typeof intelRequestSchema>;

/**
 * Reads a request body with intelRequestSchema; a failure carries one message for a 400 answer
 * (never 422, which the spec's browser takes for 'no record found').
 */
export function parseIntelRequest(
  body: unknown,
): { ok: true; request: IntelRequest } | { ok: false; message: string; errors: FieldErrors } {
  const result = intelRequestSchema.safeParse(body ?? {});
  if (result.success) return { ok: true, request: result.data };
  const issue = result.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const message = messages.intel.unexpectedKey(key);
    return { ok: false, message, errors: { [key]: [message] } };
  }
  const message = issue?.message ?? messages.intel.badBody;
  const field = issue && issue.path.length > 0 ? String(issue.path[0]) : 'body';
  return { ok: false, message, errors: { [field]: [message] } };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '1990-01-01' as a person reads it: '01 Jan 1990'; anything else as it is. */
function readableDate(value: string): string {
  const m = ISO_DATE.exec(value);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${m[3]} ${month} ${m[1]}` : value;
}

/**
 * The search as the user filled in the form, for history and the audit trail (not for matching: that
 * is `intelQueryText`): each filled field as 'Label: value', in form order, joined with ' · ', e.g.
 * 'RC Number: MH12AB1234' or 'Name: Rohan Deshmukh · Date of Birth: 01 Jan 1990'. Text keeps the case
 * and spacing typed (ends trimmed); a date reads '01 Jan 1990'; a choice shows its option's label; a
 * ticked box shows its label alone; consents and unticked boxes are left out. Call validateIntel first;
 * the caller still cleans the text for storage (cleanTypedQuery).
 */
export function intelTypedText(t: IntelType, values: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const field of t.fields) {
    const value = values[field.name];
    if (field.kind === 'consent') continue;
    if (field.kind === 'checkbox') {
      if (value === true || value === 'Y') parts.push(field.label);
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') continue;
    const typed = value.trim();
    const shown =
      field.kind === 'date'
        ? readableDate(typed)
        : (field.options?.find((option) => option.value === typed)?.label ?? typed);
    parts.push(`${field.label}: ${shown}`);
  }
  return parts.join(' · ');
}
