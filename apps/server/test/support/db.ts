import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';

/**
 * A fresh, migrated database for one test file: a new database on the real PostgreSQL when
 * TEST_DATABASE_URL is set (dropped afterwards), an in-memory PGlite otherwise.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await handle.migrate();
    return handle;
  }
  const name = `fp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 30 });
  await handle.migrate();
  return {
    ...handle,
    /** The new database's URL, as its creator (a superuser): another process may open it. */
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export const databaseKind = () => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
