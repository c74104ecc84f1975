/**
 * 'RC Details', 'UPI Details' and 'Challan Details' PDFs (spec §2.5): the stored vendor record as
 * key/value rows, hiding exactly what the modals hide (empty, null and n/a values, and client_id).
 */

import {
  DETAIL_HIDDEN_KEYS,
  type DetailKind,
  detailFacts,
  detailListIsEmpty,
  detailListOf,
  detailLabel as domainDetailLabel,
  isHiddenDetailString,
  isRecord,
  layoutRecord,
  layoutSize,
  MISSING,
  messages,
  type RecordSection,
  type RecordTable,
} from '@footprint/domain';
import { hasGlyph } from './fonts.ts';
import { clean, count, readableUtc, rupees, thousands } from './format.ts';
import { drawAbout, drawCover } from './frame.ts';
import { COLOR, type Column, type Row, STYLE, text, type Writer } from './layout.ts';
import type { DetailReportJob } from './types.ts';

/**
 * What a detail report draws above its rows besides the record, per kind: the challans' count and
 * amounts. A kind without an entry draws its rows and tables alone.
 */
const SUMMARIES: Partial<Record<DetailKind, (writer: Writer, items: Record<string, unknown>[]) => void>> = {
  challan: drawChallanSummary,
};

const HIDDEN_KEYS = DETAIL_HIDDEN_KEYS;

/**
 * Whether the detail modals (and these PDFs) hide a value: null or undefined, a string that is empty or
 * a placeholder once trimmed, a non-finite number, and an array or object with nothing shown inside.
 */
export function hiddenDetailValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return isHiddenDetailString(value);
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return false;
  if (Array.isArray(value)) return value.every(hiddenDetailValue);
  if (typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => HIDDEN_KEYS.has(key) || hiddenDetailValue(item));
  }
  return true;
}

/** 'owner_name' → 'Owner Name', 'pucc_upto' → 'PUCC Upto' (as the modals label rows). */
export function detailLabel(key: string): string {
  return domainDetailLabel(clean(key, { max: 120 }));
}

export interface DetailGroup {
  title?: string;
  rows: Array<{ label: string; value: string }>;
}

/**
 * A record's label/value rows as the results pages show them (curated order, the domain's formatter),
 * in one group; its lists of records are left to `detailTables`.
 */
export function detailGroups(
  record: unknown,
  title?: string,
  section: RecordSection | string = '',
): DetailGroup[] {
  const { rows } = layoutRecord(record, section);
  const shown = rows.map((row) => ({ label: clean(row.label, { max: 240 }), value: clean(row.value) }));
  return shown.length > 0 ? [title ? { title, rows: shown } : { rows: shown }] : [];
}

/** Most columns an A4 page holds readably; the rest of a wider table folds into a 'Details' column. */
const MAX_PDF_COLUMNS = 7;
const KEPT_COLUMNS = 4;

/**
 * A table as the page can hold it: up to seven columns as they are; a wider one keeps its first four
 * curated columns and folds the rest, in order, into a last 'Details' column of 'Label: value' lines.
 */
export function pdfTable(table: RecordTable): { headers: string[]; rows: string[][] } {
  const headers = table.columns.map((column) => column.label);
  if (headers.length <= MAX_PDF_COLUMNS) return { headers, rows: table.rows };
  return {
    headers: [...headers.slice(0, KEPT_COLUMNS), 'Details'],
    rows: table.rows.map((row) => [
      ...row.slice(0, KEPT_COLUMNS),
      row
        .slice(KEPT_COLUMNS)
        .map((value, i) => (value === MISSING ? '' : `${headers[KEPT_COLUMNS + i]}: ${value}`))
        .filter(Boolean)
        .join('\n') || MISSING,
    ]),
  };
}

/** Column weights from the text they hold: never narrower than the header's longest word or a long token. */
function tableColumns(headers: string[], rows: string[][]): Column[] {
  return headers.map((header, index) => {
    const word = Math.max(...header.split(' ').map((w) => w.length)) * 1.25 + 2;
    const cells = rows.map((row) => clean(row[index]));
    const longest = Math.max(0, ...cells.map((cell) => Math.min(cell.length, 30)));
    // An unbreakable token (a challan number, an ARN) wants its whole width.
    const token = Math.max(
      0,
      ...cells.flatMap((cell) => cell.split(/\s+/).map((w) => Math.min(w.length, 24) * 1.2)),
    );
    return { header: clean(header, { max: 60 }), weight: Math.max(word, longest, token) + 3 };
  });
}

