import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.ts';
import { leakRecords, leakSources } from '../../src/db/schema.ts';
import { importLeakFile, LeakImportError } from '../../src/modules/leaks/import/index.ts';
import { createLeakTestDatabase, type LeakTestDatabase, tempDir, writeLines } from '../support/leaks.ts';

// The bulk path (a new source loaded into a segment of its own, indexed afterwards) is PostgreSQL's;
// on PGlite it is refused with a clear error and 'auto' takes the ordinary path.
const postgres = Boolean(process.env.TEST_DATABASE_URL);
let t: LeakTestDatabase;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  t = await createLeakTestDatabase();
  ({ dir, cleanup } = await tempDir());
});
afterAll(async () => {
  await t.handle.close();
  await cleanup();
});

const query = async <T>(text: string) => rowsOf<T>(await t.handle.db.execute(sql.raw(text)));

async function sourceRow(name: string) {
  const [source] = await t.handle.db.select().from(leakSources).where(eq(leakSources.name, name));
  return source;
}

async function countOf(name: string) {
  const source = await sourceRow(name);
  if (!source) return 0;
  const [row] = await query<{ n: string }>(
    `select count(*) as n from leak_records where source_id = '${source.id}'`,
  );
  return Number(row?.n);
}

const csv = (count: number, extra: string[] = []) => [
  'name,email,phone,password',
  ...Array.from(
    { length: count },
    (_, i) => `Bulk Person ${i},bulk${i}@example.com,5${String(i).padStart(9, '0')},s${i}`,
  ),
  ...extra,
];

describe.runIf(!postgres)('leak import, bulk path on PGlite', () => {
  it('refuses --bulk on, and auto imports the ordinary way', async () => {
    const path = join(dir, 'pglite.csv');
    await writeLines(path, csv(100));
    await expect(
      importLeakFile({ handle: t.handle, file: path, source: { name: 'Fictional PGlite Bulk' }, bulk: 'on' }),
    ).rejects.toThrow(LeakImportError);
    const stats = await importLeakFile({
      handle: t.handle,
      file: path,
      source: { name: 'Fictional PGlite Bulk' },
    });
    expect(stats).toMatchObject({ inserted: 100, bulk: false, segment: 0 });
  });
});

