/**
 * The audit trail's legacy hash chain (the rows written before migration 0027), recomputed in Node,
 * and the canonical content of a row, which is also the leaf of the Merkle tree that seals every row
 * (merkle.ts, sealer.ts). Migration 0014's trigger wrote the chain under a lock on `audit_chain_head`;
 * 0027 dropped that trigger and froze the head at the last chained row. This module checks the chain
 * without trusting any of the database's hash functions: it reads each field's text and hashes it.
 *
 * A row's hash is the lower-case hex SHA-256 of the UTF-8 bytes of
 *   prev_hash || field(id) || field(at) || field(user_id) || field(actor_email) || field(ip)
 *   || field(device_id) || field(action) || field(target) || field(cost) || field(outcome)
 *   || field(case_reference) || field(details)
 * where prev_hash is the previous row's hash (64 zeros for the first row), field(NULL) is '~' and
 * field(text) is its UTF-8 byte length in decimal, ':' and the text. id and cost are decimal; at is
 * UTC with microseconds ('2025-01-31T09:05:00.123456Z'); user_id is the lower-case uuid; details is
 * the jsonb's own text form (PostgreSQL's canonical output: keys sorted, ', ' and ': ' between).
 * audit_chain_hash() in migration 0014 is the same definition in SQL.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

export const GENESIS_HASH = '0'.repeat(64);

/** The fields of one row as text, exactly as they enter the hash (null stays null). */
export interface ChainRow {
  id: string;
  at: string;
  user_id: string | null;
  actor_email: string | null;
  ip: string | null;
  device_id: string | null;
  action: string;
  target: string | null;
  cost: string | null;
  outcome: string;
  case_reference: string | null;
  details: string | null;
}

/** A stored row: its fields and the two hashes the trigger wrote (NULL on rows since 0027). */
export interface StoredChainRow extends ChainRow {
  prev_hash: string | null;
  hash: string | null;
}

const CONTENT_FIELDS = [
  'id',
  'at',
  'user_id',
  'actor_email',
  'ip',
  'device_id',
  'action',
  'target',
  'cost',
  'outcome',
  'case_reference',
  'details',
] as const satisfies ReadonlyArray<keyof ChainRow>;

const field = (value: string | null) =>
  value === null ? '~' : `${Buffer.byteLength(value, 'utf8')}:${value}`;

/** The canonical content of a row: its fields in the fixed order, each length-prefixed. */
export const canonicalContent = (row: ChainRow): string =>
  CONTENT_FIELDS.map((name) => field(row[name])).join('');

export const chainHash = (prevHash: string, row: ChainRow): string =>
  createHash('sha256')
    .update(prevHash + canonicalContent(row), 'utf8')
    .digest('hex');

/** The select list that reads a row's fields as the hash takes them. */
export const CHAIN_COLUMNS = sql.raw(`id::text as id,
  to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
  user_id::text as user_id, actor_email, ip, device_id, action, target, cost::text as cost, outcome,
  case_reference, details::text as details, prev_hash, hash`);

/** The end of the legacy chain as the database records it: the last chained row (frozen by 0027). */
export interface ChainHead {
  id: number;
  hash: string;
}

export async function readChainHead(db: Executor): Promise<ChainHead> {
  const [row] = rowsOf<{ last_id: string | number; hash: string }>(
    await db.execute(sql`select last_id, hash from audit_chain_head where id = 1`),
  );
  return row ? { id: Number(row.last_id), hash: row.hash } : { id: 0, hash: GENESIS_HASH };
}

/**
 * Whether the role this connection uses could rewrite the trail (own it, be a member of its owner, or
 * hold UPDATE, DELETE or TRUNCATE on it), for the start-up banner: the separation of docs/security.md
 * is in place only when it could not.
 */
export async function roleCanRewriteTrail(db: Executor): Promise<boolean> {
  const [row] = rowsOf<{ can: boolean }>(
    await db.execute(sql`select
      pg_has_role((select relowner from pg_class where oid = 'public.audit_events'::regclass), 'USAGE')
      or has_table_privilege('public.audit_events', 'UPDATE')
      or has_table_privilege('public.audit_events', 'DELETE')
      or has_table_privilege('public.audit_events', 'TRUNCATE') as can`),
  );
  return row?.can !== false;
}
