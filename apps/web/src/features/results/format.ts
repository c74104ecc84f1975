import { DETAIL_HIDDEN_KEYS, detailLabel, isHiddenDetailString, isRecord } from '@footprint/domain';

/**
 * Small pure helpers of the results page: labels, links, detail-record rows and file names. Upstream
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

const HIDDEN_KEYS = DETAIL_HIDDEN_KEYS;

export interface DetailRow {
  label: string;
  value: string;
}

export interface DetailGroup {
  title?: string;
  rows: DetailRow[];
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  return isHiddenDetailString(value) ? undefined : value.replace(/\s+/g, ' ').trim();
}

/**
 * Flattens a detail record into label/value rows: nested objects become 'Parent Child' labels, lists of
 * scalars are joined with commas, and lists of objects become their own numbered groups.
 */
export function detailGroups(record: unknown, title?: string): DetailGroup[] {
  const rows: DetailRow[] = [];
  const nested: DetailGroup[] = [];
  const walk = (value: unknown, prefix: string) => {
    if (!isRecord(value)) return;
    for (const [key, item] of Object.entries(value)) {
      if (HIDDEN_KEYS.has(key)) continue;
      const label = prefix ? `${prefix} ${labelOf(key)}` : labelOf(key);
      if (Array.isArray(item)) {
        if (item.some(isRecord)) {
          const objects = item.filter(isRecord);
          objects.forEach((entry, index) => {
            nested.push(...detailGroups(entry, `${label} ${index + 1} of ${objects.length}`));
          });
        } else {
          const joined = item.map(scalar).filter(Boolean).join(', ');
          if (joined) rows.push({ label, value: joined });
        }
      } else if (isRecord(item)) {
        walk(item, label);
      } else {
        const shown = scalar(item);
        if (shown !== undefined) rows.push({ label, value: shown });
      }
    }
  };
  walk(record, '');
  const groups = rows.length > 0 ? [{ title, rows }] : [];
  return [...groups, ...nested];
}

/** File names built from searched values: keep them portable (no path separators or control chars). */
export function fileSafe(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return value.replace(/[\u0000-\u001f/\\:*?"<>|]+/g, '_').slice(0, 120) || 'result';
}

/** '2024-03-18T09:12:00Z' → a local date and time; anything unparsable is shown as it came. */
export function formatDate(value: string, withTime = false): string {
  const at = Date.parse(value);
  if (Number.isNaN(at)) return value;
  return new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    ...(withTime && /T|\d:\d/.test(value) ? { timeStyle: 'short' } : {}),
  }).format(at);
}

export const formatCount = (value: number): string => new Intl.NumberFormat().format(value);
