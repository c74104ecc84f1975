import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakRecords, leakSources } from '../../src/db/schema.ts';
import { defaultParseThreads } from '../../src/modules/leaks/import/import.ts';
import {
  type ImportLeakFileOptions,
  importLeakFile,
  LeakImportError,
  MAX_VALUE_LENGTH,
} from '../../src/modules/leaks/import/index.ts';
import { createLeakTestDatabase, type LeakTestDatabase, tempDir } from '../support/leaks.ts';

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

const file = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

const run = (options: Omit<ImportLeakFileOptions, 'handle' | 'url'>) =>
  importLeakFile({ handle: t.handle, url: t.url, ...options });

async function recordsOf(sourceName: string) {
  const [source] = await t.handle.db.select().from(leakSources).where(eq(leakSources.name, sourceName));
  if (!source) return { source: undefined, records: [] };
  const records = await t.handle.db
    .select()
    .from(leakRecords)
    .where(eq(leakRecords.sourceId, source.id))
    .orderBy(leakRecords.id);
  return { source, records };
}

const readRejects = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { line: number; reason: string; raw: string });

describe('leak import: CSV', () => {
  it('maps columns, normalizes the search keys and creates the source', async () => {
    const path = await file(
      'mapped.csv',
      [
        'Full Name,E-Mail Address,Mobile No,Handle,Street,City,Signup IP',
        '"José Álvarez",Jose.Alvarez@Example.COM,+91 98765-43210,JAlvarez,"12, Rua Nova",Lisbon,203.0.113.7',
        '  Zoë  Ångström ,zoe@example.org,(512) 345-6789,zoe_a,,Oslo,198.51.100.2',
        'Priya Sharma,priya.sharma@example.net,,,,"Navi Mumbai, MH",',
      ].join('\r\n'),
    );
    const stats = await run({
      file: path,
      source: { name: 'Fictional Mapped Dump', breachDate: '2021-03-04', description: 'synthetic' },
      mapping: {
        'Full Name': 'name',
        'E-Mail Address': 'email',
        'Mobile No': 'phone',
        Handle: 'username',
        Street: 'address',
      },
    });
    expect(stats).toMatchObject({
      rowsRead: 3,
      inserted: 3,
      duplicates: 0,
      rejected: 0,
      droppedSecretColumns: [],
    });
    expect(stats.rowsPerSecond).toBeGreaterThan(0);

    const { source, records } = await recordsOf('Fictional Mapped Dump');
    expect(source).toMatchObject({
      breachDate: '2021-03-04',
      description: 'synthetic',
      recordCount: 3,
      sandbox: false,
    });
    expect(source?.importedAt).toBeInstanceOf(Date);
    expect(records).toHaveLength(3);
    const [jose, zoe, priya] = records;
    expect(jose).toMatchObject({
      name: 'José Álvarez',
      email: 'Jose.Alvarez@Example.COM',
      phone: '+91 98765-43210',
      username: 'JAlvarez',
      address: '12, Rua Nova',
      other: { City: 'Lisbon', 'Signup IP': '203.0.113.7' },
      emailNorm: 'jose.alvarez@example.com',
      phoneNorm: '9876543210',
      usernameNorm: 'jalvarez',
      nameTokens: ['jose', 'alvarez'],
    });
    expect(jose?.recordHash).toMatch(/^[0-9a-f]{64}$/);
    // Values are trimmed; empty values are absent, not empty strings.
    expect(zoe).toMatchObject({ name: 'Zoë  Ångström', phoneNorm: '5123456789', address: null });
    expect(zoe?.nameTokens).toEqual(['zoe', 'angstrom']);
    expect(priya).toMatchObject({
      phone: null,
      phoneNorm: null,
      username: null,
      other: { City: 'Navi Mumbai, MH' },
    });
  });

  it('maps columns by their own names when the mapping does not name them', async () => {
    const path = await file(
      'auto.csv',
      'name,email,phone,username,address,notes\nA B,a@example.com,5000000001,ab,X,n\n',
    );
    await run({ file: path, source: { name: 'Fictional Auto Dump' } });
    const { records } = await recordsOf('Fictional Auto Dump');
    expect(records[0]).toMatchObject({
      name: 'A B',
      email: 'a@example.com',
      phone: '5000000001',
      username: 'ab',
      address: 'X',
      other: { notes: 'n' },
    });
  });

  it('joins several columns mapped to the name and skips columns mapped to skip', async () => {
    const path = await file('split.tsv', 'first\tlast\tinternal_id\tcountry\nSøren\tØyen\t77\tNorway\n');
    await run({
      file: path,
      source: { name: 'Fictional Split Dump' },
      mapping: { first: 'name', last: 'name', internal_id: 'skip' },
    });
    const { records } = await recordsOf('Fictional Split Dump');
    expect(records[0]).toMatchObject({ name: 'Søren Øyen', other: { country: 'Norway' } });
    // The domain's nameTokens folds what NFD decomposes; 'ø' has no decomposition and stays.
    expect(records[0]?.nameTokens).toEqual(['søren', 'øyen']);
  });

  it('refuses a mapping that names a column the file does not have, before creating anything', async () => {
    const path = await file('typo.csv', 'name,email\nA,a@example.com\n');
    await expect(
      run({ file: path, source: { name: 'Fictional Typo Dump' }, mapping: { emial: 'email' } }),
    ).rejects.toBeInstanceOf(LeakImportError);
    expect((await recordsOf('Fictional Typo Dump')).source).toBeUndefined();
  });

  it('reads gzip-compressed files', async () => {
    const path = join(dir, 'packed.csv.gz');
    await writeFile(path, gzipSync('email,city\npacked@example.com,Pune\n'));
    const stats = await run({ file: path, source: { name: 'Fictional Packed Dump' } });
    expect(stats).toMatchObject({ rowsRead: 1, inserted: 1 });
  });
});

