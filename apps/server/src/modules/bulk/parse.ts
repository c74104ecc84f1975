import {
  BULK_MAX_ROWS,
  type BulkType,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  isDialedPhoneNumber,
  messages,
} from '@footprint/domain';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { tooManyRows, unreadableFile } from '../../errors.ts';

/** One value of the list as it came, with its line (from 1, as a spreadsheet counts). */
export interface ListEntry {
  line: number;
  value: string;
}

export interface ValidRow {
  line: number;
  input: string;
  query: string;
}

export interface CheckedList {
  total: number;
  valid: ValidRow[];
  duplicates: number;
  invalid: Array<{ line: number; value: string; error: string }>;
}

/** The largest upload taken (10,000 rows of long e-mail addresses fit well within it). */
export const BULK_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** A header cell that names the column to read; without one, the first column is read. */
const HEADER =
  /^(phone|phones|number|numbers|mobile|phone number|mobile number|email|emails|e-mail|email address|e-mail address)$/i;

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is what this is for.
const CONTROL = /[\u0000-\u001F\u007F]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is what this is for.
const HAS_CONTROL = /[\u0000-\u001F\u007F]/;
/** What a refused value shows back: control characters made visible, and no longer than a screen line. */
const shown = (value: string) => {
  const visible = value.replace(CONTROL, '\uFFFD');
  return visible.length > 120 ? `${visible.slice(0, 119)}…` : visible;
};

/**
 * A value as GET /api/tel takes it: '+', spaces and dashes dropped, a bare 10-digit number given
 * India's dial code (91), then one of the picker's dial codes followed by exactly 10 digits.
 */
export function normalizePhone(value: string): string | null {
  const digits = value.trim().replace(/[+\s-]/g, '');
  const dialed = /^\d{10}$/.test(digits) ? `91${digits}` : digits;
  return isDialedPhoneNumber(dialed) ? dialed : null;
}

/** A value as GET /api/email takes it: trimmed, at most 100 characters, the product's pattern, lower-cased. */
export function normalizeEmail(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.length > EMAIL_MAX_LENGTH || HAS_CONTROL.test(trimmed)) return null;
  return EMAIL_PATTERN.test(trimmed) ? trimmed.toLowerCase() : null;
}

/**
 * Validates every entry by the single lookups' rules and folds repeats of a query into its first
 * line. Blank entries are not rows. Nothing is stored here.
 */
export function checkList(type: BulkType, entries: ListEntry[]): CheckedList {
  const normalize = type === 'tel' ? normalizePhone : normalizeEmail;
  const error = type === 'tel' ? messages.search.invalidPhone : messages.search.invalidEmail;
  const seen = new Set<string>();
  const valid: ValidRow[] = [];
  const invalid: CheckedList['invalid'] = [];
  let duplicates = 0;
  let total = 0;
  for (const { line, value } of entries) {
    if (value.trim() === '') continue;
    total++;
    const query = normalize(value);
    if (query === null) invalid.push({ line, value: shown(value), error });
    else if (seen.has(query)) duplicates++;
    else {
      seen.add(query);
      valid.push({ line, input: value.trim().slice(0, 200), query });
    }
  }
  return { total, valid, duplicates, invalid };
}

/** The JSON body's values, numbered from line 1. */
export const entriesOfValues = (values: string[]): ListEntry[] =>
  values.map((value, index) => ({ line: index + 1, value }));

/** A cell of a spreadsheet as text: numbers as digits, links and rich text by their text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  }
  return '';
}

/** The column to read, from the first row (a header naming it is skipped), else the first column. */
function pickColumn(first: string[] | undefined): { column: number; header: boolean } {
  const index = first?.findIndex((cell) => HEADER.test(cell.trim())) ?? -1;
  return index >= 0 ? { column: index, header: true } : { column: 0, header: false };
}

/** The rows of a table (one array of cells per line) as list entries; more than the maximum is refused. */
function entriesOfTable(rows: Array<{ line: number; cells: string[] }>): ListEntry[] {
  const { column, header } = pickColumn(rows[0]?.cells);
  const body = header ? rows.slice(1) : rows;
  const entries = body
    .map(({ line, cells }) => ({ line, value: cells[column] ?? '' }))
    .filter((entry) => entry.value.trim() !== '');
  if (entries.length > BULK_MAX_ROWS) throw tooManyRows();
  return entries;
}

/** A CSV (UTF-8, any of , ; or tab as separator) or XLSX upload: its first sheet's chosen column. */
export async function entriesOfFile(buffer: Buffer): Promise<ListEntry[]> {
  // XLSX is a zip archive: it starts with the local file header's signature.
  if (buffer.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return entriesOfXlsx(buffer);
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(buffer);
  if (text.includes('\uFFFD') || text.includes('\u0000')) throw unreadableFile();
  let records: string[][];
  try {
    records = parseCsv(text, {
      delimiter: [',', ';', '\t'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
    }) as string[][];
  } catch {
    throw unreadableFile();
  }
  // A header and a blank line or two around the maximum are allowed; anything far past it is refused
  // before the rows are even looked at.
  if (records.length > BULK_MAX_ROWS + 100) throw tooManyRows();
  return entriesOfTable(records.map((cells, index) => ({ line: index + 1, cells })));
}

async function entriesOfXlsx(buffer: Buffer): Promise<ListEntry[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw unreadableFile();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw unreadableFile();
  if (sheet.actualRowCount > BULK_MAX_ROWS + 100) throw tooManyRows();
  const rows: Array<{ line: number; cells: string[] }> = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell.value);
    });
    rows.push({ line, cells: Array.from(cells, (cell) => cell ?? '') });
  });
  return entriesOfTable(rows);
}
