import { z } from 'zod';
import { caseReferenceField } from '../case-reference.ts';
import { EMAIL_MAX_LENGTH, PHONE_LENGTH } from '../constants.ts';
import { COUNTRIES } from '../countries.ts';
import { fieldMessages, messages } from '../messages.ts';
import { EMAIL_PATTERN } from '../validation.ts';

/** Browser-side checks of the search input (spec §5), in the spec's order after credits and terms. */
export const isValidPhoneInput = (value: string): boolean =>
  new RegExp(`^\\d{${PHONE_LENGTH}}$`).test(value.trim());
export const isValidEmailInput = (value: string): boolean =>
  value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);

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
  fresh: freshQueryField,
});

const idField = (field: string, pattern: RegExp, max = 40) =>
  z
    .string({ error: fieldMessages.required(field.replaceAll('_', ' ')) })
    .trim()
    .min(1, { error: fieldMessages.required(field.replaceAll('_', ' ')), abort: true })
    .max(max, fieldMessages.max(field.replaceAll('_', ' '), max))
    .regex(pattern, `The ${field.replaceAll('_', ' ')} field format is invalid.`);

/** Indian vehicle registration, e.g. MH12AB1234 (spaces and dashes tolerated, stored without). */
export const RC_PATTERN = /^[A-Za-z0-9 -]{4,20}$/;
/** A UPI virtual payment address, e.g. name@bank. */
export const UPI_PATTERN = /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,64}$/;

export const rcDetailsRequest = z.strictObject({
  id_number: idField('id_number', RC_PATTERN),
  case_reference: caseReferenceField,
  fresh: freshBodyField,
});
export const upiDetailsRequest = z.strictObject({
  upi_id: idField('upi_id', UPI_PATTERN, 100),
  case_reference: caseReferenceField,
  fresh: freshBodyField,
});
export const challanRequest = z.strictObject({
  rc_number: idField('rc_number', RC_PATTERN),
  case_reference: caseReferenceField,
  fresh: freshBodyField,
});

/** Registration numbers are compared and stored upper-case without separators. */
export const normalizeRc = (value: string): string => value.replace(/[\s-]/g, '').toUpperCase();
