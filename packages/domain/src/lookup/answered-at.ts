/**
 * When a lookup's sources answered, as the results page and the detail modals print it:
 * 'dd MMM yyyy, HH:mm' ('04 Mar 2025, 10:32'), with English month names whatever the browser's locale.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * '2025-03-04T10:32:09Z' → '04 Mar 2025, 10:32', in the reader's local time (`'utc'`: in UTC);
 * '' for a missing or unreadable value.
 */
export function formatAnsweredAt(iso: string | null | undefined, zone: 'local' | 'utc' = 'local'): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const utc = zone === 'utc';
  const day = utc ? at.getUTCDate() : at.getDate();
  const month = utc ? at.getUTCMonth() : at.getMonth();
  const year = utc ? at.getUTCFullYear() : at.getFullYear();
  const hours = utc ? at.getUTCHours() : at.getHours();
  const minutes = utc ? at.getUTCMinutes() : at.getMinutes();
  return `${pad(day)} ${MONTHS[month]} ${year}, ${pad(hours)}:${pad(minutes)}`;
}
