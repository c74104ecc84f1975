/**
 * The bulk path for a NEW source (PostgreSQL only): its rows go into a standalone table without any
 * index, leak_records_seg_<n>; at the end the table gets the leak index's indexes (several built at
 * once), and is attached to leak_records as LIST partition (segment) n. See ./README.md.
 *
 * - Idempotency: rows are deduplicated (same record_hash) before the unique index is built, so a file
 *   with a row twice, or loaded twice into an unfinished segment, still stores it once.
 * - Crash and resume: every batch commits together with its checkpoint row in leak_bulk_batches (the
 *   physical lines it covered). A re-run of the same file skips those lines' rows; every step of the
 *   finish is idempotent (CREATE INDEX IF NOT EXISTS; the attach and the bookkeeping commit together).
 * - Until the attach, searches do not see the source's rows (they appear all at once).
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type pg from 'pg';
import type { DatabaseHandle } from '../../../db/client.ts';
import { COLUMNS, copyFrom, dedicatedConnection, segmentTable } from './writer.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Size and sha256 of the first MiB: ties a checkpoint to the file it was made from. */
export async function fileFingerprint(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const buffer = Buffer.alloc(Math.min(size, 1 << 20));
    await file.read(buffer, 0, buffer.length, 0);
    return `${size}:${createHash('sha256').update(buffer).digest('hex')}`;
  } finally {
    await file.close();
  }
}

type Client = pg.Client | pg.PoolClient;

interface Connection {
  client: Client;
  release: () => Promise<void>;
}

/** The indexes every segment carries (the parent's, see migration leak_segments), as built here. */
function indexStatements(table: string): string[] {
  return [
    `CREATE UNIQUE INDEX IF NOT EXISTS ${table}_pkey ON ${table} (record_hash, source_id)`,
    `CREATE INDEX IF NOT EXISTS ${table}_email_idx ON ${table} (email_norm, id)`,
    `CREATE INDEX IF NOT EXISTS ${table}_phone_idx ON ${table} (phone_norm, id)`,
    `CREATE INDEX IF NOT EXISTS ${table}_username_idx ON ${table} (username_norm, id)`,
    `CREATE INDEX IF NOT EXISTS ${table}_name_idx ON ${table} USING gin (name_tokens) WITH (fastupdate = off)`,
    `CREATE INDEX IF NOT EXISTS ${table}_id_idx ON ${table} (id)`,
    `CREATE INDEX IF NOT EXISTS ${table}_source_idx ON ${table} (source_id)`,
  ];
}

export interface BulkLoad {
  segment: number;
  table: string;
  /** Line ranges already committed by an earlier, interrupted run of the same file. */
  committed: [number, number][];
  /** Rows those ranges hold. */
  committedRows: number;
  /** Writes one batch (COPY text) and its checkpoint in one transaction, on connection `slot`. */
  write(slot: number, text: Uint8Array, rows: number, firstLine: number, lastLine: number): Promise<number>;
  /**
   * Deduplicates, builds the indexes (`parallel` at a time), attaches the segment and records it as
   * the source's. Returns the rows removed as duplicates.
   */
  finish(): Promise<number>;
  close(): Promise<void>;
}

export interface BulkOptions {
  handle: DatabaseHandle;
  /** URL of a role that owns leak_records (DDL); without it, connections come from the handle's pool. */
  url: string | undefined;
  sourceId: string;
  fingerprint: string;
  /** Connections writing at once (and index builds at once at the end). */
  writers: number;
  /** maintenance_work_mem of the index builds, e.g. '256MB'. */
  maintenanceWorkMem?: string | undefined;
}

/** Whether this connection's role may create and attach segments (owns leak_records). */
export async function mayBulkLoad(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(
    `SELECT pg_has_role(current_user, c.relowner, 'USAGE') AS ok FROM pg_class c
      WHERE c.oid = 'public.leak_records'::regclass AND c.relkind = 'p'`,
  );
  return rows[0]?.ok === true;
}

/** The unfinished bulk load of a source, if any. */
export async function unfinishedBulkLoad(
  client: pg.ClientBase,
  sourceId: string,
): Promise<{ segment: number; fingerprint: string } | null> {
  const { rows } = await client.query<{ segment: number; file_fingerprint: string }>(
    'SELECT segment, file_fingerprint FROM leak_bulk_loads WHERE source_id = $1',
    [sourceId],
  );
  const row = rows[0];
  return row ? { segment: row.segment, fingerprint: row.file_fingerprint } : null;
}

/** True when the source has no records yet (in its segment) and no unfinished bulk load. */
export async function sourceIsEmpty(client: pg.ClientBase, sourceId: string, segment: number) {
  const { rows } = await client.query(`SELECT 1 FROM ${segmentTable(segment)} WHERE source_id = $1 LIMIT 1`, [
    sourceId,
  ]);
  return rows.length === 0;
}

/**
 * Starts (or resumes) the bulk load of a source. `control` is a connection holding the source's
 * advisory lock for the whole import; it also runs the DDL.
 */