describe('leak import: secrets are never stored', () => {
  const SECRET_COLUMNS = [
    'password',
    'Password_Hash',
    'passwd',
    'pass',
    'pwd',
    'hash',
    'PasswordHash',
    'salt',
    'secret',
    'token',
    'user_pass',
    'pwdHash',
  ];

  it('drops every credential column of a CSV, even when the mapping names it', async () => {
    const header = ['email', 'passport_no', 'hashtag', ...SECRET_COLUMNS, 'city'];
    const rows = [0, 1, 2].map((i) =>
      [
        `user${i}@example.com`,
        `Z00${i}`,
        '#tag',
        ...SECRET_COLUMNS.map((c) => `SECRET-${c}-${i}`),
        'Pune',
      ].join(','),
    );
    const path = await file('secrets.csv', [header.join(','), ...rows].join('\n'));
    const stats = await run({
      file: path,
      source: { name: 'Fictional Secrets Dump' },
      mapping: { pwd: 'username', token: 'other' },
    });
    expect(stats.inserted).toBe(3);
    expect([...stats.droppedSecretColumns].sort()).toEqual([...SECRET_COLUMNS].sort());

    const { source, records } = await recordsOf('Fictional Secrets Dump');
    for (const record of records) {
      expect(Object.keys(record.other ?? {}).sort()).toEqual(['city', 'hashtag', 'passport_no']);
      expect(record.username).toBeNull();
    }
    // Nothing anywhere in the stored rows carries a secret value.
    const dump = await t.handle.db.execute(
      sql`select row_to_json(r)::text as j from leak_records r where source_id = ${source?.id}`,
    );
    const text = JSON.stringify((dump as unknown as { rows: { j: string }[] }).rows);
    expect(text).toContain('user0@example.com');
    expect(text).not.toContain('SECRET-');
  });

  it('drops credential keys of JSONL objects, also inside `other`, nested objects and arrays', async () => {
    const lines = [
      {
        email: 'nested@example.com',
        password: 'SECRET-1',
        other: { city: 'Pune', Password_Hash: 'SECRET-2' },
        auth: { salt: 'SECRET-3', provider: 'local' },
        sessions: [{ token: 'SECRET-4', device: 'phone' }],
        tags: ['a', 'b'],
      },
    ];
    const path = await file('secrets.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'));
    const stats = await run({ file: path, source: { name: 'Fictional Secrets JSONL' } });
    expect(stats.inserted).toBe(1);
    expect([...stats.droppedSecretColumns].sort()).toEqual(
      ['Password_Hash', 'auth.salt', 'password', 'sessions.0.token'].sort(),
    );
    const { records } = await recordsOf('Fictional Secrets JSONL');
    expect(records[0]?.other).toEqual({
      'auth.provider': 'local',
      city: 'Pune',
      'sessions.0.device': 'phone',
      tags: 'a, b',
    });
    expect(JSON.stringify(records)).not.toContain('SECRET-');
  });
});

