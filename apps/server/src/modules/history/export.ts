/**
 * Exports of a user's own records, from what the server stored (the browser only names the lookup):
 * one stored result as CSV or JSON, and the lookups list as CSV. Every CSV field goes through the
 * audit export's writer (RFC 4180 quoting, formula neutralisation), without a byte-order mark, like
 * the audit export.
 */
import {
  declarationOf,
  type EmailLookupData,
  type ExportFormat,
  flattenIntelResult,
  type MergedProfile,
  mergeEmailProfile,
  mergePhoneProfile,
  messages,
  type PhoneLookupResponse,
  PROFILE_SECTIONS,
} from '@footprint/domain';
import { csvField } from '../audit/query.ts';

type Dict = Record<string, unknown>;
const dict = (value: unknown): Dict | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Dict) : undefined;
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/** One CSV line, CRLF-terminated; numbers and dates the server wrote are not neutralised. */
export const csvLine = (cells: ReadonlyArray<unknown>, plain: ReadonlySet<number> = new Set()) =>
  `${cells.map((cell, i) => csvField(cell, !plain.has(i))).join(',')}\r\n`;

export const PROFILE_CSV_COLUMNS = ['section', 'label', 'value', 'source'] as const;
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
export const LINES_CSV_COLUMNS = ['label', 'value'] as const;

const span = (start?: number, end?: number) =>
  start || end ? `${start ?? ''}–${end ?? ''}`.replace(/^–|–$/g, '') : undefined;
const joined = (parts: ReadonlyArray<string | undefined>) => parts.filter(Boolean).join(', ');

/** The merged profile as rows: every section's entries with their source, in the page's order. */
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

/** A detail, corporate or verification answer: its sources' payloads flattened to label/value lines. */
export function lineRows(stored: Dict): string[][] {
  const payloads = dict(stored.payloads) ?? {};
  return Object.values(payloads).flatMap((payload) =>
    flattenIntelResult(payload).map((line) => [line.label, line.value]),
  );
}

/** A stored result as CSV: the header line, then one line per value (or record). */
export function resultCsv(kind: string, result: unknown): string {
  const stored = dict(result) ?? {};
  let columns: readonly string[];
  let rows: string[][];
  const shape = declarationOf(kind)?.shape;
  if (shape === 'phone' || shape === 'email') {
    // The stored answer as the results page reads it: the payloads by source key, and their errors.
    const answer = { ...(dict(stored.payloads) ?? {}), errors: dict(stored.errors) ?? {} };
    const profile =
      shape === 'phone'
        ? mergePhoneProfile(answer as Partial<PhoneLookupResponse>)
        : mergeEmailProfile(answer as Partial<EmailLookupData>);
    columns = PROFILE_CSV_COLUMNS;
    rows = profileRows(profile);
  } else if (shape === 'leak') {
    columns = LEAK_CSV_COLUMNS;
    rows = leakRows(stored);
  } else {
    columns = LINES_CSV_COLUMNS;
    rows = lineRows(stored);
  }
  return [columns, ...rows].map((row) => csvLine(row)).join('');
}

/** 'Rich.Demo@Example.TEST' → 'rich-demo-example-test': safe in a file name and a header. */
export const slug = (value: string, max = 60) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '') || 'lookup';

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
