/**
 * The CPU-heavy part of an import, as one self-contained task a worker thread can run: JSON parsing
 * (JSONL), building each record (secrets dropped, mapping, normalization, sha256 record_hash), the
 * rejects' redacted lines and the batch's COPY text. The main thread only reads lines (and splits
 * CSV, whose quoted fields may span lines) and writes; see ./import.ts and ./parse-worker.ts.
 */

import { CopyBytes } from './copy-text.ts';
import { joinCsv, jsonlRow, MAX_RAW_CHARS, type ParsedRow, type SourceLine, splitCsv } from './readers.ts';
import { isRejected, type LeakColumnMapping, LeakRecordBuilder } from './record.ts';
import { isSecretColumn } from './secrets.ts';

export type LeakFileFormat = 'csv' | 'jsonl';

export interface ParseTask {
  format: LeakFileFormat;
  sourceName: string;
  mapping: LeakColumnMapping | undefined;
  delimiter: string;
  /** JSONL: the physical lines to parse. */
  lines?: SourceLine[] | undefined;
  /** CSV: rows already split by the main thread. */
  rows?: ParsedRow[] | undefined;
  /**
   * JSONL made in memory (the sandbox loader): the lines joined by '\n' (none may hold one) with their
   * line numbers, one each. Two values to hand to a thread instead of an object a line: a string and a
   * typed array cross as one copied block each.
   */
  block?: { text: string; lines: Uint32Array } | undefined;
  /** Write rejects' JSONL lines into the result. */
  wantRejects: boolean;
  /**
   * Line ranges [first, last] (inclusive) whose rows are already in the database (the checkpoint of an
   * interrupted bulk load): their accepted rows are counted as `skipped`, not written again.
   */
  skip?: readonly (readonly [number, number])[] | undefined;
}

export interface ParseResult {
  /** Rows read (rejects included, blank lines not). */
  rows: number;
  /** Accepted rows in `copy`. */
  accepted: number;
  /** Accepted rows left out because the checkpoint says they are in already. */
  skipped: number;
  rejected: number;
  /**
   * COPY text (writer.ts COLUMNS order) of the accepted rows, UTF-8 encoded here: on a worker thread the
   * encoding runs beside the others', and the bytes cross to the writer as one copied block.
   */
  copy: Uint8Array;
  /** JSONL lines {line, reason, raw} of the rejects (when asked for). */
  rejects: string;
  /** Secret columns met in this task's rows. */
  dropped: string[];
  /** Physical lines of the first and last row (0 when there was none). */
  firstLine: number;
  lastLine: number;
}

const cut = (text: string) => (text.length > MAX_RAW_CHARS ? `${text.slice(0, MAX_RAW_CHARS)}…` : text);

const JSON_PAIR = /("(?:[^"\\]|\\.)*")(\s*:\s*)("(?:[^"\\]|\\.)*"|[^,}\]\s]+)/g;

/** Best effort for text that could not be parsed: values of secret-looking keys are replaced. */
function redactJsonText(text: string): string {
  return text.replace(JSON_PAIR, (match, key: string, colon: string) => {
    let name = key.slice(1, -1);
    try {
      name = JSON.parse(key) as string;
    } catch {}
    return isSecretColumn(name) ? `${key}${colon}"[dropped]"` : match;
  });
}

/** A reject's `raw`, with the values of secret columns taken out when the row's columns are known. */
export function redactedRaw(
  row: ParsedRow,
  format: LeakFileFormat,
  builder: LeakRecordBuilder,
  delimiter: string,
): string {
  const secret = row.columns.map((column) => builder.target(column) === 'secret');
  if (format === 'csv') {
    if (!secret.includes(true)) return cut(row.raw);
    let fields: (string | undefined)[] = [...row.values];
    let tail = '';
    if (fields.length === 0) {
      // Unparsed (unterminated quote, over-long line): keep the complete fields, not the rest.
      const split = splitCsv(row.raw, delimiter);
      fields = split.fields;
      if (split.open) tail = `${fields.length > 0 ? delimiter : ''}[unparsed remainder]`;
    }
    const kept = fields.map((field, i) => (secret[i] ? '[dropped]' : (field ?? '')));
    return cut(joinCsv(kept, delimiter) + tail);
  }
  if (row.columns.length === 0) return cut(redactJsonText(row.raw));
  if (!secret.includes(true)) return cut(row.raw);
  return cut(
    JSON.stringify(
      Object.fromEntries(row.columns.flatMap((c, i) => (secret[i] ? [] : [[c, row.values[i]]]))),
    ),
  );
}

/** One builder per source and mapping for the life of the thread (it caches column targets). */
const builders = new Map<string, LeakRecordBuilder>();

function builderFor(task: ParseTask): LeakRecordBuilder {
  const key = JSON.stringify([task.sourceName, task.mapping ?? {}]);
  let builder = builders.get(key);
  if (!builder) {
    if (builders.size > 16) builders.clear();
    builder = new LeakRecordBuilder(task.sourceName, task.mapping);
    builders.set(key, builder);
  }
  return builder;
}

/**
 * Row by row: each line is parsed, built and appended to the COPY bytes before the next, so nothing of
 * a row outlives it (the batch's rows and records held to the end cost the thread half its time in
 * garbage collection).
 */
export async function runParseTask(task: ParseTask): Promise<ParseResult> {
  const builder = builderFor(task);
  const before = new Set(builder.droppedSecretColumns);
  const copy = new CopyBytes();
  const skip = task.skip ?? [];
  let rows = 0;
  let accepted = 0;
  let rejects = '';
  let rejected = 0;
  let skipped = 0;
  let firstLine = 0;
  let lastLine = 0;
  const take = (row: ParsedRow) => {
    rows++;
    if (firstLine === 0) firstLine = row.line;
    lastLine = row.line;
    let reason = row.error;
    if (reason === undefined) {
      const built = builder.build(row.columns, row.values);
      if (!isRejected(built)) {
        if (skip.length > 0 && skip.some(([first, last]) => row.line >= first && row.line <= last)) skipped++;
        else {
          copy.append(built);
          accepted++;
        }
        return;
      }
      reason = built.reject;
    }
    rejected++;
    if (task.wantRejects) {
      const raw = redactedRaw(row, task.format, builder, task.delimiter);
      rejects += `${JSON.stringify({ line: row.line, reason, raw })}\n`;
    }
  };
  if (task.format === 'jsonl') {
    for (const line of task.lines ?? []) {
      const row = jsonlRow(line);
      if (row !== null) take(row);
    }
    if (task.block) {
      const { text, lines } = task.block;
      let start = 0;
      for (const line of lines) {
        const end = text.indexOf('\n', start);
        const row = jsonlRow({ line, text: text.slice(start, end === -1 ? text.length : end) });
        if (row !== null) take(row);
        start = end + 1;
      }
    }
  } else {
    for (const row of task.rows ?? []) take(row);
  }
  return {
    rows,
    accepted,
    skipped,
    rejected,
    copy: copy.bytes(),
    rejects,
    dropped: builder.droppedSecretColumns.filter((c) => !before.has(c)),
    firstLine,
    lastLine,
  };
}
