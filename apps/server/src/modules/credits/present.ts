import type { OwnPool, StatementEntry } from '@footprint/domain';
import type { creditEntries } from '../../db/schema.ts';
import type { poolOf } from './service.ts';

/** A ledger row as the credit statements and the admin API show it, with the pool's name if one paid. */
export const presentLedgerEntry = (
  row: typeof creditEntries.$inferSelect,
  unitName: string | null = null,
): StatementEntry => ({
  id: row.id,
  at: row.createdAt.toISOString(),
  delta: row.delta,
  balance_after: row.balanceAfter,
  kind: row.kind,
  reason: row.reason,
  lookup_id: row.lookupId,
  unit_id: row.unitId,
  unit_name: row.unitId ? unitName : null,
});

/** The caller's own pool (GET /api/user). */
export const presentOwnPool = (pool: Awaited<ReturnType<typeof poolOf>>): OwnPool | null =>
  pool && {
    unit_id: pool.unitId,
    unit_name: pool.unitName,
    balance: pool.pool,
    monthly_allowance: pool.allowance,
    used_this_month: pool.used,
    available: Math.max(0, Math.min(pool.pool, pool.allowance - pool.used)),
  };
