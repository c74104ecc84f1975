/**
 * The exported file of one stored lookup (docs/capabilities.md, 'Exports'): a header that says what the
 * file is (lookup id, case reference, when its sources answered, whether it reused an earlier answer),
 * then its parts. Phone and e-mail: the merged profile (the domain's one analysis, the values the
 * results page, the PDF and the bulk results show, each once with its sources, corroboration and
 * confidence), then the source records as each source gave them. Detail, corporate and verification:
 * the record laid out as the results page lays it out (the domain's layoutRecord: curated order,
 * formatted values), its lists as tables. Username: one row per site found, blocked, failed or not
 * checked, with its evidence or reason (export-username.ts). The leak search is streamed (export-leak.ts).
 *
 * CSV: a block of `# key,value` lines, a blank line, then one rectangular table (phone and e-mail: a
 * `part` column, `merged` then `source`). A spreadsheet shows the header in its first rows; a parser
 * skips it as comments (csv-parse `comment: '#'`, pandas `comment='#'`); a cell holding '#' is always
 * quoted so that no comment starts inside a row. JSON: the stored answer as before, with the header's
 * fields and the parts beside it. XLSX: an 'About' sheet, then one sheet per part.
 */
import { createHash } from 'node:crypto';
import {
  type AnalysisAttribute,
  type AnalysisValue,
  analyzeEmailLookup,
  analyzePhoneLookup,
  declarationOf,
  type EmailLookupData,
  isCorroborated,
  isRecord,
  layoutRecord,
  mergeEmailProfile,
  mergePhoneProfile,
  messages,
  type PhoneLookupResponse,
  type ProfileAnalysis,
  profileCounts,
  provenanceLines,
  type RecordLayout,
  sourceStatusOf,
} from '@footprint/domain';
import { MAX_CELL, type SheetCell, xlsxBuffer } from '../../xlsx/write.ts';
import { csvField } from '../audit/query.ts';
import { presentAnswerTime, presentStoredResult, type ReusedLookup } from '../lookup/present.ts';
import { profileRows } from './export.ts';
import {
  accountSearchOf,
  PLAIN_SITE_COLUMNS,
  SITE_EXPORT_COLUMNS,
  siteCells,
  siteCheckOf,
  siteHeader,
  siteRows,
  vendorRows,
} from './export-username.ts';

type Dict = Record<string, unknown>;
const dict = (value: unknown): Dict => (isRecord(value) ? value : {});

export const EXPORT_MEDIA_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** The stored lookup an export is made of (history/stored.ts `storedOf`). */
export interface ExportSource {
  lookup: {
    id: string;
    kind: string;
    query: string;
    queryTyped: string | null;
    createdAt: Date;
    caseReference: string | null;
    cacheOf: string | null;
    sandbox: boolean;
  };
  result: unknown;
  answeredAt: Date;
  reusedFrom: ReusedLookup | null;
}

/** The header: what the file is, in `key, value` pairs (the CSV's `#` lines, the 'About' sheet). */
export function headerOf(source: ExportSource, exportedAt: Date): Array<[string, string]> {
  const { lookup } = source;
  return [
    ['lookup_id', lookup.id],
    ['kind', lookup.kind],
    ['query', lookup.query],
    ['query_typed', lookup.queryTyped ?? ''],
    ['case_reference', lookup.caseReference ?? ''],
    ['searched_at', lookup.createdAt.toISOString()],
    ['answered_at', source.answeredAt.toISOString()],
    // A free repeat within the cache window: the answer is the earlier lookup's, named here.
    ['reused', String(lookup.cacheOf !== null)],
    ['reused_from', source.reusedFrom?.lookupId ?? ''],
    ['sandbox', String(lookup.sandbox)],
    ['exported_at', exportedAt.toISOString()],
  ];
}

/** The header's fields in the JSON file (beside the document's older fields). */
export const headerJson = (source: ExportSource, exportedAt: Date) => ({
  answered_at: source.answeredAt.toISOString(),
  reused: source.lookup.cacheOf !== null,
  reused_from: source.reusedFrom
    ? { lookup_id: source.reusedFrom.lookupId, case_reference: source.reusedFrom.caseReference }
    : null,
  sandbox: source.lookup.sandbox,
  exported_at: exportedAt.toISOString(),
});