describe('leak import: JSONL', () => {
  it('maps dotted key paths and stringifies scalars', async () => {
    const path = await file(
      'people.ndjson',
      [
        JSON.stringify({
          contact: { email: 'A.User@Example.net', phone: '+1 (555) 010-0199' },
          who: 'Anaïs Lefèvre',
          age: 31,
          vip: true,
        }),
        '',
        JSON.stringify({ contact: { email: 'b@example.org' }, who: 'B', nick: 'bee' }),
      ].join('\n'),
    );
    const stats = await run({
      file: path,
      source: { name: 'Fictional JSONL Dump' },
      mapping: { 'contact.email': 'email', 'contact.phone': 'phone', who: 'name', nick: 'username' },
    });
    expect(stats).toMatchObject({ rowsRead: 2, inserted: 2, rejected: 0 });
    const { records } = await recordsOf('Fictional JSONL Dump');
    expect(records[0]).toMatchObject({
      name: 'Anaïs Lefèvre',
      emailNorm: 'a.user@example.net',
      phoneNorm: '5550100199',
      other: { age: '31', vip: 'true' },
      nameTokens: ['anais', 'lefevre'],
    });
    expect(records[1]).toMatchObject({ usernameNorm: 'bee', other: null });
  });
});

describe('leak import: rejects', () => {
  it('counts and writes every bad CSV row without stopping, secrets redacted', async () => {
    const long = 'x'.repeat(MAX_VALUE_LENGTH + 1);
    const lines = [
      'name,email,phone,password', // 1
      'Good One,good1@example.com,5000000001,SECRET-a', // 2
      ',,,SECRET-b', // 3 no key field
      'Bad Mail,not-an-email,5000000002,SECRET-c', // 4 invalid e-mail
      'Too,many,fields,here,and,more', // 5 wrong column count
      `Long,${long}@example.com,5000000003,SECRET-d`, // 6 over-long value
      'Short Phone,,123,SECRET-e', // 7 invalid phone
      '"Unclosed quote,x@example.com,5000000004,SECRET-f', // 8 unterminated quote
      'Good Two,good2@example.com,5000000005,SECRET-g', // 9 still read after the stray quote
      '', // blank: skipped, not a row
      'Good Three,good3@example.com,5000000006,', // 11
    ];
    const path = await file('rejects.csv', lines.join('\n'));
    const rejectsPath = join(dir, 'rejects.csv.rejects.jsonl');
    const stats = await run({ file: path, source: { name: 'Fictional Rejects Dump' }, rejectsPath });
    expect(stats).toMatchObject({ rowsRead: 9, inserted: 3, rejected: 6 });

    const rejects = await readRejects(rejectsPath);
    expect(rejects.map((r) => [r.line, r.reason])).toEqual([
      [3, 'no name, email, phone or username'],
      [4, "invalid e-mail in column 'email'"],
      [5, 'wrong column count (expected 4, got 6)'],
      [6, `value too long in column 'email' (${MAX_VALUE_LENGTH + 13} characters, max ${MAX_VALUE_LENGTH})`],
      [7, "invalid phone in column 'phone' (3 digits)"],
      [8, 'unterminated quoted field'],
    ]);
    expect(rejects[1]?.raw).toBe('Bad Mail,not-an-email,5000000002,[dropped]');
    expect(rejects[5]?.raw).toBe('[unparsed remainder]');
    expect(rejects.every((r) => r.raw.length <= 2_001)).toBe(true);
    expect(JSON.stringify(rejects)).not.toContain('SECRET-');
    const { records } = await recordsOf('Fictional Rejects Dump');
    expect(records.map((r) => r.email)).toEqual([
      'good1@example.com',
      'good2@example.com',
      'good3@example.com',
    ]);
  });

  it('rejects bad JSONL lines: invalid JSON, not an object, no key field', async () => {
    const lines = [
      JSON.stringify({ email: 'ok@example.com' }),
      '{"email": "broken@example.com", "password": "SECRET-x"',
      '[1,2,3]',
      JSON.stringify({ city: 'Pune', password: 'SECRET-y' }),
      JSON.stringify({ email: `${'y'.repeat(MAX_VALUE_LENGTH)}@example.com` }),
    ];
    const path = await file('rejects.jsonl', lines.join('\n'));
    const rejectsPath = join(dir, 'rejects.jsonl.rejects.jsonl');
    const stats = await run({ file: path, source: { name: 'Fictional Rejects JSONL' }, rejectsPath });
    expect(stats).toMatchObject({ rowsRead: 5, inserted: 1, rejected: 4 });
    const rejects = await readRejects(rejectsPath);
    expect(rejects.map((r) => [r.line, r.reason.split(' (')[0]])).toEqual([
      [2, 'invalid JSON'],
      [3, 'not a JSON object'],
      [4, 'no name, email, phone or username'],
      [5, "value too long in column 'email'"],
    ]);
    expect(rejects[0]?.raw).toBe('{"email": "broken@example.com", "password": "[dropped]"');
    expect(JSON.parse(rejects[2]?.raw ?? '')).toEqual({ city: 'Pune' });
    expect(JSON.stringify(rejects)).not.toContain('SECRET-');
  });
});

