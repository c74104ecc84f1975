import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, type DatabaseHandle, type OpenOptions, openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { leakSources } from '../../src/db/schema.ts';
import { isRejected, LeakRecordBuilder } from '../../src/modules/leaks/import/record.ts';

export interface LeakTestDatabase {
  handle: DatabaseHandle;
  /** The PostgreSQL URL of the test database (undefined on PGlite), for the importer's COPY connection. */
  url: string | undefined;
}

/**
 * Like createTestDatabase(), but also hands out the URL: a fresh database on TEST_DATABASE_URL's
 * server (dropped on close), or PGlite (in memory unless `dataDir` is given).
 */
export async function createLeakTestDatabase(
  options: Pick<OpenOptions, 'dataDir'> = {},
): Promise<LeakTestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({ dataDir: options.dataDir ?? 'memory://' });
    await handle.migrate();
    return { handle, url: undefined };
  }
  const name = `fp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 10 });
  await handle.migrate();
  return {
    url: url.toString(),
    handle: {
      ...handle,
      async close() {
        await handle.close();
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    },
  };
}

/** A temporary directory, removed by the returned cleanup. */
export async function tempDir(prefix = 'fp-leaks-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes lines to a file with back-pressure, so that a large fixture never sits in memory. */
export async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines) {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
}

/**
 * Rows of a synthetic CSV dump with a `password` and a `password_hash` column (the importer must drop
 * both). Reserved e-mail domains, 5-series phones, documentation IPs only.
 */
export function* syntheticCsvLines(count: number): Generator<string> {
  const first = ['Priya', 'José', 'Zoë', 'Rahul', 'Amit', 'Anaïs', 'Søren'];
  const last = ['Sharma', 'Álvarez', 'Ångström', 'Kumar', 'Patel', "O'Brien"];
  yield 'full_name,email_address,mobile,username,password,password_hash,city,signup_ip';
  for (let i = 0; i < count; i++) {
    yield [
      `"${first[i % first.length]} ${last[i % last.length]}"`,
      `user${i}@example.com`,
      `+91 5${String(i).padStart(9, '0')}`,
      `user_${i}`,
      `not-a-real-secret-${i}`,
      `fakehash${i.toString(16)}`,
      i % 2 ? 'Pune' : '"Navi Mumbai, MH"',
      `198.51.100.${i % 255}`,
    ].join(',');
  }
}

export interface LeakTestRow {
  name?: string;
  email?: string;
  phone?: string;
  username?: string;
  address?: string;
}

/**
 * A leak source with its records, built as the importer builds them (normalized keys, record hash);
 * the source is created when its name is new. Returns the ids of the records, in order.
 */
export async function addLeakRecords(
  db: Database,
  source: { name: string; breachDate?: string; sandbox?: boolean },
  rows: LeakTestRow[],
): Promise<string[]> {
  await db
    .insert(leakSources)
    .values({ name: source.name, breachDate: source.breachDate ?? null, sandbox: source.sandbox ?? false })
    .onConflictDoNothing();
  const builder = new LeakRecordBuilder(source.name);
  const ids: string[] = [];
  for (const row of rows) {
    const columns = ['name', 'email', 'phone', 'username', 'address'] as const;
    const built = builder.build(
      columns,
      columns.map((column) => row[column]),
    );
    if (isRejected(built)) throw new Error(`test record rejected: ${built.reject}`);
    const inserted = await db.execute(sql`
      insert into leak_records (source_id, record_hash, name, email, phone, username, address, other,
        email_norm, phone_norm, username_norm, name_tokens)
      select id, ${built.recordHash}, ${built.name}, ${built.email}, ${built.phone}, ${built.username},
        ${built.address}, ${built.otherJson}::jsonb, ${built.emailNorm}, ${built.phoneNorm}, ${built.usernameNorm},
        ${
          built.nameTokens
            ? sql`array[${sql.join(
                built.nameTokens.map((token) => sql`${token}`),
                sql`, `,
              )}]::text[]`
            : sql`null`
        }
      from leak_sources where name = ${source.name}
      returning id`);
    const [first] = rowsOf<{ id: number | string }>(inserted);
    ids.push(String(first!.id));
  }
  return ids;
}
