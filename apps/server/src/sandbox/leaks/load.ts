import type { DatabaseHandle } from '../../db/client.ts';
import { leakRecords } from '../../db/schema.ts';
import { isRejected, LeakRecordBuilder, type PreparedLeakRecord } from '../../modules/leaks/import/record.ts';
import { refreshLeakSourceCounts, upsertLeakSourceRow } from '../../modules/leaks/import/sources.ts';
import { createLeakWriter } from '../../modules/leaks/import/writer.ts';
import { fillSandboxBulkLoads, openSandboxBulkLoads } from './bulk-load.ts';
import { generateSandboxLeaks, SANDBOX_LEAK_SOURCES } from './generator.ts';

export interface LoadSandboxLeaksOptions {
  count: number;
  seed?: string | undefined;
  /** PostgreSQL: URL for a dedicated COPY connection (else one is borrowed from the handle's pool). */
  url?: string | undefined;
  onProgress?: ((progress: { generated: number; inserted: number; count: number }) => void) | undefined;
  /**
   * PostgreSQL: 'auto' (default) loads through the importer's bulk path (./bulk-load.ts) from
   * BULK_MIN_COUNT records when every sandbox source is new (or its sandbox bulk load unfinished);
   * 'off' writes row batches into the indexed table; 'on' refuses anything but the bulk path.
   */
  bulk?: 'auto' | 'on' | 'off' | undefined;
  /** Bulk path: parse threads and COPY batches in flight (default from the cores, as the importer's). */
  threads?: number | undefined;
  writers?: number | undefined;
}

/** From this many records, a load into new sources takes the bulk path ('auto'). */
export const BULK_MIN_COUNT = 50_000;

export interface LoadSandboxLeaksResult {
  sources: number;
  generated: number;
  inserted: number;
  /** Already present (a second load with the same seed adds nothing). */
  duplicates: number;
  /** Generated rows the importer refused (expected 0: the generator only makes valid rows). */
  rejected: number;
  seconds: number;
  rowsPerSecond: number;
}

const BATCH = 5_000;

/**
 * Writes `count` synthetic records through the importer's own path: each row is built by the source's
 * LeakRecordBuilder (same secret dropping, normalization and record_hash as `leaks:import`) and written
 * in COPY batches, so a load is idempotent per seed and can be re-run after a crash. A large load into
 * new sources on PostgreSQL takes the importer's bulk path instead (`bulk`, ./bulk-load.ts): parse
 * threads, COPY into a segment per source, indexes built once at the end.
 */
export async function loadSandboxLeaks(
  handle: DatabaseHandle,
  options: LoadSandboxLeaksOptions,
): Promise<LoadSandboxLeaksResult> {
  const started = performance.now();
  const sources = new Map<
    string,
    { id: string; segment: number; builder: LeakRecordBuilder; batch: PreparedLeakRecord[] }
  >();
  for (const source of SANDBOX_LEAK_SOURCES) {
    const { id, segment } = await upsertLeakSourceRow(handle.db, { ...source, sandbox: true });
    const builder = new LeakRecordBuilder(source.name, source.mapping);
    sources.set(source.name, { id, segment, builder, batch: [] });
  }
  const result = { sources: sources.size, generated: 0, inserted: 0, duplicates: 0, rejected: 0 };
  const bulkMode = options.bulk ?? 'auto';
  const bulk =
    bulkMode === 'off' || (bulkMode === 'auto' && options.count < BULK_MIN_COUNT)
      ? null
      : await openSandboxBulkLoads(
          handle,
          options.url,
          sources,
          `sandbox:${options.seed ?? 'demo'}:${options.count}`,
        );
  if (bulkMode === 'on' && !bulk)
    throw new Error(
      'A bulk load needs PostgreSQL, a role owning leak_records and sandbox sources with no record yet.',
    );
  if (bulk) {
    try {
      const counts = await fillSandboxBulkLoads(bulk.loads, {
        count: options.count,
        seed: options.seed,
        threads: options.threads,
        writers: options.writers,
        onProgress: (generated, written) =>
          options.onProgress?.({ generated, inserted: written, count: options.count }),
      });
      result.generated = counts.generated;
      result.rejected = counts.rejected;
      result.inserted = counts.written - counts.removed;
      result.duplicates = counts.skipped + counts.removed;
    } finally {
      await Promise.all([...bulk.loads.values()].map((load) => load.close().catch(() => {})));
      await bulk.control.release();
    }
    await refreshLeakSourceCounts(
      handle.db,
      [...sources.values()].map((entry) => entry.id),
    );
    const seconds = (performance.now() - started) / 1000;
    return { ...result, seconds, rowsPerSecond: Math.round(result.generated / seconds) };
  }
  const writer = await createLeakWriter(handle, { url: options.url });
  const flush = async (entry: { id: string; segment: number; batch: PreparedLeakRecord[] }) => {
    const inserted = await writer.write(entry.id, entry.batch, entry.segment);
    result.inserted += inserted;
    result.duplicates += entry.batch.length - inserted;
    entry.batch = [];
    options.onProgress?.({ generated: result.generated, inserted: result.inserted, count: options.count });
  };
  try {
    for (const row of generateSandboxLeaks({ count: options.count, seed: options.seed })) {
      result.generated++;
      const entry = sources.get(row.source);
      if (!entry) throw new Error(`Unknown sandbox source ${row.source}`);
      const built = entry.builder.build(Object.keys(row.fields), Object.values(row.fields));
      if (isRejected(built)) {
        result.rejected++;
        continue;
      }
      entry.batch.push(built);
      if (entry.batch.length >= BATCH) await flush(entry);
    }
    for (const entry of sources.values()) if (entry.batch.length > 0) await flush(entry);
  } finally {
    await writer.close();
  }
  await refreshLeakSourceCounts(
    handle.db,
    [...sources.values()].map((entry) => entry.id),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...result, seconds, rowsPerSecond: Math.round(result.generated / seconds) };
}

/** Default size of the embedded sandbox leak index. */
export const SANDBOX_LEAK_COUNT = 100_000;

/**
 * Loads the sandbox leak records only when leak_records is empty (the embedded default start calls
 * this). Returns null when there was something already.
 */
export async function ensureSandboxLeaks(
  handle: DatabaseHandle,
  count: number = SANDBOX_LEAK_COUNT,
  options: { seed?: string; url?: string } = {},
): Promise<LoadSandboxLeaksResult | null> {
  const any = await handle.db.select({ id: leakRecords.id }).from(leakRecords).limit(1);
  if (any.length > 0) return null;
  return loadSandboxLeaks(handle, { count, seed: options.seed, url: options.url });
}
