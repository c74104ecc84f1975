/**
 * Batch writers into leak_records. Each `write` is one transaction: a crash loses at most the batch in
 * flight, and `ON CONFLICT (record_hash, source_id) DO NOTHING` makes a re-run skip what is already in.
 * A batch goes straight into the segment table that holds its source (leak_records_shared, or the
 * source's own leak_records_seg_<n> after a bulk load, see ./bulk.ts): uniqueness is kept per segment,
 * so the partitioned parent has no unique index to infer the conflict target from.
 *
 * - PostgreSQL: COPY (text format) into a TEMP staging table on a dedicated connection, then one
 *   INSERT ... SELECT ... ON CONFLICT DO NOTHING. COPY is the fastest way in; the INSERT gives the
 *   idempotency COPY alone cannot. Several writers may run at once (one connection each). Rows keep
 *   the file's order (ids follow it within a batch), so two batches in flight that share rows (the
 *   same row twice in a file, far apart) can deadlock: PostgreSQL then rolls one back after
 *   deadlock_timeout, and the writer retries it.
 * - PGlite: the same COPY → staging → INSERT, with the batch handed over as a /dev/blob (PGlite's way
 *   of feeding COPY ... FROM). `mode: 'insert'` uses parameterized multi-row INSERTs instead (kept for
 *   comparison; slower, see the import README).
 */
import type { PGlite, Transaction as PGliteTransaction } from '@electric-sql/pglite';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { DatabaseHandle } from '../../../db/client.ts';
import { noteOutage } from '../../../outage.ts';
import { arrayLiteral, copyText } from './copy-text.ts';
import type { PreparedLeakRecord } from './record.ts';

export { arrayLiteral, copyText, copyValue } from './copy-text.ts';

export interface LeakWriter {
  /** Inserts one batch in its own transaction; returns how many rows were new. */
  write(sourceId: string, records: readonly PreparedLeakRecord[], segment?: number): Promise<number>;
  /** The same with the batch already as COPY text (copyText()), e.g. made in a worker thread. */
  writeText(sourceId: string, text: string | Uint8Array, segment?: number): Promise<number>;
  close(): Promise<void>;
}

export interface LeakWriterOptions {
  /** PostgreSQL URL for a dedicated connection; without it one is borrowed from the handle's pool. */
  url?: string | undefined;
  /** PGlite only: 'copy' (default) or parameterized multi-row 'insert'. */
  pgliteMode?: 'copy' | 'insert';
}

export const COLUMNS =
  'record_hash, name, email, phone, username, address, other, email_norm, phone_norm, username_norm, name_tokens';

const STAGING = 'leak_import_staging';

const CREATE_STAGING = `CREATE TEMP TABLE IF NOT EXISTS ${STAGING} (
  record_hash text, name text, email text, phone text, username text, address text, other jsonb,
  email_norm text, phone_norm text, username_norm text, name_tokens text[]
) ON COMMIT DELETE ROWS`;

const CREATE_STAGING_PG = CREATE_STAGING.replace(' ON COMMIT DELETE ROWS', '');

/** The table of a segment: 0 is the shared, hash-partitioned one. */
export function segmentTable(segment: number): string {
  if (!Number.isInteger(segment) || segment < 0) throw new Error(`Not a leak segment: ${segment}`);
  return segment === 0 ? 'leak_records_shared' : `leak_records_seg_${segment}`;
}

const merge = (segment: number) => `INSERT INTO ${segmentTable(segment)} (source_id, ${COLUMNS})
  SELECT $1::uuid, ${COLUMNS} FROM ${STAGING}
  ON CONFLICT (record_hash, source_id) DO NOTHING`;

// ---------------------------------------------------------------- PostgreSQL

interface PoolLike {
  connect(): Promise<pg.PoolClient>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A connection of its own: a new one to `url`, or one borrowed from the handle's pool (`cleanup` runs
 * before it goes back).
 */
export async function dedicatedConnection(
  handle: DatabaseHandle,
  url: string | undefined,
  cleanup?: (client: pg.ClientBase) => Promise<unknown>,
): Promise<{ client: pg.Client | pg.PoolClient; release: () => Promise<void> }> {
  if (url) {
    const own = new pg.Client({ connectionString: url });
    // A connection lost between two statements emits 'error': without a listener the process exits.
    own.on('error', (err) => noteOutage('database', err));
    await own.connect();
    return { client: own, release: () => own.end() };
  }
  const pool = (handle.db as unknown as { $client?: PoolLike }).$client;
  if (!pool || typeof pool.connect !== 'function') {
    throw new Error('A PostgreSQL URL is needed to import (the database handle exposes no pool).');
  }
  const borrowed = await pool.connect();
  return {
    client: borrowed,
    release: async () => {
      if (cleanup) await cleanup(borrowed).catch(() => {});
      borrowed.release();
    },
  };
}

/** Sends `text` as COPY data for `statement` (a COPY ... FROM STDIN). */
export function copyFrom(client: pg.ClientBase, statement: string, text: string | Uint8Array): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stream = client.query(copyStreams.from(statement));
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(text);
  });
}

