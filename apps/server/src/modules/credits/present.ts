import type { StatementEntry } from '@footprint/domain';
import type { creditEntries } from '../../db/schema.ts';

/** A ledger row as the credit statement and the admin API show it. */
export const presentLedgerEntry = (row: typeof creditEntries.$inferSelect): StatementEntry => ({
  id: row.id,
  at: row.createdAt.toISOString(),
  delta: row.delta,
  balance_after: row.balanceAfter,
  kind: row.kind,
  reason: row.reason,
  lookup_id: row.lookupId,
});
