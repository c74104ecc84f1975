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
  if (credits !== null) ctx.meter.credits('refunded', search.kind, search.cost);
  return credits ?? (await ctx.balanceOf(search.user.id));
}

/**
 * An answer that found nothing (`noRecord`): kept like any answer (its result, the sources that
 * answered, their errors; history and a free repeat reopen it) but not paid for. The row closes as
 * no_record, the charge goes back and the no_record audit row is written, in one transaction; answers
 * the balance. The charging rule (README, "Credits"): a record is charged, "no record" is not.
 */
export async function settleNoRecord(
  ctx: SearchContext,
  search: PaidSearch<unknown>,
  lookupId: string,
  answer: {
    answered: string[];
    errors: Record<string, string>;
    result: unknown;
    sandbox: boolean;
    details: Record<string, unknown>;
    /** When the sources answered: the row's completion, the time its answer and reports state. */
    at: Date;
  },
): Promise<number> {
  const credits = await ctx.db.transaction(async (tx) => {
    const after = await refundPendingLookup(tx, {
      userId: search.user.id,
      lookupId,
      cost: search.cost,
      reason: 'No record found',
      at: answer.at,
      status: 'no_record',
      set: {
        sourcesAnswered: answer.answered,
        sourceErrors: answer.errors,
        result: answer.result ?? null,
        sandbox: answer.sandbox,
      },
    });
    await ctx.auditRefusal(tx, search, 'no_record', {
      lookup_id: lookupId,
      ...answer.details,
      refunded: search.cost,
    });
    return after;
  });
  if (credits !== null) ctx.meter.credits('refunded', search.kind, search.cost);
  return credits ?? (await ctx.balanceOf(search.user.id));
}
