import { PHONE_LENGTH } from '@footprint/domain';

/**
 * The phone field of the search screen. It takes what a written phone number holds (digits, spaces,
 * '+', '-' and parentheses) and drops anything else as it is typed or pasted, so 'Tel: +91 98765-43210'
 * pasted from a report becomes '+91 98765-43210'. On submit the separators go and the number must be
 * the 10 digits the search sends (spec §5, §7), optionally written after the picker's dial code.
 */

/** Room for the 10 digits written with a dial code and separators, e.g. '+91 (98765) 432-10'. */
export const PHONE_INPUT_MAX_LENGTH = 20;

/** Characters a written phone number may not hold (anything but digits, spaces, + - ( )). */
const NOT_PHONE = /[^\d +()-]/g;
/** A value made only of the characters a written phone number holds. */
const PHONE_WRITING = /^[\d\s+()-]*$/;

/**
 * The field's value for what the user typed or pasted: every character outside digits, white space,
 * '+', '-', '(' and ')' is dropped, what is left of any run of white space becomes one space, leading
 * spaces go and the result stops at `PHONE_INPUT_MAX_LENGTH` characters. Stripping happens before the
 * cut, so a long pasted line still keeps its number.
 */
export function sanitizePhoneInput(raw: string): string {
  return raw
    .replace(/\s/g, ' ')
    .replace(NOT_PHONE, '')
    .replace(/ {2,}/g, ' ')
    .trimStart()
    .slice(0, PHONE_INPUT_MAX_LENGTH);
}

/**
 * The 10 digits to search for, or `null` when `input` is not a valid number: either exactly 10 digits
 * once spaces, dashes and parentheses are gone, or `dialCode` (the picker's, without '+') followed by
 * 10 digits, with or without '+' in front. A number written with '+' must start with that dial code.
 */
export function phoneDigits(input: string, dialCode: string): string | null {
  if (!PHONE_WRITING.test(input)) return null;
  const digits = input.replace(/\D/g, '');
  if (digits.length === PHONE_LENGTH && !input.includes('+')) return digits;
  if (digits.length === dialCode.length + PHONE_LENGTH && digits.startsWith(dialCode)) {
    return digits.slice(dialCode.length);
  }
  return null;
}
