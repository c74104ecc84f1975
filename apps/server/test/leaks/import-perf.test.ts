import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakRecords, leakSources } from '../../src/db/schema.ts';
import { importLeakFile } from '../../src/modules/leaks/import/index.ts';
import {
  createLeakTestDatabase,
  type LeakTestDatabase,
  syntheticCsvLines,
  tempDir,
  writeLines,
} from '../support/leaks.ts';

const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
let t: LeakTestDatabase;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  // On PGlite the database lives inside this process: keep it on disk, so that the RSS check below
  // measures the importer rather than an in-memory database growing by the rows it receives.
  t = await createLeakTestDatabase({ dataDir: join(dir, 'pglite') });
});
afterAll(async () => {
  await t.handle.close();
  await cleanup();
});

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

describe('leak import at volume', () => {
  it('imports a generated 50,000-row CSV and reports its rate', async () => {
    const path = join(dir, 'fifty.csv');
    await writeLines(path, syntheticCsvLines(50_000));
    const stats = await importLeakFile({
      handle: t.handle,
      url: t.url,
      file: path,
      source: { name: 'Fictional Volume Dump' },
      mapping: { full_name: 'name', email_address: 'email', mobile: 'phone' },
    });
    console.log(
      `[${kind}] 50,000-row CSV: ${stats.rowsPerSecond.toLocaleString('en-US')} rows/s end to end ` +
        `(${stats.seconds.toFixed(2)} s); write path (COPY + INSERT ... ON CONFLICT) ` +
        `${Math.round(stats.inserted / stats.writeSeconds).toLocaleString('en-US')} rows/s`,
    );
    expect(stats).toMatchObject({ rowsRead: 50_000, inserted: 50_000, rejected: 0 });
    expect(stats.droppedSecretColumns).toEqual(['password', 'password_hash']);
    const [source] = await t.handle.db
      .select()
      .from(leakSources)
      .where(eq(leakSources.name, 'Fictional Volume Dump'));
    expect(source?.recordCount).toBe(50_000);
  }, 120_000);

  it('keeps memory flat while importing a 200,000-row file', async () => {
    const path = join(dir, 'two-hundred.csv');
    await writeLines(path, syntheticCsvLines(200_000));
    const before = process.memoryUsage().rss;
    let peak = before;
    const stats = await importLeakFile({
      handle: t.handle,
      url: t.url,
      file: path,
      source: { name: 'Fictional Memory Dump' },
      mapping: { full_name: 'name', email_address: 'email', mobile: 'phone' },
      // One parse thread, whatever the machine's cores: each is a V8 isolate of its own (~50 MB).
      threads: 1,
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage().rss);
      },
    });
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(
      `[${kind}] 200,000-row CSV: ${stats.rowsPerSecond.toLocaleString('en-US')} rows/s, ` +
        `RSS ${mb(before)} MB before, peak ${mb(peak)} MB (+${mb(peak - before)} MB)`,
    );
    expect(stats.inserted).toBe(200_000);
    const [total] = await t.handle.db
      .select({ n: count() })
      .from(leakRecords)
      .innerJoin(leakSources, eq(leakSources.id, leakRecords.sourceId))
      .where(eq(leakSources.name, 'Fictional Memory Dump'));
    expect(total?.n).toBe(200_000);
    // 150 MB for the import itself (at most a few batches in flight), plus the parse thread's isolate.
    expect(peak - before).toBeLessThan((150 + 50) * 1024 * 1024);
  }, 240_000);
});