async function postgresWriter(handle: DatabaseHandle, options: LeakWriterOptions): Promise<LeakWriter> {
  const { client, release } = await dedicatedConnection(handle, options.url, (c) =>
    c.query(`DROP TABLE IF EXISTS ${STAGING}`),
  );
  // A plain temp table (not ON COMMIT DELETE ROWS): COPY runs in its own implicit transaction and the
  // merge below empties it. Temp tables are not WAL-logged and vanish with the connection.
  await client.query(CREATE_STAGING_PG);
  await client.query(`TRUNCATE ${STAGING}`);
  const writeText = async (sourceId: string, text: string | Uint8Array, segment = 0): Promise<number> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await writeOnce(sourceId, text, segment);
      } catch (error) {
        // Rare (see above); the deadlock victim was rolled back whole: retry it.
        if ((error as { code?: string }).code !== '40P01' || attempt >= 3) throw error;
        await client.query(`TRUNCATE ${STAGING}`);
      }
    }
  };
  const writeOnce = async (sourceId: string, text: string | Uint8Array, segment: number) => {
    if (text.length === 0) return 0;
    if (!UUID.test(sourceId)) throw new Error(`Not a source id: ${sourceId}`);
    // Two round trips a batch, one after the other (node-postgres deprecates queueing them): COPY into
    // staging, then one simple-protocol query whose statements run as a single transaction (all or
    // nothing).
    await copyFrom(client, `COPY ${STAGING} (${COLUMNS}) FROM STDIN`, text);
    const result = (await client.query(
      `${merge(segment).replace('$1::uuid', `'${sourceId}'::uuid`)}; TRUNCATE ${STAGING}`,
    )) as unknown as pg.QueryResult[];
    return result[0]?.rowCount ?? 0;
  };
  return {
    writeText,
    write: (sourceId, records, segment = 0) =>
      records.length === 0 ? Promise.resolve(0) : writeText(sourceId, copyText(records), segment),
    close: () => release(),
  };
}

// ---------------------------------------------------------------- PGlite

/** 11 parameters a row (source id is shared): 5,000 rows stay under PostgreSQL's 65,535. */
const INSERT_ROWS_PER_STATEMENT = 1_000;

function insertStatement(segment: number, sourceId: string, records: readonly PreparedLeakRecord[]) {
  const params: unknown[] = [sourceId];
  const rows: string[] = [];
  for (const r of records) {
    const p = params.length;
    rows.push(
      `($1,$${p + 1},$${p + 2},$${p + 3},$${p + 4},$${p + 5},$${p + 6},$${p + 7}::jsonb,$${p + 8},$${p + 9},$${p + 10},$${p + 11}::text[])`,
    );
    params.push(
      r.recordHash,
      r.name,
      r.email,
      r.phone,
      r.username,
      r.address,
      r.otherJson,
      r.emailNorm,
      r.phoneNorm,
      r.usernameNorm,
      r.nameTokens === null ? null : arrayLiteral(r.nameTokens),
    );
  }
  return {
    text: `INSERT INTO ${segmentTable(segment)} (source_id, ${COLUMNS}) VALUES ${rows.join(',')}
      ON CONFLICT (record_hash, source_id) DO NOTHING`,
    params,
  };
}

async function pgliteWriter(handle: DatabaseHandle, options: LeakWriterOptions): Promise<LeakWriter> {
  const client = (handle.db as unknown as { $client?: PGlite }).$client;
  if (!client || typeof client.transaction !== 'function') {
    throw new Error('The PGlite database handle exposes no client.');
  }
  const mode = options.pgliteMode ?? 'copy';
  if (mode === 'copy') await client.exec(CREATE_STAGING);
  // transaction() holds PGlite's single connection for the whole batch.
  const writeText = (sourceId: string, text: string | Uint8Array, segment = 0) =>
    text.length === 0
      ? Promise.resolve(0)
      : client.transaction(async (tx: PGliteTransaction) => {
          await tx.query(`COPY ${STAGING} (${COLUMNS}) FROM '/dev/blob'`, [], { blob: new Blob([text]) });
          const result = await tx.query(merge(segment), [sourceId]);
          return result.affectedRows ?? 0;
        });
  return {
    writeText,
    async write(sourceId, records, segment = 0) {
      if (records.length === 0) return 0;
      if (mode === 'copy') return writeText(sourceId, copyText(records), segment);
      return client.transaction(async (tx: PGliteTransaction) => {
        let inserted = 0;
        for (let i = 0; i < records.length; i += INSERT_ROWS_PER_STATEMENT) {
          const { text, params } = insertStatement(
            segment,
            sourceId,
            records.slice(i, i + INSERT_ROWS_PER_STATEMENT),
          );
          const result = await tx.query(text, params);
          inserted += result.affectedRows ?? 0;
        }
        return inserted;
      });
    },
    // The staging table stays: it is empty after every commit (ON COMMIT DELETE ROWS), and another
    // writer in this process may be using PGlite's single session too.
    async close() {},
  };
}

export function createLeakWriter(
  handle: DatabaseHandle,
  options: LeakWriterOptions = {},
): Promise<LeakWriter> {
  return handle.kind === 'postgres' ? postgresWriter(handle, options) : pgliteWriter(handle, options);
}
