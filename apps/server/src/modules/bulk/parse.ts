import {
  BULK_MAX_ROWS,
  type BulkType,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  isDialedPhoneNumber,
  messages,
  normalizeUsername,
} from '@footprint/domain';
import { parse as parseCsv } from 'csv-parse/sync';
import {
  cellTooLong,
  tooManyRows,
  unreadableFile,
  workbookTooLarge,
  workbookTooManyParts,
} from '../../errors.ts';
import { readWorkbook, XlsxLimitError, type XlsxLimits } from '../../xlsx/read.ts';
import { MAX_CELL } from '../../xlsx/write.ts';

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
  /^(phone|phones|number|numbers|mobile|phone number|mobile number|email|emails|e-mail|email address|e-mail address|username|usernames|user name|user names|handle|handles)$/i;

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
 * Each type's rule and refusal, as its single lookup's: GET /api/tel, /api/email, /api/username (a
 * username trimmed, a leading '@' dropped, case kept: the domain's `normalizeUsername`).
 */
const RULES: Record<BulkType, { normalize: (value: string) => string | null; error: string }> = {
  tel: { normalize: normalizePhone, error: messages.search.invalidPhone },
  email: { normalize: normalizeEmail, error: messages.search.invalidEmail },
  username: { normalize: normalizeUsername, error: messages.search.invalidUsername },
};

/**
 * Validates every entry by the single lookups' rules and folds repeats of a query into its first
 * line. Blank entries are not rows. Nothing is stored here.
 */
export function checkList(type: BulkType, entries: ListEntry[]): CheckedList {
  const { normalize, error } = RULES[type];
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

/** The column to read, from the first row (a header naming it is skipped), else the first column. */
function pickColumn(first: string[]): { column: number; header: boolean } {
  const index = first.findIndex((cell) => HEADER.test(cell.trim()));
  return index >= 0 ? { column: index, header: true } : { column: 0, header: false };
}

/**
 * Takes a table one row at a time and keeps only the chosen column's values: the rows are refused the
 * moment the list passes the maximum (a header and a blank line or two around it are allowed), so a
 * file of a million rows is read no further than its 10,001st value.
 */
class ListOfRows {
  readonly entries: ListEntry[] = [];
  private pick: { column: number; header: boolean } | null = null;
  private rows = 0;

  add(line: number, cells: string[]) {
    if (++this.rows > BULK_MAX_ROWS + 100) throw tooManyRows();
    if (!this.pick) {
      this.pick = pickColumn(cells);
      if (this.pick.header) return;
    }
    const value = cells[this.pick.column] ?? '';
    if (value.trim() === '') return;
    this.entries.push({ line, value });
    if (this.entries.length > BULK_MAX_ROWS) throw tooManyRows();
  }
}

/** The limits of an uploaded workbook (docs/bulk.md): each is checked while the file is read. */
export const BULK_XLSX_LIMITS: XlsxLimits = {
  maxEntries: 1_000,
  maxUnpackedBytes: 32 * 1024 * 1024,
  maxCellChars: MAX_CELL,
  maxSharedStrings: 500_000,
};

/** A CSV (UTF-8, any of , ; or tab as separator) or XLSX upload: its first sheet's chosen column. */
export async function entriesOfFile(buffer: Buffer): Promise<ListEntry[]> {
  // XLSX is a zip archive: it starts with the local file header's signature.
  if (buffer.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return entriesOfXlsx(buffer);
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(buffer);
  if (text.includes('\uFFFD') || text.includes('\u0000')) throw unreadableFile();
  const list = new ListOfRows();
  let refusal: unknown = null;
  let line = 0;
  try {
    // Each record is handed on and dropped (on_record answers null), so only the chosen column is kept.
    parseCsv(text, {
      delimiter: [',', ';', '\t'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
      max_record_size: MAX_CELL,
      on_record: (record: string[]) => {
        line++;
        if (refusal) return null;
        if (record.some((cell) => cell.length > MAX_CELL)) refusal = cellTooLong(MAX_CELL);
        else
          try {
            list.add(line, record);
          } catch (error) {
            refusal = error;
          }
        return null;
      },
    });
  } catch (error) {
    if (refusal) throw refusal;
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') throw cellTooLong(MAX_CELL);
    throw unreadableFile();
  }
  if (refusal) throw refusal;
  return list.entries;
}

/** The first sheet of a workbook, read as a stream within BULK_XLSX_LIMITS. */
async function entriesOfXlsx(buffer: Buffer): Promise<ListEntry[]> {
  const list = new ListOfRows();
  try {
    await readWorkbook(buffer, BULK_XLSX_LIMITS, (_sheet, index) =>
      index === 0 ? (row) => list.add(row.line, row.cells) : null,
    );
  } catch (error) {
    if (!(error instanceof XlsxLimitError)) throw error;
    if (error.reason === 'entries') throw workbookTooManyParts(BULK_XLSX_LIMITS.maxEntries);
    if (error.reason === 'unpacked') throw workbookTooLarge(BULK_XLSX_LIMITS.maxUnpackedBytes / 1024 / 1024);
    if (error.reason === 'cell') throw cellTooLong(BULK_XLSX_LIMITS.maxCellChars);
    throw unreadableFile();
  }
  return list.entries;
}
