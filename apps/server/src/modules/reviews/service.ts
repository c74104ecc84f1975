/**
 * Sampled review: a supervisor's queue of their people's searches drawn for review (sampler.ts), the
 * verdict on each (once, audited), and the searcher's view of their own searches' reviews. Who
 * reviews whom is the access policy's `reviewsWorkOf`: a supervisor of the searcher's unit or a unit
 * above, never the searcher.
 */
import { type LegalBasis, type ReviewItem, type ReviewVerdict, reviewsMessages } from '@footprint/domain';
import { and, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { lists, reviewsWorkOf } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { lookups, reviewSamples, type UserRow, users } from '../../db/schema.ts';
import { notFound, unitConflict } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIST_MAX = 200;

type LegalBasisOfLookup = (lookup: {
  id: string;
  caseReference: string | null;
  legalBasis: LegalBasis | null;
}) => Promise<string | null>;

export function createReviews(deps: { db: Database; legalBasisOfLookup: LegalBasisOfLookup }) {
  const { db } = deps;
  const searcher = alias(users, 'searcher');
  const reviewer = alias(users, 'reviewer');

  async function itemsWhere(where: SQL | undefined): Promise<ReviewItem[]> {
    const rows = await db
      .select({
        sample: reviewSamples,
        lookup: {
          id: lookups.id,
          kind: lookups.kind,
          queryTyped: lookups.queryTyped,
          status: lookups.status,
          cost: lookups.cost,
          createdAt: lookups.createdAt,
          caseReference: lookups.caseReference,
          legalBasis: lookups.legalBasis,
          sourcesAnswered: lookups.sourcesAnswered,
          sourceErrors: lookups.sourceErrors,
        },
        searcher: { id: searcher.id, name: searcher.name, email: searcher.email },
        reviewer: { id: reviewer.id, name: reviewer.name, email: reviewer.email },
      })
      .from(reviewSamples)
      .innerJoin(lookups, eq(lookups.id, reviewSamples.lookupId))
      .innerJoin(searcher, eq(searcher.id, lookups.userId))
      .leftJoin(reviewer, eq(reviewer.id, reviewSamples.reviewerId))
      .where(where)
      .orderBy(desc(reviewSamples.sampledAt), desc(lookups.createdAt))
      .limit(LIST_MAX);
    return Promise.all(
      rows.map(async ({ sample, lookup, searcher: who, reviewer: by }) => ({
        lookup_id: lookup.id,
        kind: lookup.kind,
        query_typed: lookup.queryTyped,
        status: lookup.status,
        cost: lookup.cost,
        created_at: lookup.createdAt.toISOString(),
        case_reference: lookup.caseReference,
        legal_basis: await deps.legalBasisOfLookup(lookup),
        sources_answered: lookup.sourcesAnswered,
        // A source that answered is not counted as failed for a partial error beside its answer.
        sources_failed: Object.keys(lookup.sourceErrors ?? {}).filter(
          (source) => !lookup.sourcesAnswered.includes(source),
        ),
        searcher: who,
        sampled_at: sample.sampledAt.toISOString(),
        review:
          sample.verdict && sample.reviewedAt
            ? {
                verdict: sample.verdict as ReviewVerdict,
                note: sample.note,
                reviewer: by,
                reviewed_at: sample.reviewedAt.toISOString(),
              }
            : null,
      })),
    );
  }

  return {
    /** The caller's queue: their people's sampled searches, open (not reviewed yet) or done. */
    queue: (user: UserRow, status: 'open' | 'done' = 'open') =>
      itemsWhere(
        and(
          reviewsWorkOf(user.id, lookups.userId),
          status === 'open' ? isNull(reviewSamples.verdict) : isNotNull(reviewSamples.verdict),
        ),
      ),

    /** The caller's own searches that were drawn, with their reviews. */
    mine: (user: UserRow) => itemsWhere(lists(user, lookups)),

    /** A verdict on one sampled search of the caller's people: once, audited; 404 for anything else. */
    async decide(
      user: UserRow,
      lookupId: string,
      input: { verdict: ReviewVerdict; note?: string | undefined },
      client: ClientContext,
    ): Promise<ReviewItem> {
      if (!UUID.test(lookupId)) throw notFound(reviewsMessages.notFound);
      const [found] = await db
        .select({
          id: lookups.id,
          holder: lookups.userId,
          reference: lookups.caseReference,
          verdict: reviewSamples.verdict,
        })
        .from(reviewSamples)
        .innerJoin(lookups, eq(lookups.id, reviewSamples.lookupId))
        .where(and(eq(reviewSamples.lookupId, lookupId), reviewsWorkOf(user.id, lookups.userId)));
      if (!found) throw notFound(reviewsMessages.notFound);
      await db.transaction(async (tx) => {
        const decided = await tx
          .update(reviewSamples)
          .set({
            verdict: input.verdict,
            note: input.note || null,
            reviewerId: user.id,
            reviewedAt: sql`now()`,
          })
          .where(and(eq(reviewSamples.lookupId, lookupId), isNull(reviewSamples.verdict)))
          .returning({ id: reviewSamples.lookupId });
        if (decided.length === 0) throw unitConflict(reviewsMessages.already);
        await recordAudit(tx, {
          action: 'review.decide',
          outcome: 'success',
          user,
          client,
          target: lookupId,
          caseReference: found.reference,
          details: { verdict: input.verdict, note: input.note || null, searcher_id: found.holder },
        });
      });
      const [item] = await itemsWhere(eq(reviewSamples.lookupId, lookupId));
      if (!item) throw notFound(reviewsMessages.notFound);
      return item;
    },
  };
}

export type Reviews = ReturnType<typeof createReviews>;