export async function startBulkLoad(options: BulkOptions, control: Client): Promise<BulkLoad> {
  const { sourceId } = options;
  if (!UUID.test(sourceId)) throw new Error(`Not a source id: ${sourceId}`);
  await control.query('BEGIN');
  let segment: number;
  let committed: [number, number][] = [];
  let committedRows = 0;
  try {
    const existing = await unfinishedBulkLoad(control, sourceId);
    if (existing) {
      segment = existing.segment;
      if (existing.fingerprint === options.fingerprint) {
        const { rows } = await control.query<{ first_row: string; last_row: string; rows: number }>(
          'SELECT first_row, last_row, rows FROM leak_bulk_batches WHERE source_id = $1 ORDER BY first_row',
          [sourceId],
        );
        committed = rows.map((r) => [Number(r.first_row), Number(r.last_row)]);
        committedRows = rows.reduce((sum, r) => sum + r.rows, 0);
      } else {
        // Another file: its lines say nothing about this one. Keep the rows (the finish deduplicates)
        // and load the whole new file.
        await control.query('DELETE FROM leak_bulk_batches WHERE source_id = $1', [sourceId]);
        await control.query('UPDATE leak_bulk_loads SET file_fingerprint = $2 WHERE source_id = $1', [
          sourceId,
          options.fingerprint,
        ]);
      }
    } else {
      const { rows } = await control.query<{ segment: number }>(
        `INSERT INTO leak_bulk_loads (source_id, segment, file_fingerprint)
           VALUES ($1, nextval('leak_segment_seq'), $2) RETURNING segment`,
        [sourceId, options.fingerprint],
      );
      segment = (rows[0] as { segment: number }).segment;
    }
    const table = segmentTable(segment);
    // No index, no foreign key while loading; the checks make ATTACH skip its scan of the rows.
    await control.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
        id bigint DEFAULT nextval('leak_records_id_seq') NOT NULL,
        source_id uuid DEFAULT '${sourceId}' NOT NULL CONSTRAINT ${table}_source_check CHECK (source_id = '${sourceId}'),
        record_hash text NOT NULL, name text, email text, phone text, username text, address text,
        other jsonb, email_norm text, phone_norm text, username_norm text, name_tokens text[],
        segment integer DEFAULT ${segment} NOT NULL CONSTRAINT ${table}_segment_check CHECK (segment = ${segment})
      )`,
    );
    await control.query('COMMIT');
  } catch (error) {
    await control.query('ROLLBACK').catch(() => {});
    throw error;
  }

  const table = segmentTable(segment);
  const connections: Connection[] = [];
  const connection = async (slot: number): Promise<Client> => {
    while (connections.length <= slot) {
      connections.push(await dedicatedConnection(options.handle, options.url));
    }
    return (connections[slot] as Connection).client;
  };

  return {
    segment,
    table,
    committed,
    committedRows,
    async write(slot, text, rows, firstLine, lastLine) {
      if (rows === 0) return 0;
      const client = await connection(slot);
      // The batch's rows and its checkpoint commit together or not at all. One statement at a time on
      // the connection (node-postgres deprecates queueing them): the other writers' batches fill the
      // round trips.
      await client.query('BEGIN');
      try {
        await copyFrom(client, `COPY ${table} (${COLUMNS}) FROM STDIN`, text);
        await client.query(
          `INSERT INTO leak_bulk_batches (source_id, first_row, last_row, rows)
             VALUES ('${sourceId}', ${firstLine}, ${lastLine}, ${rows}); COMMIT`,
        );
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
      return rows;
    },
    async finish() {
      const memory = options.maintenanceWorkMem ?? '256MB';
      if (!/^\d+\s*[kMG]?B$/.test(memory)) throw new Error(`Not a memory size: ${memory}`);
      // Exact duplicates (a row twice in the file, a file loaded twice) would fail the unique index:
      // find them the cheap way first, with the index build itself.
      let removed = 0;
      const [unique, ...rest] = indexStatements(table) as [string, ...string[]];
      await control.query(`SET maintenance_work_mem = '${memory}'`);
      try {
        await control.query(unique);
      } catch (error) {
        if ((error as { code?: string }).code !== '23505') throw error;
        const result = await control.query(
          `DELETE FROM ${table} t USING (
             SELECT record_hash, min(ctid) AS keep FROM ${table} GROUP BY record_hash HAVING count(*) > 1
           ) d WHERE t.record_hash = d.record_hash AND t.ctid <> d.keep`,
        );
        removed = result.rowCount ?? 0;
        await control.query(unique);
      }
      // The other six, `writers` at a time (CREATE INDEX takes a SHARE lock: builds run side by side).
      const queue = [...rest];
      const lanes = Math.max(1, Math.min(options.writers, queue.length));
      await Promise.all(
        Array.from({ length: lanes }, async (_, slot) => {
          const client = await connection(slot);
          await client.query(`SET maintenance_work_mem = '${memory}'`);
          for (let ddl = queue.shift(); ddl !== undefined; ddl = queue.shift()) await client.query(ddl);
        }),
      );
      await control.query(`ANALYZE ${table}`);
      await control.query('BEGIN');
      try {
        // Every row holds this source (the CHECK above), which exists: NOT VALID skips a scan to
        // prove it again; deletes still cascade.
        await control.query(
          `DO $$ BEGIN
             ALTER TABLE ${table} ADD CONSTRAINT ${table}_source_fk FOREIGN KEY (source_id)
               REFERENCES leak_sources (id) ON DELETE CASCADE NOT VALID;
           EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
        );
        await control.query(`ALTER TABLE leak_records ATTACH PARTITION ${table} FOR VALUES IN (${segment})`);
        await control.query('UPDATE leak_sources SET segment = $2 WHERE id = $1', [sourceId, segment]);
        await control.query('DELETE FROM leak_bulk_loads WHERE source_id = $1', [sourceId]);
        await control.query('COMMIT');
      } catch (error) {
        await control.query('ROLLBACK').catch(() => {});
        throw error;
      }
      return removed;
    },
    async close() {
      await Promise.all(connections.splice(0).map((c) => c.release()));
    },
  };
}