/** The document every JSON export starts from (its fields unchanged since the first export). */
export const baseDocument = (source: ExportSource) => ({
  lookup_id: source.lookup.id,
  kind: source.lookup.kind,
  query: source.lookup.query,
  query_typed: source.lookup.queryTyped,
  created_at: source.lookup.createdAt.toISOString(),
  case_reference: source.lookup.caseReference,
  result: presentStoredResult(
    source.lookup.kind,
    source.result,
    presentAnswerTime(source.answeredAt, source.reusedFrom),
  ),
});

// ---------- CSV ----------

/**
 * One CSV line, CRLF-terminated, through the audit export's writer (RFC 4180, formula neutralisation);
 * a cell holding '#' is quoted, so that a comment-aware parser never cuts a row. Columns in `plain`
 * (numbers and times the server wrote) are not neutralised.
 */
export function fileLine(cells: ReadonlyArray<unknown>, plain: ReadonlySet<number> = new Set()): string {
  return `${cells
    .map((cell, i) => {
      const field = csvField(cell, !plain.has(i));
      return field.includes('#') && !field.startsWith('"') ? `"${field}"` : field;
    })
    .join(',')}\r\n`;
}

/** The header block: '# key,value' lines and a blank line. */
export const csvHeader = (header: ReadonlyArray<readonly [string, string]>) =>
  `${header.map(([key, value]) => `# ${key},${fileLine([value])}`).join('')}\r\n`;

// ---------- phone and e-mail: the merged profile ----------

export const PROFILE_EXPORT_COLUMNS = [
  'part',
  'section',
  'attribute',
  'value',
  'sources',
  'corroboration',
  'confidence',
  'answered_at',
  'source_labels',
  'provenance',
] as const;

/** Confidence (0 to 1) and answer times: written by the server, never neutralised. */
const PLAIN_PROFILE_COLUMNS: ReadonlySet<number> = new Set([6, 7]);

/** A merged value's corroboration, as the results page marks it (domain isCorroborated, the attribute's status). */
export function corroborationOf(value: AnalysisValue, attribute: AnalysisAttribute): string {
  const words = messages.exports.corroboration;
  if (isCorroborated(value)) return words.corroborated;
  return attribute.status === 'conflicting' ? words.conflict : words.single;
}

/** The analysis of a stored phone or e-mail answer, read as the PDF reads it (reports/builders.ts). */
export function analysisOf(source: ExportSource): ProfileAnalysis {
  const stored = dict(source.result);
  const payloads = dict(stored.payloads);
  const errors = dict(stored.errors) as Record<string, string>;
  const kind = source.lookup.kind === 'tel' ? 'tel' : 'email';
  const status = sourceStatusOf(kind, {
    payloads,
    errors,
    status: stored.status,
    sandbox: source.lookup.sandbox,
  });
  const meta = { sourceStatus: status.status, answeredAt: source.answeredAt.toISOString() };
  const answer = { ...payloads, errors };
  return kind === 'tel'
    ? analyzePhoneLookup(answer as Partial<PhoneLookupResponse>, meta)
    : analyzeEmailLookup(answer as Partial<EmailLookupData>, meta);
}

export interface MergedRow {
  attribute: string;
  value: string;
  /** The sources' own names ('Gov identity records', 'Orbitly 2019 (via OSINT)'). */
  sources: string[];
  corroboration: string;
  confidence: number;
  answered_at: string;
  /** The results page's source chips ('Gov', 'OSINT'). */
  source_labels: string[];
  provenance: string[];
}

/** A merged row's cells from its attribute on, as CSV and XLSX write them (provenance joined by `join`). */
const mergedCells = (row: MergedRow, join: string) => [
  row.attribute,
  row.value,
  row.sources.join('; '),
  row.corroboration,
  row.confidence,
  row.answered_at,
  row.source_labels.join('; '),
  row.provenance.join(join),
];

/** One row per merged value of the analysis, in its order. */
export function mergedRows(analysis: ProfileAnalysis, answeredAt: Date): MergedRow[] {
  return analysis.attributes.flatMap((attribute) =>
    attribute.values.map((value) => {
      const provenance = value.provenance ?? [];
      const names = [...new Set(provenance.map((p) => (p.via ? `${p.name} (via ${p.via})` : p.name)))];
      const times = provenance.flatMap((p) => (p.answeredAt ? [p.answeredAt] : [])).sort();
      return {
        attribute: attribute.attribute,
        value: value.value,
        sources: names.length > 0 ? names : value.sources,
        corroboration: corroborationOf(value, attribute),
        confidence: value.confidence,
        answered_at: times.at(-1) ?? answeredAt.toISOString(),
        source_labels: value.sources,
        provenance: provenanceLines(provenance),
      };
    }),
  );
}

