/**
 * Streaming readers for leak files. Both formats are read as physical lines from the byte stream with
 * a cap on line length, so memory stays constant whatever the file (a 10 GB file with no newline, or
 * a stray quote that never closes, costs at most one capped line / one capped record).
 *
 * CSV is parsed here rather than with csv-parse: csv-parse's `skip_records_with_error` with
 * `max_record_size` silently stops the whole parse after the first over-long record (and without the
 * cap, one unclosed quote buffers the rest of the file into a single field). Dumps are dirty, so a bad
 * record must cost one reject, not the rest of the file: a quoted field may span lines, but at most
 * MAX_RECORD_LINES lines / MAX_RECORD_CHARS characters; past that (or when a multi-line record comes out
 * with the wrong column count) its first line is rejected and parsing resumes on the next line.
 */

import { StringDecoder } from 'node:string_decoder';
import { isRecord } from '@footprint/domain';

export const MAX_LINE_CHARS = 1 << 20;
const MAX_RECORD_LINES = 100;
const MAX_RECORD_CHARS = 1 << 20;
const MAX_JSON_DEPTH = 4;
/** A reject's `raw` is cut to this many characters. */
export const MAX_RAW_CHARS = 2_000;

export interface SourceLine {
  /** 1-based physical line number. */
  line: number;
  text: string;
  /** The line was longer than MAX_LINE_CHARS: `text` is only its beginning. */
  tooLong?: boolean;
}

export interface LineChunk {
  lines: SourceLine[];
  /** Bytes of the file consumed so far. */
  bytesRead: number;
}

/** Physical lines ('\n' or '\r\n'), one array per chunk read, BOM removed. */
export async function* readLines(
  input: AsyncIterable<Buffer | string>,
  maxLineChars = MAX_LINE_CHARS,
): AsyncGenerator<LineChunk> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let overflowPrefix: string | null = null;
  let lineNo = 0;
  let bytesRead = 0;
  let first = true;

  const finish = (text: string): SourceLine => {
    lineNo++;
    let value = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (first) {
      first = false;
      if (value.charCodeAt(0) === 0xfeff) value = value.slice(1);
    }
    return value.length > maxLineChars
      ? { line: lineNo, text: value.slice(0, Math.min(maxLineChars, MAX_RAW_CHARS)), tooLong: true }
      : { line: lineNo, text: value };
  };

  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    bytesRead += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    const lines: SourceLine[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      if (overflowPrefix !== null) {
        lineNo++;
        first = false;
        lines.push({ line: lineNo, text: overflowPrefix, tooLong: true });
        overflowPrefix = null;
      } else {
        lines.push(finish(carry + text.slice(start, nl)));
        carry = '';
      }
      start = nl + 1;
    }
    if (overflowPrefix === null) {
      carry += text.slice(start);
      if (carry.length > maxLineChars) {
        overflowPrefix = carry.slice(0, Math.min(maxLineChars, MAX_RAW_CHARS));
        carry = '';
      }
    }
    yield { lines, bytesRead };
  }
  const tail = carry + decoder.end();
  const lines: SourceLine[] = [];
  if (overflowPrefix !== null) lines.push({ line: lineNo + 1, text: overflowPrefix, tooLong: true });
  else if (tail.length > 0) lines.push(finish(tail));
  if (lines.length > 0) yield { lines, bytesRead };
}

// ---------------------------------------------------------------- parsed rows

/** One data row of a file: named columns and their values, or why it could not be read. */
export interface ParsedRow {
  line: number;
  columns: readonly string[];
  values: readonly (string | undefined)[];
  /** The row as read, for the rejects file (may still hold secret values: redact before writing). */
  raw: string;
  error?: string;
}

export interface RowChunk {
  rows: ParsedRow[];
  bytesRead: number;
}

// ---------------------------------------------------------------- CSV

interface SplitResult {
  fields: string[];
  /** The text ended inside a quoted field. */
  open: boolean;
}

