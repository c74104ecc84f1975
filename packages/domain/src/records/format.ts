/**
 * The one formatter of record values, for the screens and the PDFs alike. Fixed rules, no locale of
 * the viewer's machine: dates as '05 Mar 2024' (with a time, '05 Mar 2024, 14:30 IST': times are shown
 * in India Standard Time), amounts as '₹1,23,456', yes/no values as 'Yes'/'No', and anything missing as
 * one em dash. Values are untrusted; nothing here throws.
 */

/** What a missing value reads as. */
export const MISSING = '—';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IST_OFFSET_MS = 330 * 60_000;

/** Placeholders vendors send for "nothing": compared after trimming, in lower case. */
const MISSING_STRINGS: ReadonlySet<string> = new Set([
  '',
  '-',
  '--',
  '—',
  'n/a',
  'na',
  'nil',
  'null',
  'undefined',
  'none',
]);
/** The vendors' "unknown date". */
const SENTINEL_DATE = /^(1800-01-01(?:[T ][\d:.]+Z?)?|01[-/]01[-/]1800)$/;

const YES: ReadonlySet<string> = new Set(['yes', 'y', 'true']);
const NO: ReadonlySet<string> = new Set(['no', 'n', 'false']);

/** Keys whose numeric values are rupee amounts. */
const AMOUNT_KEY =
  /(^|_)(amount|amt|fine|fines|penalty|turnover|tax|taxes|capital|income|price|fee|fees|balance|salary|outstanding|sanctioned|emi|value)(_|$)/i;
/** Keys whose values are dates even when written as month/year. */
const DATE_KEY = /(date|dob|upto|up_to|valid|expiry|_from$|_to$|since|till|_on$|_at$)/i;

/** True for null, undefined, a non-finite number, a blank or placeholder string, or the date 1800-01-01. */
export function isMissingValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'string') return false;
  const v = value.replace(/\s+/g, ' ').trim();
  return MISSING_STRINGS.has(v.toLowerCase()) || SENTINEL_DATE.test(v);
}

const pad = (n: number) => String(n).padStart(2, '0');

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || year < 1000 || year > 9999) return false;
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

const day = (year: number, month: number, d: number) => `${pad(d)} ${MONTHS[month - 1]} ${year}`;

/**
 * A date in 'dd MMM yyyy', or with a time 'dd MMM yyyy, HH:mm IST'. Accepts ISO dates and date-times
 * (with a zone, converted to IST; without one, read as IST already) and Indian 'dd-mm-yyyy' /
 * 'dd/mm/yyyy'. Returns undefined for anything that is not such a date.
 */
export function formatRecordDate(value: string): string | undefined {
  const v = value.trim();
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
      v,
    );
  if (iso) {
    const [, y, m, d, hh, mm, ss, zone] = iso;
    if (!validDay(Number(y), Number(m), Number(d))) return undefined;
    if (hh === undefined) return day(Number(y), Number(m), Number(d));
    if (Number(hh) > 23 || Number(mm) > 59) return undefined;
    let at = Date.UTC(Number(y), Number(m) - 1, Number(d), Number(hh), Number(mm), Number(ss ?? 0));
    if (zone) {
      const offset =
        zone.toUpperCase() === 'Z'
          ? 0
          : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) * 60_000;
      at = at - offset + IST_OFFSET_MS;
    }
    const t = new Date(at);
    if (Number.isNaN(t.getTime())) return undefined;
    return `${day(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate())}, ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())} IST`;
  }
  const indian = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(v);
  if (indian) {
    const [, d, m, y] = indian;
    return validDay(Number(y), Number(m), Number(d)) ? day(Number(y), Number(m), Number(d)) : undefined;
  }
  return undefined;
}

/** '3/2019' or '2019-03' under a date key → 'Mar 2019'. */
function monthYear(value: string): string | undefined {
  const v = value.trim();
  const a = /^(\d{1,2})[-/](\d{4})$/.exec(v);
  const b = /^(\d{4})-(\d{1,2})$/.exec(v);
  const [month, year] = a ? [Number(a[1]), Number(a[2])] : b ? [Number(b[2]), Number(b[1])] : [0, 0];
  return month >= 1 && month <= 12 && year >= 1000 ? `${MONTHS[month - 1]} ${year}` : undefined;
}

const RUPEES = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2, minimumFractionDigits: 0 });

/** 123456 → '₹1,23,456'; 12345678.5 → '₹1,23,45,678.5'. Undefined for a non-number. */
export function formatRupees(value: unknown): string | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*-?(₹|rs\.?|inr)?\s*[\d,]*\.?\d+\s*$/i.test(value)
        ? Number(value.replace(/[₹,\s]|rs\.?|inr/gi, ''))
        : Number.NaN;
  if (!Number.isFinite(n)) return undefined;
  return `${n < 0 ? '-' : ''}₹${RUPEES.format(Math.abs(n))}`;
}

/** true / 'Y' / 'yes' → 'Yes'; false / 'N' / 'no' → 'No'; anything else undefined. */
export function formatYesNo(value: unknown): string | undefined {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return YES.has(v) ? 'Yes' : NO.has(v) ? 'No' : undefined;
}

/** Folds white space and drops control characters; never longer than `max`. */
function plain(value: string, max = 2000): string {
  const text = value
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * One scalar of a record as text, by its key: missing → '—', yes/no → 'Yes'/'No', dates, rupee
 * amounts; other values as given (white space folded). Arrays of scalars are joined with ', ';
 * objects, which belong in rows or tables of their own, read as '—' here.
 */
export function formatRecordValue(key: string, value: unknown): string {
  try {
    if (isMissingValue(value)) return MISSING;
    if (Array.isArray(value)) {
      const shown = value
        .filter((item) => typeof item !== 'object' || item === null)
        .map((item) => formatRecordValue(key, item))
        .filter((item) => item !== MISSING);
      return shown.length > 0 ? shown.join(', ') : MISSING;
    }
    const yesNo = formatYesNo(value);
    if (yesNo) return yesNo;
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'number') {
      if (AMOUNT_KEY.test(key)) return formatRupees(value) ?? String(value);
      return String(value);
    }
    if (typeof value !== 'string') return MISSING;
    const date = formatRecordDate(value) ?? (DATE_KEY.test(key) ? monthYear(value) : undefined);
    if (date) return date;
    if (AMOUNT_KEY.test(key)) {
      const rupees = formatRupees(value);
      if (rupees) return rupees;
    }
    return plain(value) || MISSING;
  } catch {
    return MISSING;
  }
}
