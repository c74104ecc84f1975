import type { AuditChainState } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { CHAIN_COLUMNS, type ChainHead, type StoredChainRow } from './chain.ts';
import type { NoteVerifier } from './checkpoint.ts';
import {
  rowLeaf,
  type StoredCheckpoint,
  TRAIL_START,
  type TrailBreak,
  type TrailPosition,
  verifyTrail,
} from './verify.ts';

/** Rows one request of the admin screen verifies at most (about half a second on a 2-core machine). */
export const CHAIN_STEP_ROWS = 10_000;

/**
 * The admin screen's view of the audit trail (verify.ts), verified incrementally: each call goes on
 * from the last row this process verified, at most `stepRows` rows, so a large trail costs no request
 * more than a bounded walk (the screen says 'checking' and asks again). Before going on, the last
 * verified row is read again: if it no longer gives its hash the walk starts over from the first row.
 * Rows verified earlier are not re-read on each call; `npm run cli -- audit:verify` walks them all. A
 * break, once found, stays reported until the process restarts. One walk at a time: concurrent
 * callers share it.
 */
export function createChainMonitor(
  db: Database,
  options: { stepRows?: number; now?: () => Date; verifier?: NoteVerifier } = {},
) {
  const stepRows = options.stepRows ?? CHAIN_STEP_ROWS;
  const now = options.now ?? (() => new Date());
  let position: TrailPosition = TRAIL_START;
  let head: ChainHead = { id: 0, hash: TRAIL_START.hash };
  let checkpoint: StoredCheckpoint | null = null;
  let pending = 0;
  let broken: TrailBreak | null = null;
  let status: AuditChainState['status'] = 'checking';
  let running: Promise<AuditChainState> | null = null;

  async function stillHolds(at: TrailPosition): Promise<boolean> {
    if (at.id === 0) return true;
    const [row] = rowsOf<StoredChainRow>(
      await db.execute(sql`select ${CHAIN_COLUMNS} from audit_events where id = ${at.id}`),
    );
    if (!row) return false;
    return at.id <= head.id ? row.hash === at.hash : rowLeaf(row).toString('hex') === at.hash;
  }

  async function advance(): Promise<AuditChainState> {
    if (!broken) {
      if (!(await stillHolds(position))) position = TRAIL_START;
      const check = await verifyTrail(db, { from: position, maxRows: stepRows, verifier: options.verifier });
      position = check.verified;
      head = check.head;
      checkpoint = check.checkpoint;
      pending = check.pending;
      broken = check.broken;
      // Rows written but nothing sealed yet (a new trail, within a second): not verified, ask again.
      const unsealed = check.status === 'intact' && !check.checkpoint && check.pending > 0;
      status = check.status === 'partial' || unsealed ? 'checking' : check.status;
    }
    return {
      status,
      rows_verified: position.rows,
      verified_through: position.id === 0 ? null : { id: position.id, at: position.at, hash: position.hash },
      head,
      broken,
      tree_size: checkpoint?.treeSize ?? 0,
      pending,
      checkpoint: checkpoint && {
        tree_size: checkpoint.treeSize,
        last_id: checkpoint.lastId,
        root_hash: checkpoint.rootHash,
        at: checkpoint.at,
      },
      checked_at: now().toISOString(),
    };
  }

  return {
    state(): Promise<AuditChainState> {
      running ??= advance().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

export type ChainMonitor = ReturnType<typeof createChainMonitor>;
