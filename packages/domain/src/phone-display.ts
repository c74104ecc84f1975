import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** Formatting a number is slow (a case page names 200 searches): the last numbers formatted, kept. */
const PHONES_KEPT = 5_000;
const displayed = new Map<string, string>();

/** '+91 98765 43210' for a stored '919876543210'; other values as they are. */
export function displayPhone(query: string): string {
  const known = displayed.get(query);
  if (known !== undefined) return known;
  const digits = query.replace(/\D/g, '');
  const parsed = digits.length >= 8 ? parsePhoneNumberFromString(`+${digits}`) : undefined;
  const shown = parsed?.isValid() ? parsed.formatInternational() : query;
  if (displayed.size >= PHONES_KEPT) displayed.clear();
  displayed.set(query, shown);
  return shown;
}