/** The source records: every value as each source gave it (the page's 'Values by source'). */
export function sourceRows(
  source: ExportSource,
): Array<{ section: string; label: string; value: string; source: string }> {
  const stored = dict(source.result);
  const answer = { ...dict(stored.payloads), errors: dict(stored.errors) };
  const profile =
    source.lookup.kind === 'tel'
      ? mergePhoneProfile(answer as Partial<PhoneLookupResponse>)
      : mergeEmailProfile(answer as Partial<EmailLookupData>);
  return profileRows(profile).map(([section, label, value, from]) => ({
    section: section ?? '',
    label: label ?? '',
    value: value ?? '',
    source: from ?? '',
  }));
}

/** The merged profile and the source records of a phone or e-mail lookup. */
export function profileParts(source: ExportSource) {
  const analysis = analysisOf(source);
  return {
    counts: profileCounts(analysis.attributes),
    merged: mergedRows(analysis, source.answeredAt),
    records: sourceRows(source),
  };
}

function profileCsv(source: ExportSource, header: Array<[string, string]>): string {
  const { counts, merged, records } = profileParts(source);
  const t = messages.exports;
  const lines = [
    csvHeader([
      ...header,
      ['merged_values', String(counts.facts)],
      ['corroborated', String(counts.corroborated)],
      ['conflicts', String(counts.conflicts)],
      ['source_records', String(records.length)],
    ]),
    fileLine(PROFILE_EXPORT_COLUMNS),
  ];
  const answeredAt = source.answeredAt.toISOString();
  for (const row of merged)
    lines.push(
      fileLine(
        [t.parts.merged, messages.results.mergedProfile, ...mergedCells(row, ' | ')],
        PLAIN_PROFILE_COLUMNS,
      ),
    );
  for (const row of records)
    lines.push(
      fileLine(
        [t.parts.source, row.section, row.label, row.value, row.source, '', '', answeredAt, row.source, ''],
        PLAIN_PROFILE_COLUMNS,
      ),
    );
  return lines.join('');
}

// ---------- detail, corporate and verification: the record as the page lays it out ----------

export const RECORD_EXPORT_COLUMNS = ['section', 'row', 'label', 'value'] as const;

/** The vendor's record of a detail, corporate or verification answer, laid out as its results page does. */
export function recordLayoutOf(source: ExportSource): RecordLayout {
  const payload = dict(dict(dict(source.result).payloads)[source.lookup.kind]);
  return isRecord(payload.data) ? layoutRecord(payload.data, source.lookup.kind) : { rows: [], tables: [] };
}

function recordCsv(source: ExportSource, header: Array<[string, string]>): string {
  const layout = recordLayoutOf(source);
  const details = messages.exports.details;
  const lines = [csvHeader(header), fileLine(RECORD_EXPORT_COLUMNS)];
  for (const row of layout.rows) lines.push(fileLine([details, '', row.label, row.value]));
  for (const table of layout.tables)
    table.rows.forEach((cells, index) => {
      table.columns.forEach((column, i) => {
        lines.push(fileLine([table.title, index + 1, column.label, cells[i] ?? ''], new Set([1])));
      });
    });
  return lines.join('');
}

// ---------- XLSX ----------

/**
 * A cell safe for the workbook: text only (never a formula: the writer writes strings as strings), lone
 * surrogates dropped (they would make the XML unreadable), cut to the cell limit. The writer itself
 * drops the control characters XML cannot hold.
 */
export function sheetCell(value: unknown): SheetCell {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const text = value === null || value === undefined ? '' : String(value);
  const clean = text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
  return clean.length > MAX_CELL ? clean.slice(0, MAX_CELL) : clean;
}

function workbookOf(
  header: Array<[string, string]>,
  sheets: Array<{ name: string; columns: readonly string[]; rows: ReadonlyArray<ReadonlyArray<unknown>> }>,
): Promise<Buffer> {
  return xlsxBuffer(
    [{ name: messages.exports.sheets.about, columns: ['key', 'value'], rows: header }, ...sheets].map(
      (sheet) => ({
        name: sheet.name,
        header: sheet.columns.map(sheetCell),
        rows: sheet.rows.map((row) => row.map(sheetCell)),
      }),
    ),
  );
}

