import { apiKeyCapReached, insufficientCredits } from '../../errors.ts';
import { shortfallOf } from '../credits/service.ts';
import { legalBasisLineOf } from './basis.ts';
import type { SearchContext } from './context.ts';
import { refundSearch, settleNoRecord } from './refund.ts';
import { repeatSearch } from './repeat.ts';
import type { Answer, PaidSearch, Searched } from './types.ts';

/**
 * A search with a capped API key is charged only if the key's spend this calendar month (UTC) plus
 * its price stays within the cap (the KeySpending port); otherwise a 402 and a 'denied' row, before
 * any charge.
 */
function chargeWithinCap(
  ctx: SearchContext,
  search: PaidSearch<unknown>,
  charging: () => ReturnType<SearchContext['charge']>,
) {
  const key = search.client.apiKey;
  if (!key) return charging();
  return ctx.deps.keySpending.reserve(key, search.cost, {
    charge: charging,
    refuse: async (cap, spent) => {
      await ctx.auditRefusal(ctx.db, search, 'denied', {
        reason: 'api_key_monthly_cap',
        monthly_credit_cap: cap,
        spent_this_month: spent,
        price: search.cost,
      });
      ctx.meter.lookup(search.kind, 'denied');
      throw apiKeyCapReached(cap, spent, await ctx.balanceOf(search.user.id));
    },
  });
}

/** Charges a new search (or finds the charge a retried one resumes); a short balance is a 402. */
async function chargeOf(ctx: SearchContext, search: PaidSearch<unknown>, resumed: boolean) {
  const charged = resumed
    ? { lookupId: search.lookupId!, credits: await ctx.balanceOf(search.user.id) }
    : await chargeWithinCap(ctx, search, () =>
        ctx.charge({
          ...(search.lookupId ? { id: search.lookupId } : {}),
          userId: search.user.id,
          cost: search.cost,
          kind: search.kind,
          query: search.query,
          queryTyped: ctx.typedOf(search),
          ip: search.client.ip,
          deviceId: search.client.deviceId ?? null,
          caseReference: search.caseReference.value,
          apiKeyId: search.client.apiKey?.id ?? null,
          at: ctx.now(),
        }),
      );
  if (charged) {
    if (!resumed) ctx.meter.credits('charged', search.kind, search.cost);
    return charged;
  }
  const balance = await ctx.balanceOf(search.user.id);
  const pool = await shortfallOf(ctx.db, search.user.id, search.cost, ctx.now());
  await ctx.auditRefusal(ctx.db, search, 'denied', {
    reason: 'insufficient_credits',
    balance,
    price: search.cost,
    ...(pool ? { pool_unit_id: pool.unitId, pool_ran_out: pool.ranOut } : {}),
  });
  ctx.meter.lookup(search.kind, 'denied');
  throw insufficientCredits(balance, pool);
}

/** One paid search of any kind; the kind's refusals come back as the errors its `ask` chose. */
export async function runSearch<T>(ctx: SearchContext, search: PaidSearch<T>): Promise<Searched<T>> {
  const resumed =
    search.lookupId && !search.lookupIdIsNew
      ? await ctx.pendingCharge(search.lookupId, search.user.id)
      : false;
  const hit = resumed ? undefined : await ctx.reusable(search);
  if (hit) {
    const repeated = await repeatSearch(ctx, search, hit);
    await ctx.file(search, repeated.lookupId);
    ctx.meter.lookup(search.kind, 'cached');
    return repeated;
  }

  // A sensitive kind asked for now is held for a supervisor's approval (a 202), before any charge.
  if (search.held && !resumed && ctx.deps.gate) {
    await ctx.deps.gate.hold({
      user: search.user,
      client: search.client,
      kind: search.kind,
      query: search.query,
      queryTyped: ctx.typedOf(search),
      cost: search.cost,
      fresh: search.fresh,
      caseReference: search.caseReference.value,
      legalBasisLine: legalBasisLineOf(search.caseReference),
      held: search.held,
    });
  }
  const charged = await chargeOf(ctx, search, resumed);
  const { lookupId } = charged;

  let answer: Answer<T>;
  try {
    await ctx.file(search, lookupId);
    answer = await search.ask({ lookupId, reused: null });
  } catch (error) {
    // The search itself failed: give the charge back before reporting it.
    await refundSearch(ctx, search, lookupId, search.failedReason ?? 'Search failed', undefined, {
      reason: 'search_failed',
    }).catch(() => {});
    ctx.meter.lookup(search.kind, 'failed');
    throw error;
  }
  if (!answer.ok) {
    const credits = await refundSearch(
      ctx,
      search,
      lookupId,
      answer.refund,
      answer.sourceErrors,
      answer.details,
      answer.noRecord === true,
    );
    ctx.meter.lookup(search.kind, answer.noRecord === true ? 'no_record' : 'refunded');
    throw answer.error(credits);
  }
  // A lookup the recovery sweep already refunded stays refunded (recovery.ts): nothing is written.
  // Its completion time is when its sources answered, the time its answer and reports state.
  const answeredAt = ctx.now();
  const ownDetails = {
    cached: false,
    sandbox: answer.sandbox,
    sources_answered: answer.answered,
    ...(search.fresh ? { fresh: true } : {}),
    ...answer.details,
  };
  if (answer.noRecord === true) {
    // The charging rule: an answer that found nothing is kept, and not paid for.
    const credits = await settleNoRecord(ctx, search, lookupId, {
      ...answer,
      details: ownDetails,
      at: answeredAt,
    });
    ctx.meter.lookup(search.kind, 'no_record');
    return { value: answer.value, lookupId, credits, cached: false, answeredAt, reusedFrom: null };
  }
  await ctx.write({
    mode: 'settle',
    id: lookupId,
    noRecord: false,
    answered: answer.answered,
    errors: answer.errors,
    result: answer.result,
    sandbox: answer.sandbox,
    at: answeredAt,
    actorEmail: search.user.email,
    action: ctx.actionOf(search),
    target: ctx.targetOf(search),
    details: { ...ctx.queryDetails(search), ...ownDetails },
  });
  ctx.meter.lookup(search.kind, 'charged');
  return {
    value: answer.value,
    lookupId,
    credits: charged.credits,
    cached: false,
    answeredAt,
    reusedFrom: null,
  };
}
