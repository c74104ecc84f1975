import { detailLabel, formatRecordDate } from '@footprint/domain';

/**
 * Small pure helpers of the results page: labels, links, dates and file names (detail records are laid
 * out by the domain's layoutRecord). Upstream
 * values pass through here as plain strings only; nothing is ever rendered as HTML.
 */

/** 'owner_name' → 'Owner Name', 'pucc_upto' → 'PUCC Upto', 'fullName' → 'Full Name'. */
export const labelOf = detailLabel;

/** Only http(s) links leave the app; anything else (javascript:, data:, relative) is shown as text. */
export function safeHref(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** File names built from searched values: keep them portable (no path separators or control chars). */
export function fileSafe(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return value.replace(/[\u0000-\u001f/\\:*?"<>|]+/g, '_').slice(0, 120) || 'result';
}

/**
 * '2024-03-18T09:12:00Z' → '18 Mar 2024' (with `withTime` and a time in the value,
 * '18 Mar 2024, 14:42 IST'), by the domain's record formatter; anything unparsable is shown as it came.
 */
export function formatDate(value: string, withTime = false): string {
  const day = /^\d{4}-\d{2}-\d{2}(?=$|[T ])/.exec(value.trim());
  const shown = formatRecordDate(withTime || !day ? value : day[0]);
  if (shown) return shown;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return value;
  return (
    formatRecordDate(new Date(at).toISOString().slice(0, withTime ? 19 : 10) + (withTime ? 'Z' : '')) ?? value
  );
}

export const formatCount = (value: number): string => new Intl.NumberFormat().format(value);

/** A period of study or work in years: '2015–2019', '2015–present', 'until 2019'. */
export function yearSpan(start?: number, end?: number): string | undefined {
  if (start && end) return start === end ? String(start) : `${start}–${end}`;
  if (start) return `${start}–present`;
  if (end) return `until ${end}`;
  return undefined;
}
