/**
 * What makes two values "the same" and how a folded value is shown: phones in E.164 (libphonenumber-js,
 * India when a number names no country), e-mails trimmed and lower-cased, dates as yyyy-mm-dd, names
 * compared without case, spacing or punctuation and shown in their most common, best-cased form.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** The region a phone number without a country code is read in. */
export const DEFAULT_PHONE_REGION = 'IN';

/** '+91 98765 43210', '09876543210', '919876543210' → '+919876543210'; undefined when it is no phone number. */
export function normalizePhone(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const raw = String(value).trim().slice(0, 40);
  if (!/\d/.test(raw)) return undefined;
  try {
    const parsed = parsePhoneNumberFromString(raw, DEFAULT_PHONE_REGION);
    return parsed?.isPossible() ? parsed.number : undefined;
  } catch {
    return undefined;
  }
}

/** ' Rich.Demo@Example.TEST ' → 'rich.demo@example.test'; undefined when it is no address. */
export function normalizeEmail(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const address = value.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(address) ? address : undefined;
}

function validYear(y: number): string | undefined {
  // 1800-01-01 is a vendor sentinel for "no date" (spec §9).
  return y >= 1900 && y <= 2100 ? String(y) : undefined;
}

/** A year as the timeline prints it, or undefined outside 1900–2100. */
export const yearOf = (y: number): string | undefined => (Number.isInteger(y) ? validYear(y) : undefined);

/** 'YYYY-MM-DD' from ISO dates/timestamps, 'DD/MM/YYYY' or 'DD-MM-YYYY'; 'YYYY' from a bare year. */
export function isoDay(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? validYear(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (/^\d{4}$/.test(s)) return validYear(Number(s));
  const isoForm = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(s);
  const dayFirst = isoForm ? undefined : /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (!isoForm && !dayFirst) return undefined;
  const [y, m, d] = isoForm
    ? [Number(isoForm[1]), Number(isoForm[2]), Number(isoForm[3])]
    : [Number(dayFirst![3]), Number(dayFirst![2]), Number(dayFirst![1])];
  if (!validYear(y) || m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Dates are compared and shown as ISO days. */
export const normalizeDate = isoDay;

/** 'M', 'male', 'MALE' → 'Male'; 'f', 'Female' → 'Female'; undefined for anything else. */
export function normalizeGender(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = alnum(value);
  if (v === 'm' || v === 'male' || v === 'man') return 'Male';
  if (v === 'f' || v === 'female' || v === 'woman') return 'Female';
  return undefined;
}

/** Letters and digits only, lower-cased: what is left of a value for an exact comparison. */
export const alnum = (value: string): string => value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A name for comparison: ' ROHAN  suresh-Deshmukh ' → 'rohan suresh deshmukh'. */
export function nameKey(value: string): string {
  return value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
}

/** How well a form is cased: 'Rohan Deshmukh' beats 'ROHAN DESHMUKH' beats 'rohan deshmukh'. */
function casingScore(value: string): number {
  const letters = value.replace(/[^\p{L}]/gu, '');
  if (!letters) return 0;
  if (letters === letters.toUpperCase() || letters === letters.toLowerCase())
    return letters === letters.toUpperCase() ? 1 : 0;
  return 2;
}

/**
 * The form to show of several that compare equal: the most common, then the best-cased, then the first.
 */
export function bestForm(forms: readonly string[]): string | undefined {
  const counts = new Map<string, { count: number; first: number }>();
  forms.forEach((form, index) => {
    const found = counts.get(form);
    if (found) found.count += 1;
    else counts.set(form, { count: 1, first: index });
  });
  return [...counts.entries()].sort(
    ([a, x], [b, y]) => y.count - x.count || casingScore(b) - casingScore(a) || x.first - y.first,
  )[0]?.[0];
}