/** RFC 4180 with relaxed quotes: a quote inside an unquoted field, or after a closing quote, is text. */
export function splitCsv(text: string, delimiter: string): SplitResult {
  if (!text.includes('"')) return { fields: text.split(delimiter), open: false };
  const fields: string[] = [];
  const n = text.length;
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) return { fields, open: true };
        value += text.slice(i, q);
        if (text[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      const d = text.indexOf(delimiter, i);
      if (d === -1) {
        fields.push(value + text.slice(i));
        return { fields, open: false };
      }
      fields.push(value + text.slice(i, d));
      i = d + delimiter.length;
    } else {
      const d = text.indexOf(delimiter, i);
      if (d === -1) {
        fields.push(text.slice(i));
        return { fields, open: false };
      }
      fields.push(text.slice(i, d));
      i = d + delimiter.length;
    }
    if (i >= n) {
      fields.push('');
      return { fields, open: false };
    }
  }
}

const csvQuote = (value: string, delimiter: string) =>
  value.includes('"') || value.includes(delimiter) || value.includes('\n') || value.includes('\r')
    ? `"${value.replaceAll('"', '""')}"`
    : value;

export const joinCsv = (fields: readonly string[], delimiter: string) =>
  fields.map((field) => csvQuote(field, delimiter)).join(delimiter);

/** Header cells → unique, non-empty column names (NUL characters removed). */
export function headerColumns(cells: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((cell, index) => {
    const base = cell.replaceAll('\u0000', '').trim() || `column_${index + 1}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}_${count}`;
  });
}

/**
 * CSV rows from physical lines. The first non-blank record is the header; `onHeader` may throw to stop
 * (a mapping that names a column the file does not have).
 */
export async function* csvRows(
  chunks: AsyncIterable<LineChunk>,
  options: { delimiter?: string; onHeader?: (columns: string[]) => void } = {},
): AsyncGenerator<RowChunk> {
  const delimiter = options.delimiter ?? ',';
  let columns: string[] | null = null;
  let pending: SourceLine[] = [];

  const emit = (rows: ParsedRow[], first: SourceLine, raw: string, fields: string[]) => {
    if (columns === null) {
      columns = headerColumns(fields);
      options.onHeader?.(columns);
      return;
    }
    let values = fields;
    if (fields.length > columns.length && fields.slice(columns.length).every((f) => f.trim() === '')) {
      values = fields.slice(0, columns.length); // a trailing delimiter
    }
    rows.push(
      values.length === columns.length
        ? { line: first.line, columns, values, raw }
        : {
            line: first.line,
            columns,
            values,
            raw,
            error: `wrong column count (expected ${columns.length}, got ${values.length})`,
          },
    );
  };

  const rejectFirst = (rows: ParsedRow[], reason: string) => {
    const head = pending[0] as SourceLine;
    rows.push({ line: head.line, columns: columns ?? [], values: [], raw: head.text, error: reason });
    const rest = pending.slice(1);
    pending = [];
    for (const line of rest) feed(rows, line, false);
  };

  const feed = (rows: ParsedRow[], line: SourceLine, atEnd: boolean): void => {
    if (line.tooLong) {
      if (pending.length > 0) rejectFirst(rows, 'unterminated quoted field');
      rows.push({
        line: line.line,
        columns: columns ?? [],
        values: [],
        raw: line.text,
        error: 'line too long',
      });
      return;
    }
    if (pending.length === 0 && line.text.trim() === '') return;
    pending.push(line);
    const text = pending.length === 1 ? line.text : pending.map((l) => l.text).join('\n');
    const { fields, open } = splitCsv(text, delimiter);
    if (open) {
      if (atEnd || pending.length >= MAX_RECORD_LINES || text.length > MAX_RECORD_CHARS) {
        rejectFirst(rows, 'unterminated quoted field');
      }
      return;
    }
    if (pending.length > 1 && columns !== null && fields.length !== columns.length) {
      // A stray quote glued lines together: blame the first line and read the rest again.
      rejectFirst(rows, 'unterminated quoted field');
      return;
    }
    const first = pending[0] as SourceLine;
    pending = [];
    emit(rows, first, text, fields);
  };

  let bytesRead = 0;
  for await (const chunk of chunks) {
    bytesRead = chunk.bytesRead;
    const rows: ParsedRow[] = [];
    for (const line of chunk.lines) feed(rows, line, false);
    if (rows.length > 0) yield { rows, bytesRead };
  }
  const rows: ParsedRow[] = [];
  while (pending.length > 0) rejectFirst(rows, 'unterminated quoted field');
  if (rows.length > 0) yield { rows, bytesRead };
}