describe('leak import: idempotency and resume', () => {
  it('importing the same file twice adds nothing the second time', async () => {
    const rows = Array.from(
      { length: 1_200 },
      (_, i) => `Person ${i},p${i}@example.com,5${String(i).padStart(9, '0')}`,
    );
    // The same row twice in the file is one record too.
    const path = await file('twice.csv', ['name,email,phone', ...rows, rows[0]].join('\n'));
    const first = await run({ file: path, source: { name: 'Fictional Twice Dump' }, batchSize: 500 });
    expect(first).toMatchObject({ rowsRead: 1_201, inserted: 1_200, duplicates: 1 });
    const second = await run({ file: path, source: { name: 'Fictional Twice Dump' }, batchSize: 500 });
    expect(second).toMatchObject({ rowsRead: 1_201, inserted: 0, duplicates: 1_201 });
    const { source, records } = await recordsOf('Fictional Twice Dump');
    expect(records).toHaveLength(1_200);
    expect(source?.recordCount).toBe(1_200);
  });

  it('an import stopped half-way keeps its committed batches and a re-run completes it', async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => `user${i}@example.org,Pune`);
    const path = await file('resume.csv', ['email,city', ...rows].join('\n'));
    const controller = new AbortController();
    const first = await run({
      file: path,
      source: { name: 'Fictional Resume Dump' },
      batchSize: 250,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.inserted > 0) controller.abort();
      },
    });
    expect(first.aborted).toBe(true);
    expect(first.inserted).toBeGreaterThan(0);
    expect(first.inserted).toBeLessThan(3_000);
    expect((await recordsOf('Fictional Resume Dump')).source?.recordCount).toBe(first.inserted);

    const second = await run({ file: path, source: { name: 'Fictional Resume Dump' }, batchSize: 250 });
    expect(second.aborted).toBe(false);
    expect(second.inserted + second.duplicates).toBe(3_000);
    expect(second.inserted).toBe(3_000 - first.inserted);
    expect((await recordsOf('Fictional Resume Dump')).source?.recordCount).toBe(3_000);
  });
});

