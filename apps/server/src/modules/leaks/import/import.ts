/**
 * Streams a CSV or JSONL leak file into leak_records. See ./README.md for the format rules, the
 * crash/resume behaviour and measured rates.
 */

import { once } from 'node:events';
import { createReadStream, type WriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { pipeline } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import type pg from 'pg';
import type { DatabaseHandle } from '../../../db/client.ts';
import {
  type BulkLoad,
  fileFingerprint,
  mayBulkLoad,
  sourceIsEmpty,
  startBulkLoad,
  unfinishedBulkLoad,
} from './bulk.ts';
import { createParsePool, type ParsePool } from './parse-pool.ts';
import type { LeakFileFormat, ParseResult, ParseTask } from './parse-task.ts';
import { csvRows, type ParsedRow, readLines, type SourceLine } from './readers.ts';
import { type LeakColumnMapping, LeakRecordBuilder } from './record.ts';
import {
  type LeakSourceInput,
  refreshLeakSourceCounts,
  upsertLeakSourceRow,
  validateLeakSource,
} from './sources.ts';
import { createLeakWriter, dedicatedConnection, type LeakWriter } from './writer.ts';

export type { LeakFileFormat } from './parse-task.ts';

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
  /** Stops after the batches in flight; the stats say `aborted`. */
  signal?: AbortSignal | undefined;
  /**
   * PostgreSQL: load a NEW source into a segment of its own, indexed after the load (./bulk.ts).
   * 'auto' (default): when the source has no records yet and the file is at least 16 MiB; 'on': for
   * any new source (an error if it has records); 'off': never. An unfinished bulk load of the source
   * is always resumed.
   */
  bulk?: 'auto' | 'on' | 'off' | undefined;
  /** PostgreSQL: URL of a role owning leak_records, for the bulk path's DDL (default: `url`). */
  bulkUrl?: string | undefined;
  /**
   * Worker threads parsing; 0 parses on this thread. Default from 4 MiB up: one per core into PostgreSQL,
   * cores − 1 into PGlite (1 to 4); below, 0.
   */
  threads?: number | undefined;
  /** PostgreSQL: connections writing batches at once; default: the number of cores, 2 to 4. */
  writers?: number | undefined;
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
  /** Time spent in the database writes (COPY + INSERT), summed over the writers, finish included. */
  writeSeconds: number;
  /** Bulk path: the finish (deduplication, index builds, ANALYZE, attach). */
  finishSeconds: number;
  bytesRead: number;
  totalBytes: number;
  aborted: boolean;
  /** Loaded through the bulk path (a new segment). */
  bulk: boolean;
  /** The leak_records segment holding the source's records (0: the shared table). */
  segment: number;
}

export type ImportProgress = Omit<ImportStats, 'sourceId'>;

export class LeakImportError extends Error {}

const DEFAULT_BATCH = 5_000;
const PROGRESS_INTERVAL_MS = 200;
/** From this file size, a new source is bulk-loaded ('auto'). */
export const BULK_MIN_BYTES = 16 << 20;
/** From this file size, parsing moves to worker threads (default `threads`). */
const THREADS_MIN_BYTES = 4 << 20;

export function leakFileFormat(file: string): LeakFileFormat {
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv') || name.endsWith('.tsv')) return 'csv';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson') || name.endsWith('.json')) return 'jsonl';
  throw new LeakImportError(`Cannot tell the format of '${file}' from its extension: give csv or jsonl.`);
}

