/**
 * Streams a CSV or JSONL leak file into leak_records. See ./README.md for the format rules, the
 * crash/resume behaviour and measured rates.
 */

import { once } from 'node:events';
import { createReadStream, type WriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import type { DatabaseHandle } from '../../../db/client.ts';
import {
  csvRows,
  joinCsv,
  jsonlRows,
  MAX_RAW_CHARS,
  type ParsedRow,
  type RowChunk,
  readLines,
  splitCsv,
} from './readers.ts';
import { isRejected, type LeakColumnMapping, LeakRecordBuilder, type PreparedLeakRecord } from './record.ts';
import { isSecretColumn } from './secrets.ts';
import {
  type LeakSourceInput,
  refreshLeakSourceCounts,
  upsertLeakSource,
  validateLeakSource,
} from './sources.ts';
import { createLeakWriter, type LeakWriter } from './writer.ts';

export type LeakFileFormat = 'csv' | 'jsonl';

export interface ImportLeakFileOptions {
  handle: DatabaseHandle;
  file: string;
  /** Default from the extension: .csv/.tsv → csv, .jsonl/.ndjson/.json → jsonl (also with .gz). */
  format?: LeakFileFormat | undefined;
  source: LeakSourceInput;
  /** File column (JSONL: dotted key path) → field. Unmapped columns go to `other`, secrets are dropped. */
  mapping?: LeakColumnMapping | undefined;
  /** JSONL file of rejected rows ({line, reason, raw}); truncated at the start. */
  rejectsPath?: string | undefined;
  /** PostgreSQL: URL for a dedicated COPY connection (else one is borrowed from the handle's pool). */
  url?: string | undefined;
  /** CSV delimiter; default ',' (tab for .tsv). */
  delimiter?: string | undefined;
  /** Rows a transaction; default 5,000. */
  batchSize?: number | undefined;
  onProgress?: ((progress: ImportProgress) => void) | undefined;
  /** Stops after the batch in flight; the stats say `aborted`. */
  signal?: AbortSignal | undefined;
}

export interface ImportStats {
  sourceId: string;
  sourceName: string;
  /** Data rows read (header and blank lines not counted), rejects included. */
  rowsRead: number;
  inserted: number;
  /** Rows already present (an earlier run, or the same row twice in the file). */
  duplicates: number;
  rejected: number;
  /** Credential columns seen and never stored. */
  droppedSecretColumns: string[];
  seconds: number;
  rowsPerSecond: number;
  /** Time spent in the database writes (COPY + INSERT), for the write-path rate. */
  writeSeconds: number;
  bytesRead: number;
  totalBytes: number;
  aborted: boolean;
}

export type ImportProgress = Omit<ImportStats, 'sourceId'>;

export class LeakImportError extends Error {}

const DEFAULT_BATCH = 5_000;
const PROGRESS_INTERVAL_MS = 200;

export function leakFileFormat(file: string): LeakFileFormat {
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv') || name.endsWith('.tsv')) return 'csv';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson') || name.endsWith('.json')) return 'jsonl';
  throw new LeakImportError(`Cannot tell the format of '${file}' from its extension: give csv or jsonl.`);
}