describe('leak import: the write path', () => {
  it('stores tabs, newlines, backslashes, quotes and a name token "null" exactly', async () => {
    const record = {
      name: 'Null "Nully" Person',
      email: 'odd@example.com',
      address: 'Line 1\nLine 2\twith tab',
      note: 'C:\\path\\file "quoted" \\N',
      emoji: 'café ☕',
    };
    const path = await file('odd.jsonl', JSON.stringify(record));
    const stats = await run({ file: path, source: { name: 'Fictional Odd Values' } });
    expect(stats.inserted).toBe(1);
    const { records } = await recordsOf('Fictional Odd Values');
    expect(records[0]).toMatchObject({
      name: record.name,
      address: record.address,
      other: { emoji: record.emoji, note: record.note },
      nameTokens: ['null', 'nully', 'person'],
    });
  });

  it('repairs what PostgreSQL cannot store from JSON: lone surrogates, NUL in keys', async () => {
    const path = await file(
      'surrogates.jsonl',
      '{"email": "s@example.com", "home\\u0000town": "x\\ud800y", "note": "\\udc00"}\n',
    );
    const stats = await run({ file: path, source: { name: 'Fictional Surrogates' } });
    expect(stats).toMatchObject({ inserted: 1, rejected: 0 });
    const { records } = await recordsOf('Fictional Surrogates');
    expect(records[0]?.other).toEqual({ hometown: 'x\uFFFDy', note: '\uFFFD' });
  });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'PGlite: the parameterized INSERT writer stores the same rows as the COPY writer',
    async () => {
      const { LeakRecordBuilder, createLeakWriter, upsertLeakSource, isRejected } = await import(
        '../../src/modules/leaks/import/index.ts'
      );
      const builder = new LeakRecordBuilder('Fictional Writers');
      const built = Array.from({ length: 1_500 }, (_, i) =>
        builder.build(['name', 'email', 'city'], [`José ${i}`, `w${i}@example.com`, `Pune\t${i}`]),
      ).filter((row) => !isRejected(row));
      const read = async (mode: 'copy' | 'insert') => {
        const sourceId = await upsertLeakSource(t.handle.db, { name: `Fictional Writers ${mode}` });
        const writer = await createLeakWriter(t.handle, { pgliteMode: mode });
        expect(await writer.write(sourceId, built as never)).toBe(1_500);
        expect(await writer.write(sourceId, built as never)).toBe(0);
        await writer.close();
        const rows = await t.handle.db
          .select()
          .from(leakRecords)
          .where(eq(leakRecords.sourceId, sourceId))
          .orderBy(leakRecords.id);
        return rows.map(({ id: _, sourceId: __, ...rest }) => rest);
      };
      expect(await read('insert')).toEqual(await read('copy'));
    },
  );
});

describe('parse threads by default', () => {
  const MiB = 1 << 20;
  it('parses on the reading thread below 4 MiB', () => {
    expect(defaultParseThreads(4 * MiB - 1, true, 8)).toBe(0);
  });
  it('takes a thread per core into PostgreSQL, whose COPY runs in its own processes', () => {
    expect(defaultParseThreads(4 * MiB, true, 2)).toBe(2);
    expect(defaultParseThreads(4 * MiB, true, 1)).toBe(1);
  });
  it('leaves a core to PGlite, which writes on the reading thread', () => {
    expect(defaultParseThreads(4 * MiB, false, 2)).toBe(1);
    expect(defaultParseThreads(4 * MiB, false, 1)).toBe(1);
  });
  it('takes at most 4', () => {
    expect(defaultParseThreads(100 * MiB, true, 16)).toBe(4);
    expect(defaultParseThreads(100 * MiB, false, 16)).toBe(4);
  });
});
