import type { AuditChainState } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { CHAIN_START, type ChainBreak, type ChainHead, type ChainPosition, verifyChain } from './chain.ts';

/** Rows one request of the admin screen verifies at most (about half a second on a 2-core machine). */
export const CHAIN_STEP_ROWS = 10_000;

/**
 * The admin screen's view of the hash chain, verified incrementally: each call goes on from the
 * last row this process verified, at most `stepRows` rows, so a large trail costs no request more
 * than a bounded walk (the screen says 'checking' and asks again). Before going on, the last
 * verified row is read again: if its hash changed the walk starts over from the first row. Rows
 * verified earlier are not re-read on each call; `npm run cli -- audit:verify` walks them all. A
 * break, once found, stays reported until the process restarts. One walk at a time: concurrent
 * callers share it.
 */
export function createChainMonitor(db: Database, options: { stepRows?: number; now?: () => Date } = {}) {
  const stepRows = options.stepRows ?? CHAIN_STEP_ROWS;
  const now = options.now ?? (() => new Date());
  let position: ChainPosition = CHAIN_START;
  let head: ChainHead = { id: 0, hash: CHAIN_START.hash };
  let broken: ChainBreak | null = null;
  let status: AuditChainState['status'] = 'checking';
  let running: Promise<AuditChainState> | null = null;

  async function stillHolds(at: ChainPosition): Promise<boolean> {
    if (at.id === 0) return true;
    const [row] = rowsOf<{ hash: string }>(
      await db.execute(sql`select hash from audit_events where id = ${at.id}`),
    );
    return row?.hash === at.hash;
  }

  async function advance(): Promise<AuditChainState> {
    if (!broken) {
      if (!(await stillHolds(position))) position = CHAIN_START;
      const check = await verifyChain(db, { from: position, maxRows: stepRows });
      position = check.verified;
      head = check.head;
      broken = check.broken;
      status = check.status === 'partial' ? 'checking' : check.status;
    }
    return {
      status,
      rows_verified: position.rows,
      verified_through: position.id === 0 ? null : { id: position.id, at: position.at, hash: position.hash },
      head,
      broken,
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
