import { z } from 'zod';
import { caseReferenceField, searchLegalBasisField, searchLegalBasisQueryField } from '../case-reference.ts';
import type { LegalBasis } from '../cases/legal-basis.ts';
import { EMAIL_MAX_LENGTH, PHONE_LENGTH } from '../constants.ts';
import { COUNTRIES } from '../countries.ts';
import {
  DETAIL_FAMILIES,
  type DetailFamily,
  detailFacts,
  normalizeRc,
  RC_PATTERN,
  UPI_PATTERN,
} from '../kinds/details.ts';
import { fieldMessages, messages } from '../messages.ts';
import { EMAIL_PATTERN } from '../validation.ts';

/** Browser-side checks of the search input (spec §5), in the spec's order after credits and terms. */
export const isValidPhoneInput = (value: string): boolean =>
  new RegExp(`^\\d{${PHONE_LENGTH}}$`).test(value.trim());
export const isValidEmailInput = (value: string): boolean =>
  value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);

/** The longest username looked up: longer than any site in the catalogue allows. */
export const USERNAME_MAX_LENGTH = 64;

/**
 * A username as sites allow them: 1 to 64 letters (any script), digits, '.', '_' or '-', with no space,
 * control character or URL delimiter, so it goes into a profile address as one path segment. The
 * leading '@' people type is dropped before this is asked (`usernameQuery`).
 */
export const isUsername = (value: string): boolean =>
  value.length >= 1 && value.length <= USERNAME_MAX_LENGTH && /^[\p{L}\p{N}._-]+$/u.test(value);

/** A username as typed, read the way the lookup reads it: trimmed, a leading '@' dropped, NFC; not yet checked. */
const typedUsername = (value: string): string => value.trim().replace(/^@/, '').normalize('NFC');

/**
 * A username as GET /api/username takes it (`usernameQuery`): trimmed, a leading '@' dropped, NFC,
 * case kept; null when it is not one (`isUsername`). A bulk list's rows are read by it too.
 */
export const normalizeUsername = (value: string): string | null => {
  const name = typedUsername(value);
  return isUsername(name) ? name : null;
};

/**
 * True when `number` is one of the picker's dial codes followed by exactly 10 digits. Checking against
 * the known codes is what tells '91' + 11 digits (invalid) from a 3-digit code + 10 digits.
 */
export const isDialedPhoneNumber = (number: string): boolean =>
  /^\d{11,14}$/.test(number) &&
  COUNTRIES.some(
    (country) => number.startsWith(country.dialCode) && number.length === country.dialCode.length + 10,
  );

/**
 * `fresh=1` on GET /api/tel and /api/email: ask the sources again and charge, even when an identical
 * lookup of the same user is within the cache window. `1`/`true` or `0`/`false`; absent is `false`.
 */
const freshQueryField = z
  .enum(['1', '0', 'true', 'false'], { error: 'The fresh field must be 1 or 0.' })
  .optional()
  .transform((value) => value === '1' || value === 'true');

/** `fresh: true` in a detail lookup's body: the same opt-out of reuse, as a JSON boolean. */
const freshBodyField = z.boolean({ error: 'The fresh field must be true or false.' }).optional();

/**
 * GET /api/tel?number=: the dial code without '+' followed by the 10 trimmed digits (spec §7),
 * e.g. 919876543210. Unknown query parameters are refused. Every search also takes an optional
 * `case_reference` (the investigation the search belongs to).
 */
export const telQuery = z.strictObject({
  number: z
    .string({ error: messages.search.invalidPhone })
    .trim()
    .refine(isDialedPhoneNumber, messages.search.invalidPhone),
  case_reference: caseReferenceField,
  legal_basis: searchLegalBasisQueryField,
  fresh: freshQueryField,
});

/** GET /api/email?email= */
export const emailQuery = z.strictObject({
  email: z
    .string({ error: messages.search.invalidEmail })
    .max(EMAIL_MAX_LENGTH, messages.search.invalidEmail)
    .regex(EMAIL_PATTERN, messages.search.invalidEmail)
    .transform((value) => value.toLowerCase()),
  case_reference: caseReferenceField,
  legal_basis: searchLegalBasisQueryField,
  fresh: freshQueryField,
});

/** GET /api/username?username= (the name as typed: trimmed, a leading '@' dropped, case kept). */
export const usernameQuery = z.strictObject({
  username: z
    .string({ error: messages.search.invalidUsername })
    .transform(typedUsername)
    .refine(isUsername, messages.search.invalidUsername),
  case_reference: caseReferenceField,
  legal_basis: searchLegalBasisQueryField,
  fresh: freshQueryField,
});

const idField = (field: string, pattern: RegExp, max = 40) =>
  z
    .string({ error: fieldMessages.required(field.replaceAll('_', ' ')) })
    .trim()
    .min(1, { error: fieldMessages.required(field.replaceAll('_', ' ')), abort: true })
    .max(max, fieldMessages.max(field.replaceAll('_', ' '), max))
    .regex(pattern, `The ${field.replaceAll('_', ' ')} field format is invalid.`);

/**
 * The body of each detail lookup (spec §7): the field its declaration names, with its format, the case
 * reference and `fresh`. `rcDetailsRequest`, `upiDetailsRequest` and `challanRequest` are the same
 * schemas under the names the contracts have always used.
 */
/** What every detail lookup's body holds besides the record's value. */
type DetailBody = {
  case_reference: string | null;
  legal_basis: LegalBasis | null;
  fresh?: boolean | undefined;
} & Record<string, unknown>;

const detailRequest = (kind: DetailFamily) => {
  const facts = detailFacts(kind);
  return z.strictObject({
    [facts.field]: idField(facts.field, facts.pattern, facts.max),
    case_reference: caseReferenceField,
    legal_basis: searchLegalBasisField,
    fresh: freshBodyField,
  }) as unknown as z.ZodType<DetailBody, Record<string, unknown>>;
};

export const detailRequests = Object.fromEntries(
  DETAIL_FAMILIES.map((kind) => [kind, detailRequest(kind)]),
) as Record<DetailFamily, z.ZodType<DetailBody, Record<string, unknown>>>;

/**
 * A detail lookup's parsed body as the search reads it: the record's value normalized (the lookup's
 * query) and as the user typed it (`raw` is the body before parsing).
 */
export function detailSearchOf(
  kind: DetailFamily,
  input: DetailBody,
  raw: unknown,
): {
  query: string;
  typed: unknown;
  caseReference: string | null;
  legalBasis: LegalBasis | null;
  fresh: boolean;
} {
  const facts = detailFacts(kind);
  return {
    query: facts.normalize(String(input[facts.field])),
    typed:
      typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[facts.field] : undefined,
    caseReference: input.case_reference ?? null,
    legalBasis: input.legal_basis ?? null,
    fresh: input.fresh === true,
  };
}

type Body<F extends string> = z.ZodType<
  { [K in F]: string } & DetailBody,
  { [K in F]: string } & Record<string, unknown>
>;
export const rcDetailsRequest = detailRequests.rc as Body<'id_number'>;
export const upiDetailsRequest = detailRequests.upi as Body<'upi_id'>;
export const challanRequest = detailRequests.challan as Body<'rc_number'>;

export { normalizeRc, RC_PATTERN, UPI_PATTERN };
