/**
 * The audit trail's hash chain, recomputed in Node. The database writes it (migration 0014: a BEFORE
 * INSERT trigger under a lock on `audit_chain_head`); this module checks it without trusting any of
 * the database's hash functions: it reads each field's text and hashes it itself.
 *
 * A row's hash is the lower-case hex SHA-256 of the UTF-8 bytes of
 *   prev_hash || field(id) || field(at) || field(user_id) || field(actor_email) || field(ip)
 *   || field(device_id) || field(action) || field(target) || field(cost) || field(outcome)
 *   || field(case_reference) || field(details)
 * where prev_hash is the previous row's hash (64 zeros for the first row), field(NULL) is '~' and
 * field(text) is its UTF-8 byte length in decimal, ':' and the text. id and cost are decimal; at is
 * UTC with microseconds ('2025-01-31T09:05:00.123456Z'); user_id is the lower-case uuid; details is
 * the jsonb's own text form (PostgreSQL's canonical output: keys sorted, ', ' and ': ' between).
 * audit_chain_hash() in the migration is the same definition in SQL; change both together.
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

/** A stored row: its fields and the two hashes the trigger wrote. */
export interface StoredChainRow extends ChainRow {
  prev_hash: string;
  hash: string;
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
const CHAIN_COLUMNS = sql.raw(`id::text as id,
  to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
  user_id::text as user_id, actor_email, ip, device_id, action, target, cost::text as cost, outcome,
  case_reference, details::text as details, prev_hash, hash`);

/** The chain head as the database records it: the last chained row. */
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

/** A point on the chain that has been verified: the row and its hash (id 0: before the first row). */
export interface ChainPosition {
  id: number;
  at: string | null;
  hash: string;
  /** Rows verified from the first row through this one. */
  rows: number;
}

export const CHAIN_START: ChainPosition = { id: 0, at: null, hash: GENESIS_HASH, rows: 0 };

export interface ChainBreak {
  id: number;
  /** The row's time (UTC ISO); null when the break is a missing tail. */
  at: string | null;
  reason: 'content' | 'link' | 'head';
  message: string;
}

export interface ChainVerification {
  /** intact: verified through the head; partial: stopped at the row limit; broken: see `broken`. */
  status: 'intact' | 'partial' | 'broken';
  /** Rows read in this call. */
  checked: number;
  /** The last row verified (CHAIN_START when none). */
  verified: ChainPosition;
  /** The head read when the call started; rows written after it wait for the next call. */
  head: ChainHead;
  broken: ChainBreak | null;
}

export interface VerifyOptions {
  /** Where to continue from (a position an earlier call verified); the first row otherwise. */
  from?: ChainPosition;
  /** Stop after this many rows with status 'partial' (no limit by default). */
  maxRows?: number;
  /** Rows read per query: memory stays bounded whatever the table's size. */
  batchSize?: number;
}

const short = (hash: string) => `${hash.slice(0, 16)}…`;

/**
 * Walks the chain from `from` up to the head read at the start, in id order, a batch at a time. Each
 * row's prev_hash must be the previous row's hash and its hash must be the recomputed one; the last
 * row must be the head. The first failure ends the walk and is named.
 */
export async function verifyChain(db: Executor, options: VerifyOptions = {}): Promise<ChainVerification> {
  const batchSize = options.batchSize ?? 2000;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const head = await readChainHead(db);
  let verified = options.from ?? CHAIN_START;
  let checked = 0;
  const result = (
    status: ChainVerification['status'],
    broken: ChainBreak | null = null,
  ): ChainVerification => ({
    status,
    checked,
    verified,
    head,
    broken,
  });

  while (verified.id < head.id) {
    if (checked >= maxRows) return result('partial');
    const limit = Math.min(batchSize, maxRows - checked);
    const rows = rowsOf<StoredChainRow>(
      await db.execute(
        sql`select ${CHAIN_COLUMNS} from audit_events where id > ${verified.id} and id <= ${head.id}
            order by audit_events.id limit ${limit}`,
      ),
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const id = Number(row.id);
      checked += 1;
      if (row.prev_hash !== verified.hash) {
        const before = verified.id === 0 ? 'the start of the chain' : `row ${verified.id}`;
        return result('broken', {
          id,
          at: row.at,
          reason: 'link',
          message:
            `row ${id} (${row.at}): prev_hash ${short(row.prev_hash)} is not the hash of ${before} ` +
            `(${short(verified.hash)}): rows before it were removed, added or rewritten`,
        });
      }
      const computed = chainHash(verified.hash, row);
      if (computed !== row.hash) {
        return result('broken', {
          id,
          at: row.at,
          reason: 'content',
          message: `row ${id} (${row.at}): its content does not match its hash (stored ${short(row.hash)}, computed ${short(computed)}): the row was changed`,
        });
      }
      verified = { id, at: row.at, hash: row.hash, rows: verified.rows + 1 };
    }
  }
  if (verified.id !== head.id || verified.hash !== head.hash) {
    return result('broken', {
      id: head.id,
      at: null,
      reason: 'head',
      message:
        `the chain head records row ${head.id} (${short(head.hash)}) but the trail ends at row ` +
        `${verified.id} (${short(verified.hash)}): rows at the end were removed or rewritten`,
    });
  }
  return result('intact');
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
