import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories take either the database or an open transaction. */
export type Executor = Database | Transaction;

/**
 * Whether `db` is the embedded PGlite: one process, one connection, so a transaction there holds the
 * whole database until it ends (a query outside it waits for it).
 */
export const isEmbedded = (db: Database): boolean =>
  (db as unknown as { $client?: unknown }).$client instanceof PGlite;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite: its data directory as a tarball, which `image` starts another database from. */
  dump?(): Promise<Blob>;
}

/** Migrations live beside the source in development and are copied beside dist/main.js by the build. */
export const migrationsFolder = [
  new URL('../../drizzle', import.meta.url),
  new URL('../drizzle', import.meta.url),
]
  .map((url) => fileURLToPath(url))
  .find((path) => existsSync(join(path, 'meta', '_journal.json'))) as string;

export interface OpenOptions {
  /** A PostgreSQL URL; without it the embedded PGlite is used. */
  url?: string | undefined;
  /**
   * PostgreSQL: migrate over this URL instead (one short connection as the schema's owner), so that
   * `url` can be a role without the right to alter tables or rewrite the audit trail.
   */
  migrationUrl?: string | undefined;
  /** Where PGlite keeps its files; `memory://` or undefined keeps it in memory. */
  dataDir?: string | undefined;
  poolSize?: number;
  migrationsFolder?: string;
  /** PGlite in memory: start from this data directory (a `dump()`), instead of an empty one. */
  image?: Blob | undefined;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const folder = options.migrationsFolder ?? migrationsFolder;
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 20 });
    // An idle client that errors (server restart) must not crash the process.
    pool.on('error', () => {});
    const db = drizzleNodePg(pool, { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        if (!options.migrationUrl) return migrateNodePg(db as never, { migrationsFolder: folder });
        const owner = new pg.Pool({ connectionString: options.migrationUrl, max: 1 });
        owner.on('error', () => {});
        try {
          await migrateNodePg(drizzleNodePg(owner) as never, { migrationsFolder: folder });
        } finally {
          await owner.end();
        }
      },
      close: () => pool.end(),
    };
  }
  if (options.dataDir && options.dataDir !== 'memory://') mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({
    ...(options.dataDir && options.dataDir !== 'memory://' && { dataDir: options.dataDir }),
    ...(options.image && { loadDataDir: options.image }),
  });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: folder }),
    close: () => client.close(),
    dump: () => client.dumpDataDir('none'),
  };
}
