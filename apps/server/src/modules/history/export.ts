/**
 * Pieces of the exports of a user's own records, from what the server stored (the browser only names
 * the lookup): the CSV line writer, the source records of a merged profile, a leak record's row and the
 * file names. The file of one stored result is made in export-file.ts (a leak search's, streamed, in
 * export-leak.ts); the lookups list in lists.ts. Every CSV field goes through the audit export's writer
 * (RFC 4180 quoting, formula neutralisation), without a byte-order mark, like the audit export.
 */
import { type ExportFormat, type MergedProfile, messages, PROFILE_SECTIONS } from '@footprint/domain';
import { slug } from '../audit/query.ts';

type Dict = Record<string, unknown>;
const dict = (value: unknown): Dict | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Dict) : undefined;
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

// CSV lines and file-name slugs are written by the audit export's writer, shared with the bulk export.
export { csvLine, slug } from '../audit/query.ts';

export const LEAK_CSV_COLUMNS = [
  'source',
  'breach_date',
  'name',
  'email',
  'phone',
  'username',
  'address',
  'other',
] as const;

const span = (start?: number, end?: number) =>
  start || end ? `${start ?? ''}–${end ?? ''}`.replace(/^–|–$/g, '') : undefined;
const joined = (parts: ReadonlyArray<string | undefined>) => parts.filter(Boolean).join(', ');

/** The per-source profile as rows: every section's entries with their source, in the page's order ('Values by source'). */
export function profileRows(profile: MergedProfile): string[][] {
  const rows: string[][] = [];
  for (const { key, title } of PROFILE_SECTIONS) {
    if (key === 'qualifications') {
      for (const q of profile.qualifications) {
        const value = joined([q.degree, q.field, q.school, span(q.startYear, q.endYear)]);
        if (value) rows.push([title, messages.exports.qualification, value, q.source]);
      }
    } else if (key === 'experience') {
      for (const e of profile.experience) {
        const value = joined([e.title, e.company, span(e.startYear, e.endYear)]);
        if (value) rows.push([title, messages.exports.position, value, e.source]);
      }
    } else if (key === 'internetPresence') {
      for (const p of profile.internetPresence) {
        const state = p.active ? messages.exports.active : messages.exports.notActive;
        rows.push([title, p.platform, p.url ? `${state}: ${p.url}` : state, p.source]);
      }
    } else {
      for (const entry of profile[key]) rows.push([title, entry.key ?? '', entry.value, entry.source]);
    }
  }
  for (const image of profile.images) rows.push([messages.exports.images, '', image.url, image.source]);
  return rows;
}

/** A leak page's records: one row each, the record's other fields as 'key: value; …'. */
export function leakRows(stored: Dict): string[][] {
  const records = Array.isArray(stored.data) ? stored.data : [];
  return records.flatMap((item) => {
    const record = dict(item);
    if (!record) return [];
    const source = dict(record.source);
    const other = Object.entries(dict(record.other) ?? {})
      .map(([k, v]) => `${k}: ${text(v) ?? JSON.stringify(v)}`)
      .join('; ');
    return [
      [
        text(source?.name) ?? '',
        text(source?.breach_date) ?? '',
        ...(['name', 'email', 'phone', 'username', 'address'] as const).map((k) => text(record[k]) ?? ''),
        other,
      ],
    ];
  });
}

/** tel-919876543210-2026-01-31.csv; a typed kind keeps its type (corporate-corporate-gstin-…). */
export const resultFileName = (kind: string, query: string, createdAt: Date, format: ExportFormat) =>
  `${slug(kind)}-${slug(query)}-${createdAt.toISOString().slice(0, 10)}.${format}`;

export const HISTORY_CSV_COLUMNS = [
  'id',
  'time',
  'kind',
  'query_typed',
  'query',
  'cost',
  'status',
  'cached',
  'case_reference',
  'refunded',
] as const;

/** history-all-2026-01-31.csv, history-tel-2026-01-31.csv. */
export const historyCsvFileName = (kind: string | undefined, today: Date) =>
  `history-${kind ? slug(kind) : 'all'}-${today.toISOString().slice(0, 10)}.csv`;
