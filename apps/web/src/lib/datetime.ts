/**
 * Dates and times as the history and admin tables show them: local time, day first
 * ('14 Mar 2025, 10:32'), with the exact ISO instant kept for a title or a <time dateTime>.
 */

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

const parse = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** '14 Mar 2025, 10:32' (or with seconds); '' for a missing or unreadable value. */
export function formatDateTime(value: string | null | undefined, seconds = false): string {
  const date = parse(value);
  return date ? (seconds ? dateTimeSeconds : dateTime).format(date) : '';
}

/** '14 Mar 2025'. A bare day ('2021-03-04') is read as that calendar day, not as UTC midnight. */
export function formatDate(value: string | null | undefined): string {
  if (value && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    return dateOnly.format(new Date(y, m - 1, d));
  }
  const date = parse(value);
  return date ? dateOnly.format(date) : '';
}

/** Today as YYYY-MM-DD in local time (file names, date inputs). */
export function localDay(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