async function writeChunk(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

// ---------------------------------------------------------------- import

/**
 * Parse threads by default: one per core into PostgreSQL, whose COPY runs in its own processes (on 2
 * cores, 2 threads loaded 748,009 rows in 11.9 s against 14.1 s with 1: the parse is the slowest
 * stage); one fewer into PGlite, which writes on this thread.
 */
export const defaultParseThreads = (totalBytes: number, postgres: boolean, cores = availableParallelism()) =>
  totalBytes >= THREADS_MIN_BYTES ? Math.max(1, Math.min(4, cores - (postgres ? 0 : 1))) : 0;

type ImportSettings = Awaited<ReturnType<typeof importSettings>>;

/** What an import is run with: the file's format and size, and how many threads and writers. */
async function importSettings(options: ImportLeakFileOptions) {
  validateLeakSource(options.source);
  const totalBytes = (await stat(options.file)).size;
  const postgres = options.handle.kind === 'postgres';
  const bulkMode = options.bulk ?? 'auto';
  if (bulkMode === 'on' && !postgres) throw new LeakImportError('A bulk load needs PostgreSQL (not PGlite).');
  return {
    sourceName: options.source.name.trim(),
    format: options.format ?? leakFileFormat(options.file),
    delimiter: options.delimiter ?? (/\.tsv(\.gz)?$/i.test(options.file) ? '\t' : ','),
    batchSize: Math.max(1, Math.min(options.batchSize ?? DEFAULT_BATCH, 50_000)),
    totalBytes,
    postgres,
    bulkMode,
    writerCount: postgres
      ? Math.max(1, Math.min(options.writers ?? Math.max(2, Math.min(4, availableParallelism())), 8))
      : 1,
    threads: Math.max(0, Math.min(options.threads ?? defaultParseThreads(totalBytes, postgres), 16)),
  };
}

const newStats = (sourceName: string, totalBytes: number): ImportStats => ({
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
  finishSeconds: 0,
  bytesRead: 0,
  totalBytes,
  aborted: false,
  bulk: false,
  segment: 0,
});

/** What preparing a source opened: the control connection and, for a bulk load, the load. */
interface Held {
  control: { client: pg.Client | pg.PoolClient; release: () => Promise<void> } | null;
  bulk: BulkLoad | null;
}

/**
 * The source's row, and how it is written: through the regular writers, or as a bulk load into a
 * segment of its own (a new source on PostgreSQL, or an unfinished bulk load resumed), under an
 * advisory lock so that one import of a bulk-loaded source runs at a time.
 */
async function prepareSource(
  options: ImportLeakFileOptions,
  settings: ImportSettings,
  stats: ImportStats,
  held: Held,
): Promise<void> {
  const source = await upsertLeakSourceRow(options.handle.db, options.source);
  stats.sourceId = source.id;
  stats.segment = source.segment;
  if (!settings.postgres || (settings.bulkMode === 'off' && source.segment !== 0)) return;
  const url = options.bulkUrl ?? options.url;
  held.control = await dedicatedConnection(options.handle, url, (c) =>
    c.query('SELECT pg_advisory_unlock_all()'),
  );
  const { client } = held.control;
  const unfinished = await unfinishedBulkLoad(client, source.id);
  if (settings.bulkMode === 'on' && unfinished === null && source.segment !== 0) {
    throw new LeakImportError(
      `'${settings.sourceName}' has records already: a bulk load is for a new source.`,
    );
  }
  const wanted =
    unfinished !== null ||
    ((settings.bulkMode === 'on' ||
      (settings.bulkMode === 'auto' && settings.totalBytes >= BULK_MIN_BYTES)) &&
      source.segment === 0);
  if (!wanted) return;
  // One import of a bulk-loaded source at a time: the lock lives as long as this connection.
  const { rows } = await client.query<{ locked: boolean }>(
    `SELECT pg_try_advisory_lock(hashtextextended('leak_bulk_load:' || $1, 0)) AS locked`,
    [source.id],
  );
  if (!rows[0]?.locked) {
    throw new LeakImportError(
      `Another import of '${settings.sourceName}' is running; try again when it ends.`,
    );
  }
  const fresh = unfinished !== null || (await sourceIsEmpty(client, source.id, source.segment));
  const allowed = await mayBulkLoad(client);
  if (unfinished && !allowed) {
    throw new LeakImportError(
      `'${settings.sourceName}' has an unfinished bulk load, and this database role may not finish it ` +
        '(it must own leak_records: run the import with MIGRATION_DATABASE_URL set).',
    );
  }
  if (settings.bulkMode === 'on' && !fresh) {
    throw new LeakImportError(
      `'${settings.sourceName}' has records already: a bulk load is for a new source.`,
    );
  }
  if (settings.bulkMode === 'on' && !allowed) {
    throw new LeakImportError('This database role may not bulk-load (it must own leak_records).');
  }
  if (!fresh || !allowed) return;
  held.bulk = await startBulkLoad(
    {
      handle: options.handle,
      url,
      sourceId: source.id,
      fingerprint: await fileFingerprint(options.file),
      writers: settings.writerCount,
    },
    client,
  );
  stats.bulk = true;
  stats.segment = held.bulk.segment;
}

/**
 * Reads the file into tasks of `batchSize` rows (CSV records, or lines), handing each to `submit` in
 * file order, until the file ends or the import is stopped.
 */
async function readInBatches(
  input: AsyncIterable<Buffer>,
  bytesRead: () => number,
  settings: ImportSettings,
  onHeader: (columns: string[]) => void,
  stats: ImportStats,
  stopping: () => boolean,
  submit: (task: { rows: ParsedRow[] } | { lines: SourceLine[] }) => Promise<void>,
): Promise<void> {
  const { format, delimiter, batchSize } = settings;
  if (format === 'csv') {
    let rows: ParsedRow[] = [];
    for await (const chunk of csvRows(readLines(input), { delimiter, onHeader })) {
      for (const row of chunk.rows) rows.push(row);
      stats.bytesRead = bytesRead();
      while (rows.length >= batchSize && !stopping()) {
        await submit({ rows: rows.slice(0, batchSize) });
        rows = rows.slice(batchSize);
      }
      // Let the database's answers in between chunks, so that writing overlaps reading.
      await yieldToLoop();
      if (stopping()) break;
    }
    if (rows.length > 0 && !stopping()) await submit({ rows });
  } else {
    let lines: SourceLine[] = [];
    for await (const chunk of readLines(input)) {
      for (const line of chunk.lines) lines.push(line);
      stats.bytesRead = bytesRead();
      while (lines.length >= batchSize && !stopping()) {
        await submit({ lines: lines.slice(0, batchSize) });
        lines = lines.slice(batchSize);
      }
      await yieldToLoop();
      if (stopping()) break;
    }
    if (lines.length > 0 && !stopping()) await submit({ lines });
  }
}

/** The header's check: its secret columns noted as dropped, and every mapped column present. */
const headerCheck =
  (builder: LeakRecordBuilder, mapping: LeakColumnMapping | undefined) =>
  (columns: string[]): void => {
    for (const column of columns) if (builder.target(column) === 'secret') builder.noteDroppedSecret(column);
    const known = new Set(columns.map((c) => c.toLowerCase()));
    const missing = Object.keys(mapping ?? {}).filter((c) => !known.has(c.toLowerCase()));
    if (missing.length > 0) {
      throw new LeakImportError(
        `The mapping names ${missing.map((c) => `'${c}'`).join(', ')}, which the file does not have. ` +
          `Its columns: ${columns.join(', ')}.`,
      );
    }
  };

/** A bulk load's end: its indexes built and its duplicates removed, counted in the stats. */
async function finishBulkLoad(bulk: BulkLoad, stats: ImportStats): Promise<void> {
  const t0 = performance.now();
  const removed = await bulk.finish();
  stats.finishSeconds = (performance.now() - t0) / 1000;
  stats.writeSeconds += stats.finishSeconds;
  stats.inserted -= removed;
  stats.duplicates += removed;
}

/** The stats as they stand, and the progress callback (at most every PROGRESS_INTERVAL_MS unless forced). */
function progressOf(
  options: ImportLeakFileOptions,
  stats: ImportStats,
  builder: LeakRecordBuilder,
  started: number,
) {
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
  return { snapshot, report };
}

/**
 * Imports one file, as a pipeline: this thread reads lines (and splits CSV records) into tasks of
 * `batchSize` rows; worker threads parse and build them (./parse-task.ts); their batches, taken in file
 * order, go to `writers` connections at once, each batch in its own transaction. Memory stays flat:
 * only a few tasks and batches are in flight. A crash leaves every committed batch in place; running the
 * same import again skips those rows (as duplicates, or by the bulk load's checkpoint) and carries on.
 * record_count is refreshed at the end of every run.
 */
export async function importLeakFile(options: ImportLeakFileOptions): Promise<ImportStats> {
  const started = performance.now();
  const settings = await importSettings(options);
  const { sourceName, format, delimiter, totalBytes, writerCount, threads } = settings;
  const builder = new LeakRecordBuilder(sourceName, options.mapping);
  const stats = newStats(sourceName, totalBytes);
  const { snapshot, report } = progressOf(options, stats, builder, started);

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

  // ------------------------------------------------ the source, and how it is written
  const regular: (LeakWriter | Promise<LeakWriter> | undefined)[] = [];
  // Filled in as the source is prepared, so that `finally` releases what was opened even after a refusal.
  const held: Held = { control: null, bulk: null };
  let prepared: Promise<void> | null = null;
  const prepare = () => {
    prepared ??= prepareSource(options, settings, stats, held);
    return prepared;
  };

  // ------------------------------------------------ writing: `writerCount` batches at once
  const free = Array.from({ length: writerCount }, (_, slot) => writerCount - 1 - slot);
  const waiting: (() => void)[] = [];
  const writing = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  const writerAt = async (slot: number): Promise<LeakWriter> => {
    regular[slot] ??= createLeakWriter(options.handle, { url: options.url });
    const writer = await regular[slot];
    regular[slot] = writer;
    return writer as LeakWriter;
  };
  const write = async (batch: ParseResult) => {
    while (free.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    if (failure) throw failure.error;
    const slot = free.pop() as number;
    const job = (async () => {
      const t0 = performance.now();
      try {
        const b = held.bulk;
        const inserted = b
          ? await b.write(slot, batch.copy, batch.accepted, batch.firstLine, batch.lastLine)
          : await (await writerAt(slot)).writeText(stats.sourceId, batch.copy, stats.segment);
        stats.writeSeconds += (performance.now() - t0) / 1000;
        stats.inserted += inserted;
        stats.duplicates += batch.accepted - inserted;
        report(true);
      } catch (error) {
        failure ??= { error };
      } finally {
        free.push(slot);
        waiting.shift()?.();
      }
    })();
    writing.add(job);
    void job.then(() => writing.delete(job));
  };

  // ------------------------------------------------ parsing: tasks in file order
  const pool: ParsePool = await createParsePool(threads);
  const depth = Math.max(2, threads * 2 + writerCount);
  const parsing: Promise<ParseResult>[] = [];
  const take = async () => {
    const batch = await (parsing.shift() as Promise<ParseResult>);
    if (failure) throw failure.error;
    stats.rowsRead += batch.rows;
    stats.rejected += batch.rejected;
    stats.duplicates += batch.skipped;
    for (const column of batch.dropped) builder.noteDroppedSecret(column);
    if (rejects && batch.rejects) {
      if (rejectsError) throw (rejectsError as { error: unknown }).error;
      await writeChunk(rejects, batch.rejects);
    }
    if (batch.accepted > 0) await write(batch);
    report();
  };
  const stopping = () => {
    if (options.signal?.aborted) stats.aborted = true;
    return stats.aborted;
  };
  const submit = async (
    task: Omit<ParseTask, 'format' | 'sourceName' | 'mapping' | 'delimiter' | 'wantRejects'>,
  ) => {
    await prepare();
    const b = held.bulk;
    const running = pool.run({
      ...task,
      format,
      sourceName,
      mapping: options.mapping,
      delimiter,
      wantRejects: rejects !== null,
      skip: b && b.committed.length > 0 ? b.committed : undefined,
    });
    running.catch(() => {}); // awaited in order by take(); no unhandled rejection meanwhile
    parsing.push(running);
    while (parsing.length >= depth) await take();
  };

  const onHeader = headerCheck(builder, options.mapping);

  try {
    await readInBatches(input, () => fileStream.bytesRead, settings, onHeader, stats, stopping, submit);
    // Stopped: what was parsed but not handed to a writer is dropped (a re-run reads it again).
    while (parsing.length > 0 && !stopping()) await take();
    await Promise.all(writing);
    if (failure) throw (failure as { error: unknown }).error;
    stats.bytesRead = fileStream.bytesRead;
    await prepare();
    if (held.bulk && !stats.aborted) await finishBulkLoad(held.bulk, stats);
    await refreshLeakSourceCounts(options.handle.db, [stats.sourceId]);
  } finally {
    parsing.splice(0);
    await Promise.all(writing);
    fileStream.destroy();
    await pool.close();
    const b = held.bulk;
    await b?.close();
    await Promise.all(regular.map(async (w) => (await w)?.close()).map((p) => p.catch(() => {})));
    await held.control?.release();
    if (rejects && !rejects.destroyed) {
      rejects.end();
      await once(rejects, 'close').catch(() => {});
    }
  }
  const result = snapshot();
  report(true);
  return result;
}