/** A list of records (GST filings, directors, challans...) as one table: a header row, a row per record. */
export function drawRecordTable(writer: Writer, table: RecordTable, options: { level?: 1 | 2 } = {}): void {
  const shaped = pdfTable(table);
  const columns = tableColumns(shaped.headers, shaped.rows);
  const rows: Row[] = shaped.rows.map((row) => ({
    cells: row.map((value) => [text(clean(value, { multiline: true }), { ...STYLE.body, size: 8.6 })]),
  }));
  const title = clean(table.title, { max: 200 });
  writer.heading(title, {
    note: count(rows.length, 'row'),
    keep: writer.keepFor({ columns, rows }, 300),
    level: options.level ?? 2,
  });
  writer.table({ columns, rows, title });
}

function amountOf(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value.replace(/[,\s₹]/g, '')) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

function drawChallanSummary(writer: Writer, challans: Record<string, unknown>[]): void {
  const pending = challans.filter((c) => clean(c.challan_status).toLowerCase() === 'pending');
  const sum = (list: Record<string, unknown>[]) =>
    list.reduce((total, c) => total + (amountOf(c.amount) ?? 0), 0);
  writer.tiles([
    { label: 'Challans', value: thousands(challans.length) },
    { label: 'Pending', value: thousands(pending.length), tone: pending.length ? 'warn' : 'default' },
    {
      label: 'Pending amount',
      value: rupees(sum(pending)),
      tone: pending.length ? 'warn' : 'default',
    },
    { label: 'Total amount', value: rupees(sum(challans)) },
  ]);
}

export function noDataLine(type: DetailReportJob['type']): string {
  const mark = hasGlyph('regular', '⚠') ? '⚠' : '(!)';
  // The spec's line, with a plain mark when the font has no warning sign.
  return messages.details.noData(detailFacts(type).label).replace('⚠', mark);
}

export function drawDetailReport(writer: Writer, job: DetailReportJob): void {
  const type = job.type;
  const facts = detailFacts(type);
  drawCover(writer, {
    title: facts.title,
    kindLabel: facts.idLabel,
    value: job.id,
    searchedAt: job.searchedAt,
    answeredAt: job.answeredAt,
    reusedFrom: job.reusedFrom,
    generatedAt: job.generatedAt,
    account: job.account,
    lookupId: job.lookupId,
    reportId: job.reportId,
    caseReference: job.caseReference ?? null,
    legalBasis: job.legalBasis ?? null,
    sandbox: job.sandbox,
  });

  const record = isRecord(job.record) ? job.record : {};
  const layout = layoutRecord(record, type);
  const empty = facts.list ? detailListIsEmpty(type, record) : layoutSize(layout) === 0;
  if (empty) {
    writer.notice([text(noDataLine(type), { size: 10, color: COLOR.amber, weight: 'bold' })], {
      fill: COLOR.amberFill,
      bar: COLOR.amberLine,
    });
  } else {
    SUMMARIES[type]?.(writer, detailListOf(type, record));
    const columns: Column[] = [
      { header: 'Field', weight: 34 },
      { header: 'Value', weight: 66 },
    ];
    if (layout.rows.length > 0) {
      const rows: Row[] = layout.rows.map((row) => ({
        cells: [
          [text(clean(row.label, { max: 240 }), STYLE.key)],
          [text(clean(row.value), { ...STYLE.body, size: 9.2 })],
        ],
      }));
      const title = facts.recordTitle;
      writer.heading(title, {
        note: count(rows.length, 'field'),
        keep: writer.keepFor({ columns, rows }, 300),
      });
      writer.table({ columns, rows, title });
    }
    for (const table of layout.tables) drawRecordTable(writer, table);
  }
  drawAbout(writer, {
    reportId: job.reportId,
    account: job.account,
    extra: `Rows the results page hides (empty, null and 'n/a' values and the vendor's request id) are left out. Retrieved on ${readableUtc(job.answeredAt ?? job.searchedAt)}.`,
  });
}
