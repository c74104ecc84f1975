// The sandbox loader's bulk path (PostgreSQL): the importer's segments, COPY without indexes, the
// indexes built at the end; the same records, byte for byte, as the row batches of the ordinary path.
import { count, eq, inArray, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakRecords, leakSources } from '../../src/db/schema.ts';
import { loadSandboxLeaks, SANDBOX_LEAK_SOURCES } from '../../src/sandbox/index.ts';
import { createLeakTestDatabase, type LeakTestDatabase } from '../support/leaks.ts';

const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

describe(`sandbox leaks through the bulk path (${kind})`, () => {
  let t: LeakTestDatabase;
  beforeAll(async () => {
    t = await createLeakTestDatabase();
  });
  afterAll(() => t.handle.close());

  it('loads new sources into segments of their own, and a later load by row batches finds every record in', async () => {
    const options = { count: 6_000, seed: 'bulk-test', url: t.url };
    if (kind === 'pglite') {
      // PGlite has no segments: asking for the bulk path is a clear refusal, 'auto' writes row batches.
      await expect(loadSandboxLeaks(t.handle, { ...options, bulk: 'on' })).rejects.toThrow(
        /needs PostgreSQL/,
      );
      expect(await loadSandboxLeaks(t.handle, { ...options, bulk: 'auto' })).toMatchObject({
        inserted: 6_000,
      });
      return;
    }
    const first = await loadSandboxLeaks(t.handle, { ...options, bulk: 'on', threads: 2 });
    expect(first).toMatchObject({ generated: 6_000, inserted: 6_000, duplicates: 0, rejected: 0 });
    const sources = await t.handle.db
      .select({ segment: leakSources.segment, records: leakSources.recordCount })
      .from(leakSources)
      .where(
        inArray(
          leakSources.name,
          SANDBOX_LEAK_SOURCES.map((s) => s.name),
        ),
      );
    expect(sources).toHaveLength(SANDBOX_LEAK_SOURCES.length);
    expect(sources.every((s) => s.segment > 0)).toBe(true);
    expect(sources.reduce((n, s) => n + s.records, 0)).toBe(6_000);
    // Searchable at once: the demo identity's phone through its index.
    const [phone] = await t.handle.db
      .select({ n: count() })
      .from(leakRecords)
      .where(eq(leakRecords.phoneNorm, '9876543210'));
    expect(phone?.n).toBeGreaterThanOrEqual(3);

    // The sources hold records now: 'auto' takes the row batches (ON CONFLICT on record_hash), and
    // every row is already there, so the bulk path built the same record_hash as the batches do.
    const again = await loadSandboxLeaks(t.handle, { ...options, bulk: 'auto' });
    expect(again).toMatchObject({ inserted: 0, duplicates: 6_000 });
    const [total] = await t.handle.db.select({ n: sum(leakSources.recordCount) }).from(leakSources);
    expect(Number(total?.n)).toBe(6_000);
    // And a bulk load into sources that hold records is refused rather than duplicated.
    await expect(loadSandboxLeaks(t.handle, { ...options, bulk: 'on' })).rejects.toThrow(/no record yet/);
  });
});