// ---------- username: one row per site that was found, blocked, failed or not checked ----------

/**
 * A username lookup's file: the header with the counts per state, then the sites, then the accounts a
 * vendor's account search reported (export-username.ts).
 */
async function usernameFile(
  source: ExportSource,
  format: FileFormat,
  header: Array<[string, string]>,
  exportedAt: Date,
): Promise<Buffer> {
  const answer = siteCheckOf(source.result);
  const vendor = accountSearchOf(source.result);
  const sites = siteRows(answer);
  const rows = [...sites, ...vendorRows(vendor)];
  const fullHeader = [...header, ...siteHeader(answer, sites.length)];
  if (vendor) fullHeader.push(['vendor_accounts', `${vendor.answer.accounts.length} (${vendor.vendor})`]);
  if (format === 'csv') {
    const lines = [csvHeader(fullHeader), fileLine(SITE_EXPORT_COLUMNS)];
    for (const row of rows) lines.push(fileLine(siteCells(row), PLAIN_SITE_COLUMNS));
    return Buffer.from(lines.join(''));
  }
  if (format === 'json') {
    const document = {
      ...baseDocument(source),
      ...headerJson(source, exportedAt),
      catalogue: answer?.catalogue ?? null,
      counts: answer?.counts ?? null,
      sites: rows,
      vendor_accounts: vendor ? { vendor: vendor.vendor, ...vendor.answer } : null,
    };
    return Buffer.from(`${JSON.stringify(document, null, 2)}\n`);
  }
  return workbookOf(fullHeader, [
    { name: messages.exports.sheets.sites, columns: SITE_EXPORT_COLUMNS, rows: rows.map(siteCells) },
  ]);
}

// ---------- the file ----------

export type FileFormat = keyof typeof EXPORT_MEDIA_TYPES;

/** A phone, e-mail, username, detail, corporate or verification export, made whole in memory (it is small). */
export async function lookupFile(
  source: ExportSource,
  format: FileFormat,
  exportedAt: Date,
): Promise<Buffer> {
  const shape = declarationOf(source.lookup.kind)?.shape;
  const header = headerOf(source, exportedAt);
  if (shape === 'username') return usernameFile(source, format, header, exportedAt);
  const profile = shape === 'phone' || shape === 'email';
  const t = messages.exports;
  if (format === 'csv') return Buffer.from(profile ? profileCsv(source, header) : recordCsv(source, header));
  if (format === 'json') {
    const document: Dict = { ...baseDocument(source), ...headerJson(source, exportedAt) };
    if (profile) {
      const { counts, merged, records } = profileParts(source);
      document.counts = counts;
      document.merged_profile = merged;
      document.source_records = records;
    } else {
      const layout = recordLayoutOf(source);
      document.fields = layout.rows.map(({ label, value }) => ({ label, value }));
      document.tables = layout.tables.map(({ title, columns, rows }) => ({
        title,
        columns: columns.map((c) => c.label),
        rows,
      }));
    }
    return Buffer.from(`${JSON.stringify(document, null, 2)}\n`);
  }
  if (profile) {
    const { counts, merged, records } = profileParts(source);
    return workbookOf(
      [
        ...header,
        ['merged_values', String(counts.facts)],
        ['corroborated', String(counts.corroborated)],
        ['conflicts', String(counts.conflicts)],
      ],
      [
        {
          name: t.sheets.merged,
          columns: PROFILE_EXPORT_COLUMNS.slice(2),
          rows: merged.map((row) => mergedCells(row, '\n')),
        },
        {
          name: t.sheets.sources,
          columns: ['section', 'label', 'value', 'source'],
          rows: records.map((row) => [row.section, row.label, row.value, row.source]),
        },
      ],
    );
  }
  const layout = recordLayoutOf(source);
  return workbookOf(header, [
    { name: t.details, columns: ['label', 'value'], rows: layout.rows.map((row) => [row.label, row.value]) },
    ...layout.tables.map((table) => ({
      name: table.title,
      columns: table.columns.map((column) => column.label),
      rows: table.rows,
    })),
  ]);
}

/** What the audit row of an export says of the file: its size and SHA-256. */
export const digestOf = (body: Buffer) => ({
  bytes: body.length,
  sha256: createHash('sha256').update(body).digest('hex'),
});