// ---------------------------------------------------------------- JSONL

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * JSON.parse turns '\ud800' into a lone surrogate, which PostgreSQL's jsonb refuses (and would fail a
 * whole batch): replaced with U+FFFD. Keys also lose NUL characters, which no PostgreSQL text can hold.
 */
const wellFormed = (text: string) =>
  /[\uD800-\uDFFF]/.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text;
const cleanKey = (key: string) => wellFormed(key.includes('\u0000') ? key.replaceAll('\u0000', '') : key);

/**
 * Flattens a JSON object into dotted key paths. A top-level `other` object is unwrapped (its keys
 * are the record's other fields); arrays of scalars are joined with ', ', arrays of objects are
 * flattened with their index ('accounts.0.email') so that secret keys inside them are still seen.
 */
export function flattenJson(
  object: Record<string, unknown>,
  columns: string[],
  values: string[],
): string | null {
  const walk = (node: Record<string, unknown> | unknown[], prefix: string, depth: number): string | null => {
    if (depth > MAX_JSON_DEPTH) return 'nested too deeply';
    const entries: [string, unknown][] = Array.isArray(node)
      ? node.map((value, index) => [String(index), value])
      : Object.entries(node);
    for (const [key, value] of entries) {
      if (value === null || value === undefined) continue;
      const name = cleanKey(key);
      const path =
        prefix === '' && name === 'other' && isRecord(value)
          ? ''
          : prefix === ''
            ? name
            : `${prefix}.${name}`;
      if (typeof value === 'string') {
        columns.push(path);
        values.push(wellFormed(value));
      } else if (typeof value === 'number' || typeof value === 'boolean') {
        columns.push(path);
        values.push(String(value));
      } else if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
        columns.push(path);
        values.push(
          wellFormed(
            value
              .filter((v) => v !== null)
              .map(String)
              .join(', '),
          ),
        );
      } else if (typeof value === 'object') {
        const error = walk(value as Record<string, unknown> | unknown[], path, depth + 1);
        if (error) return error;
      }
    }
    return null;
  };
  return walk(object, '', 1);
}

/** One JSON Lines line as a row; null for a blank line. */
export function jsonlRow({ line, text, tooLong }: SourceLine): ParsedRow | null {
  if (tooLong) return { line, columns: [], values: [], raw: text, error: 'line too long' };
  if (text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { line, columns: [], values: [], raw: text, error: 'invalid JSON' };
  }
  if (!isRecord(parsed)) return { line, columns: [], values: [], raw: text, error: 'not a JSON object' };
  const columns: string[] = [];
  const values: string[] = [];
  const error = flattenJson(parsed, columns, values);
  return error ? { line, columns, values, raw: text, error } : { line, columns, values, raw: text };
}

/** JSON Lines rows: one object a line; blank lines are skipped. */
export async function* jsonlRows(chunks: AsyncIterable<LineChunk>): AsyncGenerator<RowChunk> {
  for await (const chunk of chunks) {
    const rows: ParsedRow[] = [];
    for (const line of chunk.lines) {
      const row = jsonlRow(line);
      if (row !== null) rows.push(row);
    }
    if (rows.length > 0) yield { rows, bytesRead: chunk.bytesRead };
  }
}