// ---------------------------------------------------------------- rejects

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
function redactedRaw(row: ParsedRow, format: LeakFileFormat, builder: LeakRecordBuilder, delimiter: string) {
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

async function writeChunk(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

// ---------------------------------------------------------------- import

/**
 * Imports one file. Memory stays constant: the file is read in 1 MiB chunks, parsed into batches of
 * `batchSize` rows, and each batch is written in its own transaction while the next one is parsed.
 * A crash leaves every committed batch in place; running the same import again skips those rows as
 * duplicates (same record_hash) and carries on. record_count is refreshed at the end of every run.
 */
export async function importLeakFile(options: ImportLeakFileOptions): Promise<ImportStats> {
  const started = performance.now();
  validateLeakSource(options.source);
  const sourceName = options.source.name.trim();
  const format = options.format ?? leakFileFormat(options.file);
  const delimiter = options.delimiter ?? (/\.tsv(\.gz)?$/i.test(options.file) ? '\t' : ',');
  const batchSize = Math.max(1, Math.min(options.batchSize ?? DEFAULT_BATCH, 50_000));
  const totalBytes = (await stat(options.file)).size;
  const builder = new LeakRecordBuilder(sourceName, options.mapping);

  const stats: ImportStats = {
    sourceId: '',
    sourceName,
    rowsRead: 0,
    inserted: 0,
    duplicates: 0,
    rejected: 0,
    droppedSecretColumns: [],
    seconds: 0,
    rowsPerSecond: 0,
    writeSeconds: 0,
    bytesRead: 0,
    totalBytes,
    aborted: false,
  };
  const snapshot = (): ImportStats => {
    const seconds = (performance.now() - started) / 1000;
    return {
      ...stats,
      droppedSecretColumns: builder.droppedSecretColumns,
      seconds,
      rowsPerSecond: seconds > 0 ? Math.round(stats.rowsRead / seconds) : 0,
    };
  };
  let lastReport = 0;
  const report = (force = false) => {
    if (!options.onProgress) return;
    const now = performance.now();
    if (!force && now - lastReport < PROGRESS_INTERVAL_MS) return;
    lastReport = now;
    const { sourceId: _, ...progress } = snapshot();
    options.onProgress(progress);
  };

  const fileStream = createReadStream(options.file, { highWaterMark: 256 << 10 });
  const input: AsyncIterable<Buffer> = /\.gz$/i.test(options.file)
    ? pipeline(fileStream, createGunzip(), () => {})
    : fileStream;
  // Opened first so that a bad path fails before anything is imported.
  const rejects = options.rejectsPath ? (await open(options.rejectsPath, 'w')).createWriteStream() : null;
  let rejectsError: { error: unknown } | null = null;
  rejects?.on('error', (error) => {
    rejectsError = { error };
  });
  let writer: LeakWriter | null = null;

  const ready = async (): Promise<LeakWriter> => {
    if (!stats.sourceId) stats.sourceId = await upsertLeakSource(options.handle.db, options.source);
    writer ??= await createLeakWriter(options.handle, { url: options.url });
    return writer;
  };
  const flush = async (records: PreparedLeakRecord[]) => {
    const target = await ready();
    const t0 = performance.now();
    const inserted = await target.write(stats.sourceId, records);
    stats.writeSeconds += (performance.now() - t0) / 1000;
    stats.inserted += inserted;
    stats.duplicates += records.length - inserted;
    report(true);
  };
  // One batch is written while the next is parsed.
  let inFlight: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  const submit = async (records: PreparedLeakRecord[]) => {
    await inFlight;
    if (failure) throw failure.error;
    inFlight = flush(records).catch((error: unknown) => {
      failure = { error };
    });
  };

  const onHeader = (columns: string[]) => {
    for (const column of columns) if (builder.target(column) === 'secret') builder.noteDroppedSecret(column);
    const known = new Set(columns.map((c) => c.toLowerCase()));
    const missing = Object.keys(options.mapping ?? {}).filter((c) => !known.has(c.toLowerCase()));
    if (missing.length > 0) {
      throw new LeakImportError(
        `The mapping names ${missing.map((c) => `'${c}'`).join(', ')}, which the file does not have. ` +
          `Its columns: ${columns.join(', ')}.`,
      );
    }
  };
  const rows: AsyncIterable<RowChunk> =
    format === 'csv' ? csvRows(readLines(input), { delimiter, onHeader }) : jsonlRows(readLines(input));

  try {
    let batch: PreparedLeakRecord[] = [];
    const stopping = () => {
      if (options.signal?.aborted) stats.aborted = true;
      return stats.aborted;
    };
    for await (const chunk of rows) {
      let rejected = '';
      for (const row of chunk.rows) {
        if (stopping()) break;
        stats.rowsRead++;
        let reason = row.error;
        if (reason === undefined) {
          const built = builder.build(row.columns, row.values);
          if (!isRejected(built)) {
            batch.push(built);
            if (batch.length >= batchSize) {
              await submit(batch);
              batch = [];
            }
            continue;
          }
          reason = built.reject;
        }
        stats.rejected++;
        if (rejects) {
          const raw = redactedRaw(row, format, builder, delimiter);
          rejected += `${JSON.stringify({ line: row.line, reason, raw })}\n`;
        }
      }
      if (rejects && rejected) {
        if (rejectsError) throw (rejectsError as { error: unknown }).error;
        await writeChunk(rejects, rejected);
      }
      stats.bytesRead = fileStream.bytesRead;
      report();
      // Let the database's answers in between chunks, so that writing overlaps parsing.
      await yieldToLoop();
      if (stopping()) break;
    }
    if (batch.length > 0) await submit(batch);
    await inFlight;
    if (failure) throw (failure as { error: unknown }).error;
    stats.bytesRead = fileStream.bytesRead;
    await ready();
    await refreshLeakSourceCounts(options.handle.db, [stats.sourceId]);
  } finally {
    await inFlight;
    fileStream.destroy();
    await (writer as LeakWriter | null)?.close();
    if (rejects && !rejects.destroyed) {
      rejects.end();
      await once(rejects, 'close').catch(() => {});
    }
  }
  const result = snapshot();
  report(true);
  return result;
}
