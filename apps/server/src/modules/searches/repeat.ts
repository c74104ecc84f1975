import { randomUUID } from 'node:crypto';
import type { SearchContext } from './context.ts';
import type { Reusable } from './reuse.ts';
import type { Answer, PaidSearch, ReusedSearch, Searched } from './types.ts';

type Written = Awaited<ReturnType<SearchContext['write']>>;

const creditsOf = (written: Written): number => {
  if (!written.written || written.credits === null) throw new Error('a repeated search was not written');
  return written.credits;
};

/**
 * An identical recent search, served free on a new cost-0 row that points at the paid one: its stored
 * answer replayed, or (the leak search paging its paid run) asked again at no charge.
 */
export async function repeatSearch<T>(
  ctx: SearchContext,
  search: PaidSearch<T>,
  hit: Reusable,
): Promise<Searched<T>> {
  const lookupId = search.lookupId ?? randomUUID();
  const reusedFrom: ReusedSearch = { lookupId: hit.id, caseReference: hit.caseReference };
  const row = {
    mode: 'repeat' as const,
    id: lookupId,
    userId: search.user.id,
    kind: search.kind,
    query: search.query,
    queryTyped: ctx.typedOf(search),
    cacheOf: hit.id,
    ip: search.client.ip,
    deviceId: search.client.deviceId ?? null,
    caseReference: search.caseReference.value,
    at: ctx.now(),
    actorEmail: search.user.email,
    action: ctx.actionOf(search),
    target: ctx.targetOf(search),
  };
  if (typeof search.reuse === 'object') {
    const written = await ctx.write({
      ...row,
      noRecord: hit.status === 'no_record',
      answered: hit.answered,
      errors: hit.errors,
      sandbox: hit.sandbox,
      details: {
        ...ctx.queryDetails(search),
        cached: true,
        cache_of: hit.id,
        sandbox: hit.sandbox,
        sources_answered: hit.answered,
      },
    });
    return {
      value: search.reuse.replay(hit),
      lookupId,
      credits: creditsOf(written),
      cached: true,
      answeredAt: hit.answeredAt,
      reusedFrom,
    };
  }
  let answer: Answer<T>;
  try {
    answer = await search.ask({ lookupId, reused: hit });
  } catch (error) {
    await ctx
      .auditRefusal(ctx.db, search, 'failure', { cache_of: hit.id, reason: 'search_failed', refunded: 0 })
      .catch(() => {});
    throw error;
  }
  if (!answer.ok) {
    await ctx.auditRefusal(ctx.db, search, answer.noRecord ? 'no_record' : 'failure', {
      cache_of: hit.id,
      ...answer.details,
      refunded: 0,
    });
    throw answer.error(await ctx.balanceOf(search.user.id));
  }
  const answeredAt = ctx.now();
  const written = await ctx.write({
    ...row,
    at: answeredAt,
    noRecord: answer.noRecord === true,
    answered: answer.answered,
    errors: answer.errors,
    sandbox: answer.sandbox,
    details: {
      ...ctx.queryDetails(search),
      cached: true,
      cache_of: hit.id,
      sandbox: answer.sandbox,
      sources_answered: answer.answered,
      ...answer.details,
    },
  });
  return { value: answer.value, lookupId, credits: creditsOf(written), cached: true, answeredAt, reusedFrom };
}