describe.runIf(postgres)('leak import, bulk path (PostgreSQL)', () => {
  it('loads a new source into its own indexed segment; a re-run adds nothing', async () => {
    const path = join(dir, 'bulk.csv');
    // A row twice (dropped by the finish's deduplication) and a reject.
    await writeLines(
      path,
      csv(12_000, ['Bulk Person 7,bulk7@example.com,5000000007,s7', 'Nobody,not-an-email,,x']),
    );
    const run = () =>
      importLeakFile({
        handle: t.handle,
        url: t.url,
        file: path,
        source: { name: 'Fictional Bulk Dump' },
        bulk: 'on',
        batchSize: 1_000,
        threads: 2,
        writers: 3,
      });
    const first = await run();
    expect(first).toMatchObject({
      rowsRead: 12_002,
      inserted: 12_000,
      duplicates: 1,
      rejected: 1,
      bulk: true,
    });
    expect(first.droppedSecretColumns).toEqual(['password']);
    expect(first.segment).toBeGreaterThan(0);
    const source = await sourceRow('Fictional Bulk Dump');
    expect(source).toMatchObject({ segment: first.segment, recordCount: 12_000 });
    expect(await query('select * from leak_bulk_loads')).toEqual([]);

    // Attached as partition of leak_records, with the parent's seven indexes attached to its own.
    const table = `leak_records_seg_${first.segment}`;
    const [bound] = await query<{ bound: string }>(
      `select pg_get_expr(relpartbound, oid) as bound from pg_class where relname = '${table}'`,
    );
    expect(bound?.bound).toBe(`FOR VALUES IN (${first.segment})`);
    const attached = await query<{ parent: string }>(
      `select p.relname as parent from pg_inherits i join pg_class c on c.oid = i.inhrelid
         join pg_class p on p.oid = i.inhparent where c.relkind = 'i' and c.relname like '${table}_%'`,
    );
    expect(attached.map((r) => r.parent).sort()).toEqual([
      'leak_records_email_idx',
      'leak_records_id_idx',
      'leak_records_name_idx',
      'leak_records_phone_idx',
      'leak_records_source_idx',
      'leak_records_username_idx',
    ]);
    // Found through the parent, by its index.
    const found = await t.handle.db
      .select({ name: leakRecords.name, segment: leakRecords.segment })
      .from(leakRecords)
      .where(eq(leakRecords.emailNorm, 'bulk4321@example.com'));
    expect(found).toEqual([{ name: 'Bulk Person 4321', segment: first.segment }]);

    // The source now has records: 'on' refuses, the default re-run writes into its segment and
    // finds every row there.
    await expect(run()).rejects.toThrow(LeakImportError);
    const second = await importLeakFile({
      handle: t.handle,
      url: t.url,
      file: path,
      source: { name: 'Fictional Bulk Dump' },
      batchSize: 1_000,
    });
    expect(second).toMatchObject({ inserted: 0, duplicates: 12_001, bulk: false, segment: first.segment });
    expect(await countOf('Fictional Bulk Dump')).toBe(12_000);
  }, 60_000);

  it('an interrupted bulk load shows nothing, and a re-run resumes from its checkpoint', async () => {
    const path = join(dir, 'bulk-resume.csv');
    await writeLines(path, csv(6_000));
    const controller = new AbortController();
    const first = await importLeakFile({
      handle: t.handle,
      url: t.url,
      file: path,
      source: { name: 'Fictional Bulk Resume' },
      bulk: 'on',
      batchSize: 500,
      writers: 1,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.inserted > 0) controller.abort();
      },
    });
    expect(first).toMatchObject({ aborted: true, bulk: true });
    expect(first.inserted).toBeGreaterThan(0);
    expect(first.inserted).toBeLessThan(6_000);
    expect(await countOf('Fictional Bulk Resume')).toBe(0);
    const second = await importLeakFile({
      handle: t.handle,
      url: t.url,
      file: path,
      source: { name: 'Fictional Bulk Resume' },
      batchSize: 500,
    });
    expect(second).toMatchObject({ aborted: false, bulk: true, segment: first.segment });
    expect(second.duplicates).toBe(first.inserted);
    expect(second.inserted).toBe(6_000 - first.inserted);
    expect(await countOf('Fictional Bulk Resume')).toBe(6_000);
  }, 60_000);

  it('resumes after kill -9 of the importing process', async () => {
    const path = join(dir, 'bulk-kill.jsonl');
    await writeLines(
      path,
      Array.from({ length: 120_000 }, (_, i) =>
        JSON.stringify({ name: `Killed Person ${i}`, email: `killed${i}@example.com`, city: 'Pune' }),
      ),
    );
    const cli = fileURLToPath(new URL('../../src/cli/index.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, 'leaks:import', path, '--source', 'Fictional Bulk Killed', '--bulk', 'on'],
      { env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.url as string, CI: 'true' }, stdio: 'ignore' },
    );
    const exited = new Promise<string | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
    // Kill it once some batches are committed (their checkpoint rows are there).
    const deadline = Date.now() + 45_000;
    for (;;) {
      const [row] = await query<{ n: string }>('select count(*) as n from leak_bulk_batches');
      if (Number(row?.n) >= 2) break;
      if (Date.now() > deadline) throw new Error('the import committed no batch in 45 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // Its backends finish what they had received, then end (releasing the source's advisory lock).
    for (let waited = 0; ; waited += 50) {
      const [locks] = await query<{ n: string }>(
        `select count(*) as n from pg_locks where locktype = 'advisory'`,
      );
      if (Number(locks?.n) === 0) break;
      if (waited > 10_000) throw new Error('the killed import still holds its lock');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [checkpoint] = await query<{ n: string }>(
      'select coalesce(sum(rows), 0) as n from leak_bulk_batches',
    );
    const committed = Number(checkpoint?.n);
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(120_000);
    expect(await countOf('Fictional Bulk Killed')).toBe(0);

    const resumed = await importLeakFile({
      handle: t.handle,
      url: t.url,
      file: path,
      source: { name: 'Fictional Bulk Killed' },
    });
    expect(resumed).toMatchObject({ bulk: true, rowsRead: 120_000, duplicates: committed });
    expect(resumed.inserted).toBe(120_000 - committed);
    expect(await countOf('Fictional Bulk Killed')).toBe(120_000);
    expect((await sourceRow('Fictional Bulk Killed'))?.recordCount).toBe(120_000);
  }, 120_000);

  it('refuses a bulk load for a source that has records', async () => {
    const path = join(dir, 'small.csv');
    await writeFile(path, 'name,email\nSmall Person,small@example.com\n');
    const options = { handle: t.handle, url: t.url, file: path, source: { name: 'Fictional Small' } };
    expect(await importLeakFile(options)).toMatchObject({ inserted: 1, bulk: false, segment: 0 });
    await expect(importLeakFile({ ...options, bulk: 'on' })).rejects.toThrow(/has records already/);
  });
});
