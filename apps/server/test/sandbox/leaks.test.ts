import { and, arrayContains, count, countDistinct, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakRecords, leakSources } from '../../src/db/schema.ts';
import { isRejected, isSecretColumn, LeakRecordBuilder } from '../../src/modules/leaks/import/index.ts';
import {
  ensureSandboxLeaks,
  generateSandboxLeaks,
  loadSandboxLeaks,
  SANDBOX_LEAK_SOURCES,
  type SandboxLeakRow,
} from '../../src/sandbox/index.ts';
import { createLeakTestDatabase, type LeakTestDatabase } from '../support/leaks.ts';

const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const rows = (count: number, seed?: string): SandboxLeakRow[] => [...generateSandboxLeaks({ count, seed })];
const mappingOf = (source: string) => SANDBOX_LEAK_SOURCES.find((s) => s.name === source)?.mapping ?? {};
const columnsFor = (row: SandboxLeakRow, field: string) =>
  Object.keys(row.fields).filter((column) => mappingOf(row.source)[column] === field);

describe('sandbox leak generator', () => {
  const sample = rows(20_000, 'test-seed');

  it('is deterministic per seed, and a smaller count is a prefix of a larger one', () => {
    expect(rows(2_000, 'test-seed')).toEqual(sample.slice(0, 2_000));
    expect(rows(2_000, 'another-seed')).not.toEqual(sample.slice(0, 2_000));
    expect(rows(0)).toEqual([]);
  });

  it('uses 6 to 8 fictional sources, each with a breach date and description, and all of them', () => {
    expect(SANDBOX_LEAK_SOURCES.length).toBeGreaterThanOrEqual(6);
    expect(SANDBOX_LEAK_SOURCES.length).toBeLessThanOrEqual(8);
    for (const source of SANDBOX_LEAK_SOURCES) {
      expect(source.breachDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(source.description).toMatch(/synthetic/i);
    }
    expect(new Set(sample.map((r) => r.source))).toEqual(new Set(SANDBOX_LEAK_SOURCES.map((s) => s.name)));
  });

  it('contains the demo identity: phone in 3+ sources, rich.demo@example.test in 2+, both usernames', () => {
    const demo = rows(6);
    const sourcesWith = (field: string, match: (value: string) => boolean) =>
      new Set(
        demo.filter((r) => columnsFor(r, field).some((c) => match(r.fields[c] ?? ''))).map((r) => r.source),
      );
    expect(
      sourcesWith('phone', (v) => v.replace(/\D/g, '').endsWith('9876543210')).size,
    ).toBeGreaterThanOrEqual(3);
    expect(
      sourcesWith('email', (v) => v.toLowerCase() === 'rich.demo@example.test').size,
    ).toBeGreaterThanOrEqual(2);
    expect(sourcesWith('email', (v) => v === 'rohan.deshmukh90@example.com').size).toBeGreaterThanOrEqual(1);
    expect(sourcesWith('username', (v) => v === 'rohand90').size).toBe(1);
    expect(sourcesWith('username', (v) => v === 'the_rohan17').size).toBe(1);
    expect(
      sourcesWith('name', (v) => v.toLowerCase() === 'rohan suresh deshmukh').size,
    ).toBeGreaterThanOrEqual(1);
    // Nobody else takes the demo's values (searches match whole values).
    const reserved = new Set([
      'rich.demo@example.test',
      'rohan.deshmukh90@example.com',
      'rohand90',
      'the_rohan17',
    ]);
    const taken = sample
      .slice(demo.length)
      .flatMap((r) => Object.values(r.fields))
      .filter((v) => reserved.has(v.toLowerCase()) || v.replace(/\D/g, '').slice(-10) === '9876543210');
    expect(taken).toEqual([]);
  });

  it('uses only reserved e-mail domains, 5-series phones and documentation IP ranges', () => {
    const emailLike = /[^\s@]+@([^\s@]+)/;
    const ipLike = /\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/;
    for (const row of sample.slice(10)) {
      for (const value of Object.values(row.fields)) {
        const email = emailLike.exec(value);
        if (email) expect(email[1]?.toLowerCase()).toMatch(/(^|\.)example\.(com|org|net|test)$/);
        const ip = ipLike.exec(value);
        if (ip) expect(ip[0]).toMatch(/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$/);
      }
      for (const column of columnsFor(row, 'phone')) {
        expect(row.fields[column]?.replace(/\D/g, '').slice(-10)).toMatch(/^5\d{9}$/);
      }
    }
  });

  it('never generates a credential column', () => {
    const columns = new Set(sample.flatMap((r) => Object.keys(r.fields)));
    expect([...columns].filter(isSecretColumn)).toEqual([]);
  });

  it('builds into valid records: nothing is rejected or dropped', () => {
    const builders = new Map(
      SANDBOX_LEAK_SOURCES.map((s) => [s.name, new LeakRecordBuilder(s.name, s.mapping)]),
    );
    for (const row of sample) {
      const builder = builders.get(row.source) as LeakRecordBuilder;
      const built = builder.build(Object.keys(row.fields), Object.values(row.fields));
      if (isRejected(built)) throw new Error(`${built.reject}: ${JSON.stringify(row)}`);
    }
    for (const builder of builders.values()) expect(builder.droppedSecretColumns).toEqual([]);
  });

  it('has people in several sources, accented names, and very common names', () => {
    const sourcesByEmail = new Map<string, Set<string>>();
    for (const row of sample) {
      for (const column of columnsFor(row, 'email')) {
        const email = (row.fields[column] as string).toLowerCase();
        sourcesByEmail.set(email, (sourcesByEmail.get(email) ?? new Set()).add(row.source));
      }
    }
    const shared = [...sourcesByEmail.values()].filter((sources) => sources.size >= 2).length;
    expect(shared / sourcesByEmail.size).toBeGreaterThan(0.1);

    const names = sample.flatMap((r) => columnsFor(r, 'name').map((c) => r.fields[c] as string));
    expect(names.some((n) => /[À-ÿĀ-ž]/.test(n))).toBe(true);
    expect(names.some((n) => n.includes('José'))).toBe(true);
    const priya = names.filter((n) => /priya/i.test(n) && /sharma/i.test(n)).length;
    // ~3% of named rows: at 100,000 records that is thousands, enough to page a name search to page 50.
    expect(priya / names.length).toBeGreaterThan(0.02);
  });
});

describe(`sandbox leak loading (${kind})`, () => {
  let t: LeakTestDatabase;
  beforeAll(async () => {
    t = await createLeakTestDatabase();
  });
  afterAll(() => t.handle.close());

  const sourceCounts = async () =>
    t.handle.db
      .select({ name: leakSources.name, recordCount: leakSources.recordCount })
      .from(leakSources)
      .where(
        inArray(
          leakSources.name,
          SANDBOX_LEAK_SOURCES.map((s) => s.name),
        ),
      );

  it('loads through the importer path, creates the sources, and is idempotent per seed', async () => {
    const first = await loadSandboxLeaks(t.handle, { count: 3_000, seed: 'load-test', url: t.url });
    expect(first).toMatchObject({ sources: SANDBOX_LEAK_SOURCES.length, generated: 3_000, rejected: 0 });
    expect(first.inserted).toBe(3_000);
    const counts = await sourceCounts();
    expect(counts).toHaveLength(SANDBOX_LEAK_SOURCES.length);
    expect(counts.reduce((sum, s) => sum + s.recordCount, 0)).toBe(3_000);
    const flags = await t.handle.db.select({ sandbox: leakSources.sandbox }).from(leakSources);
    expect(flags.every((f) => f.sandbox)).toBe(true);

    const again = await loadSandboxLeaks(t.handle, { count: 3_000, seed: 'load-test', url: t.url });
    expect(again).toMatchObject({ inserted: 0, duplicates: 3_000 });

    const [phone] = await t.handle.db
      .select({ sources: countDistinct(leakRecords.sourceId) })
      .from(leakRecords)
      .where(eq(leakRecords.phoneNorm, '9876543210'));
    expect(phone?.sources).toBeGreaterThanOrEqual(3);
    const [email] = await t.handle.db
      .select({ sources: countDistinct(leakRecords.sourceId) })
      .from(leakRecords)
      .where(eq(leakRecords.emailNorm, 'rich.demo@example.test'));
    expect(email?.sources).toBeGreaterThanOrEqual(2);
  });

  it('ensureSandboxLeaks is a no-op when records exist', async () => {
    const [before] = await t.handle.db.select({ n: count() }).from(leakRecords);
    expect(await ensureSandboxLeaks(t.handle, 1_000, { url: t.url })).toBeNull();
    const [after] = await t.handle.db.select({ n: count() }).from(leakRecords);
    expect(after?.n).toBe(before?.n);
  });
});

describe(`ensureSandboxLeaks on an empty database (${kind})`, () => {
  let t: LeakTestDatabase;
  beforeAll(async () => {
    t = await createLeakTestDatabase();
  });
  afterAll(() => t.handle.close());

  it('loads 100,000 records, with thousands of matches for a common name', async () => {
    const started = performance.now();
    const result = await ensureSandboxLeaks(t.handle, 100_000, { url: t.url });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `[${kind}] ensureSandboxLeaks(100,000): ${seconds.toFixed(1)} s ` +
        `(${result?.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
    );
    expect(result).toMatchObject({ generated: 100_000, inserted: 100_000, rejected: 0 });
    const [priya] = await t.handle.db
      .select({ n: count() })
      .from(leakRecords)
      .where(and(arrayContains(leakRecords.nameTokens, ['priya', 'sharma'])));
    expect(priya?.n).toBeGreaterThan(2_000);
    const [jose] = await t.handle.db
      .select({ n: count() })
      .from(leakRecords)
      .where(arrayContains(leakRecords.nameTokens, ['jose', 'garcia']));
    expect(jose?.n).toBeGreaterThan(100);
  }, 120_000);
});
