import { refundPendingLookup } from '../credits/service.ts';
import type { SearchContext } from './context.ts';
import type { PaidSearch } from './types.ts';

/**
 * Closes a charged search's row as refunded (or as no_record), gives the charge back and writes its
 * failure (or no_record) audit row in one transaction; answers the balance.
 */
export async function refundSearch(
  ctx: SearchContext,
  search: PaidSearch<unknown>,
  lookupId: string,
  reason: string,
  sourceErrors: Record<string, string> | undefined,
  details: Record<string, unknown>,
  noRecord = false,
): Promise<number> {
  const credits = await ctx.db.transaction(async (tx) => {
    const after = await refundPendingLookup(tx, {
      userId: search.user.id,
      lookupId,
      cost: search.cost,
      reason,
      at: ctx.now(),
      ...(noRecord ? { status: 'no_record' as const } : {}),
      ...(sourceErrors ? { set: { sourceErrors } } : {}),
    });
    await ctx.auditRefusal(tx, search, noRecord ? 'no_record' : 'failure', {
      lookup_id: lookupId,
      ...details,
      refunded: search.cost,
    });
    return after;
  });
  return credits ?? (await ctx.balanceOf(search.user.id));
}
