/**
 * The sandbox's synthetic records through the importer's bulk path (PostgreSQL, sources with no record
 * yet): each source gets its segment of its own (modules/leaks/import/bulk.ts), filled by COPY with
 * no index, its indexes built once at the end; the rows are built by the importer's parse pool (worker
 * threads, modules/leaks/import/parse-pool.ts) from the generator's rows as JSONL, as `leaks:import`
 * builds the lines of a dump. This thread only generates the rows and routes them.
 *
 * A row's "line" is its place in the generated sequence (1-based), so the bulk load's checkpoints
 * (committed line ranges per source) make an interrupted load resumable like an import: the same
 * seed and count generate the same rows in the same batches, and those already in are skipped.
 */
import { availableParallelism } from 'node:os';
import type { DatabaseHandle } from '../../db/client.ts';
import {
  type BulkLoad,
  mayBulkLoad,
  sourceIsEmpty,
  startBulkLoad,
  unfinishedBulkLoad,
} from '../../modules/leaks/import/bulk.ts';
import { createParsePool } from '../../modules/leaks/import/parse-pool.ts';
import type { ParseResult } from '../../modules/leaks/import/parse-task.ts';
import { dedicatedConnection } from '../../modules/leaks/import/writer.ts';
import { generateSandboxLeaks, SANDBOX_LEAK_SOURCES } from './generator.ts';

/** Rows per parse task and COPY batch, as the importer's. */
const BATCH = 5_000;

export interface SandboxSourceRow {
  id: string;
  segment: number;
}

type Client = Awaited<ReturnType<typeof dedicatedConnection>>;

/**
 * Opens the bulk loads of every sandbox source when all of them can take one (new, or an unfinished
 * sandbox load of theirs to resume) and this role may; null otherwise (the caller writes row batches).
 */
export async function openSandboxBulkLoads(
  handle: DatabaseHandle,
  url: string | undefined,
  sources: Map<string, SandboxSourceRow>,
  fingerprint: string,
): Promise<{ control: Client; loads: Map<string, BulkLoad> } | null> {
  if (handle.kind !== 'postgres') return null;
  const control = await dedicatedConnection(handle, url, (c) => c.query('SELECT pg_advisory_unlock_all()'));
  const loads = new Map<string, BulkLoad>();
  try {
    const c = control.client;
    if (!(await mayBulkLoad(c))) {
      await control.release();
      return null;
    }
    for (const source of sources.values()) {
      const unfinished = await unfinishedBulkLoad(c, source.id);
      const fresh = source.segment === 0 && (await sourceIsEmpty(c, source.id, 0));
      if (!unfinished && !fresh) {
        await control.release();
        return null;
      }
    }
    for (const [name, source] of sources) {
      // The importer's lock: one load of a bulk-loaded source at a time.
      const { rows } = await c.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_lock(hashtextextended('leak_bulk_load:' || $1, 0)) AS locked`,
        [source.id],
      );
      if (!rows[0]?.locked) throw new Error(`'${name}' is being loaded by another process.`);
      loads.set(
        name,
        // Writes use one connection a source; the finish builds its indexes two at a time.
        await startBulkLoad({ handle, url, sourceId: source.id, fingerprint, writers: 2 }, c),
      );
    }
    return { control, loads };
  } catch (error) {
    await Promise.all([...loads.values()].map((load) => load.close().catch(() => {})));
    await control.release();
    throw error;
  }
}

export interface BulkLoadCounts {
  generated: number;
  /** Rows written by this run (before the finish removed duplicates). */
  written: number;
  /** Rows an interrupted earlier run had written already (skipped by the checkpoint). */
  skipped: number;
  rejected: number;
  /** Duplicates the finish removed. */
  removed: number;
}

/**
 * Generates `count` rows of `seed` into the open bulk loads, `threads` parse threads building them
 * and up to `writers` COPY batches in flight (one per source at a time: a source has one connection),
 * then finishes every load (indexes, attach).
 */
export async function fillSandboxBulkLoads(
  loads: Map<string, BulkLoad>,
  options: {
    count: number;
    seed: string | undefined;
    threads?: number | undefined;
    writers?: number | undefined;
    onProgress?: ((generated: number, written: number) => void) | undefined;
  },
): Promise<BulkLoadCounts> {
  const threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism()));
  const writers = options.writers ?? Math.max(2, Math.min(4, availableParallelism()));
  const pool = await createParsePool(threads);
  const counts: BulkLoadCounts = { generated: 0, written: 0, skipped: 0, rejected: 0, removed: 0 };
  const mappings = new Map(SANDBOX_LEAK_SOURCES.map((source) => [source.name, source.mapping]));
  /** Each source's rows waiting for a full batch: JSONL lines and their places in the sequence. */
  const pending = new Map<string, { text: string[]; lines: number[] }>();
  /** Each source's last write: its batches go one after another on its one connection. */
  const tails = new Map<string, Promise<void>>();
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;

  const submit = async (name: string, batch: { text: string[]; lines: number[] }) => {
    const load = loads.get(name);
    if (!load) throw new Error(`Unknown sandbox source ${name}`);
    const parsed = pool.run({
      // One string and one typed array a batch: handing the thread an object a row cost this thread
      // more than generating the rows. Flat string fields: the JSONL reader gives back the same
      // columns and values, so the record_hash is the row batches' (test/leaks/sandbox-bulk.test.ts).
      format: 'jsonl',
      sourceName: name,
      mapping: mappings.get(name),
      delimiter: ',',
      block: { text: batch.text.join('\n'), lines: Uint32Array.from(batch.lines) },
      wantRejects: false,
      skip: load.committed.length > 0 ? load.committed : undefined,
    });
    const previous = tails.get(name);
    const job = (async () => {
      const batch: ParseResult = await parsed;
      await previous;
      counts.rejected += batch.rejected;
      counts.skipped += batch.skipped;
      // Not `counts.written += await …`: that reads counts.written before the wait, losing other jobs' counts.
      const written =
        batch.accepted > 0
          ? await load.write(0, batch.copy, batch.accepted, batch.firstLine, batch.lastLine)
          : 0;
      counts.written += written;
      options.onProgress?.(counts.generated, counts.written);
    })().catch((error) => {
      failure ??= { error };
    });
    tails.set(name, job);
    inFlight.add(job);
    void job.then(() => inFlight.delete(job));
    // Parse tasks for every thread and a batch for every writer in flight, no more: memory stays flat.
    while (inFlight.size >= threads * 2 + writers) await Promise.race(inFlight);
    // The generator runs without a pause of its own: give the event loop a turn, so that the threads'
    // results come back and the COPY data goes out while this thread generates the next rows.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (failure) throw (failure as { error: unknown }).error;
  };

  try {
    for (const row of generateSandboxLeaks({ count: options.count, seed: options.seed })) {
      counts.generated++;
      const batch = pending.get(row.source) ?? { text: [], lines: [] };
      pending.set(row.source, batch);
      batch.text.push(JSON.stringify(row.fields));
      batch.lines.push(counts.generated);
      if (batch.lines.length >= BATCH) {
        pending.delete(row.source);
        await submit(row.source, batch);
      }
    }
    for (const [name, batch] of pending) await submit(name, batch);
    await Promise.all(inFlight);
    if (failure) throw (failure as { error: unknown }).error;
    // Each source's indexes, built after its rows are in (each finish builds its own in parallel).
    for (const load of loads.values()) counts.removed += await load.finish();
  } finally {
    await Promise.all(inFlight);
    await pool.close();
  }
  return counts;
}
