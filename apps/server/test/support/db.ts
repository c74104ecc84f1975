import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, migrationsFolder, openDatabase } from '../../src/db/client.ts';

/**
 * A fresh, migrated database for one test file: a new database on the real PostgreSQL when
 * TEST_DATABASE_URL is set (dropped afterwards), an in-memory PGlite otherwise.
 *
 * Running the migrations was most of the cost of a test app (a few hundred statements, for every
 * file and for many tests), so they run once: on PostgreSQL into a template database named after the
 * migrations' hash, which every test database is copied from (`create database … template …`, a file
 * copy); on PGlite into one in-memory database per worker, whose data directory every later one
 * loads. A change to any migration gives a new hash, so a stale template is never used.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({ dataDir: 'memory://', image: await pgliteImage() });
    await handle.migrate();
    return handle;
  }
  const template = await postgresTemplate(adminUrl);
  const name = `fp_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`create database ${name} template ${template}`));
  const url = databaseUrl(adminUrl, name);
  const handle = await openDatabase({ url, poolSize: 30 });
  // Already current: drizzle reads its journal and finds nothing to run.
  await handle.migrate();
  return {
    ...handle,
    /** The new database's URL, as its creator (a superuser): another process may open it. */
    url,
    async close() {
      await handle.close();
      await withAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

export const databaseKind = () => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

/** The migrations' fingerprint: every file of the folder, names and contents. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(adminUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

let template: Promise<string> | undefined;

/**
 * The migrated template database on PostgreSQL, made once for all processes: under an advisory lock,
 * built under a temporary name and renamed when complete, so a process never copies a half-migrated
 * one. When a new one is made the older ones are dropped but the two newest: another checkout (a CI
 * run beside a change of the migrations) may be copying its own at that moment.
 */
function postgresTemplate(adminUrl: string): Promise<string> {
  template ??= withAdmin(adminUrl, async (admin) => {
    const name = `fp_template_${migrationsHash()}`;
    await admin.query(`select pg_advisory_lock(hashtext('footprint test template'))`);
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return name;
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const handle = await openDatabase({ url: databaseUrl(adminUrl, building), poolSize: 1 });
      try {
        await handle.migrate();
      } finally {
        await handle.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
      const stale = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like 'fp\\_template\\_%' and datname <> $1
          order by oid desc offset 2`,
        [name],
      );
      for (const { datname } of stale.rows)
        await admin.query(`drop database if exists ${datname} with (force)`);
      return name;
    } finally {
      await admin.query(`select pg_advisory_unlock(hashtext('footprint test template'))`);
    }
  });
  return template;
}

let image: Promise<Blob> | undefined;

/** A migrated PGlite data directory, made once per worker process. */
function pgliteImage(): Promise<Blob> {
  image ??= (async () => {
    const handle = await openDatabase({ dataDir: 'memory://' });
    try {
      await handle.migrate();
      if (!handle.dump) throw new Error('PGlite cannot dump its data directory');
      return await handle.dump();
    } finally {
      await handle.close();
    }
  })();
  return image;
}
