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
import { noteOutage, noteReachable, watchRecovery } from '../outage.ts';
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
  /** PostgreSQL: the pool's clients right now (total, idle, waiting for one); absent on PGlite. */
  poolUse?(): { total: number; idle: number; waiting: number };
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

/**
 * A pool that outlives an outage of its database. A connection that breaks emits 'error' on its
 * client: the pool listens only while the client is idle, so a client checked out between two
 * statements (a transaction) would have no listener and the process would exit. Each client gets
 * one of its own; the statement in flight fails, the broken client is dropped on release, and the
 * outage is noted once (outage.ts). A new connection is the sign the database is back.
 */
export function guardPool(pool: pg.Pool): void {
  pool.on('error', (err) => noteOutage('database', err));
  pool.on('connect', (client) => {
    client.on('error', (err) => noteOutage('database', err));
    noteReachable('database');
  });
}

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

/**
 * The advisory lock key migrations run under (any fixed 64-bit number: this one spells "footprint
 * migrate" in no particular encoding). Advisory locks belong to one database, so two deployments
 * on one server do not wait on each other.
 */
export const MIGRATION_LOCK_KEY = 4_711_031_900_421n;

/**
 * PostgreSQL: migrates on one dedicated connection holding `pg_advisory_lock(MIGRATION_LOCK_KEY)`,
 * so that processes started together on an empty database take turns: the first applies the
 * migrations, the others then find nothing to do (Drizzle's migrator creates its schema and table
 * with IF NOT EXISTS, which two sessions at once can still collide on). The lock goes with the
 * session, so a process that dies while migrating releases it.
 */
async function migrateLocked(url: string, folder: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migrateNodePg(drizzleNodePg(client) as never, { migrationsFolder: folder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    await client.end();
  }
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const folder = options.migrationsFolder ?? migrationsFolder;
  const { url } = options;
  if (url) {
    // An idle connection is closed after a minute, not node-postgres's 10 s: under a load that ebbs
    // and flows within seconds, 10 s closed and reopened a connection every second or so per process,
    // each a new PostgreSQL backend (a fork, its caches filled again, every named statement planned
    // again, its memory unmapped at exit): with 4 processes, 2 a second on the shared database.
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 20,
      idleTimeoutMillis: 60_000,
    });
    guardPool(pool);
    // While the database is down, a `select 1` a second tells when it is back (outage.ts).
    const unwatch = watchRecovery('database', () => pool.query('select 1'));
    const db = drizzleNodePg(pool, { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      migrate: () => migrateLocked(options.migrationUrl ?? url, folder),
      close: async () => {
        unwatch();
        await pool.end();
      },
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
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
