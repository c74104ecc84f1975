/**
 * What every step of a paid search shares: the database, the group-committed charge and settle
 * writers, and the small reads and audit rows each step needs.
 */

import { cleanTypedQuery, type LegalBasis, legalBasisAuditDetails } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { heldBy } from '../../access/policy.ts';
import type { Executor } from '../../db/client.ts';
import { lookups, users } from '../../db/schema.ts';
import { recordAudit, withApiKey } from '../audit/service.ts';
import { readDeploymentSettings } from '../settings/service.ts';
import { localWriters } from './host-writer.ts';
import type { SearchMeter } from './ports.ts';
import { findReusable, type Reusable, reuseWindowStart } from './reuse.ts';
import type { PaidSearch, SearchesDeps } from './types.ts';

const NO_METER: SearchMeter = { lookup: () => {}, credits: () => {} };

/**
 * The audit keys of the legal basis a search states itself: the same keys as its case's (which they
 * replace, since the search's own basis is the one it ran on), and `legal_basis_stated: true`.
 */
const searchBasisDetails = (basis: LegalBasis | null): Record<string, unknown> =>
  basis ? { ...legalBasisAuditDetails(basis), legal_basis_stated: true } : {};

export function createSearchContext(deps: SearchesDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const writers = deps.writers ?? localWriters(db);
  const typedOf = (search: PaidSearch<unknown>) => cleanTypedQuery(search.queryTyped, search.query);
  const actionOf = (search: PaidSearch<unknown>) => search.action ?? `lookup.${search.kind}`;
  const targetOf = (search: PaidSearch<unknown>) => search.target ?? search.query;

  /**
   * Every audit row of a search names its query as typed and as matched, its case's legal basis, the
   * caller's own details (a watch run names its watch), and the API key it was made with
   * (`api_key_id`, `api_key_name`), if any.
   */
  const queryDetails = (search: PaidSearch<unknown>) =>
    withApiKey(
      {
        query_typed: typedOf(search),
        query: search.query,
        ...deps.cases.auditDetails(search.caseReference.case),
        ...searchBasisDetails(search.caseReference.legalBasis),
        ...search.auditDetails,
      },
      search.client.apiKey,
    );

  return {
    deps,
    db,
    now,
    meter: deps.metrics ?? NO_METER,
    charge: writers.charge,
    write: writers.write,
    typedOf,
    actionOf,
    targetOf,
    queryDetails,

    async balanceOf(userId: string): Promise<number> {
      const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
      return row?.credits ?? 0;
    },

    /** A charged, unanswered lookups row of this id and user: the charge a retried search resumes. */
    async pendingCharge(id: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: lookups.id })
        .from(lookups)
        .where(and(eq(lookups.id, id), heldBy(lookups, userId), eq(lookups.status, 'pending')));
      return row !== undefined;
    },

    /** The user's identical recent search that this one may reuse, unless it must not. */
    async reusable(search: PaidSearch<unknown>): Promise<Reusable | undefined> {
      if (search.fresh || search.reuse === 'never' || deps.cacheHours <= 0) return undefined;
      const { lookupRetentionDays } = await readDeploymentSettings(db, deps.settings);
      return findReusable(db, {
        userId: search.user.id,
        kind: search.kind,
        query: search.query,
        since: reuseWindowStart(now(), deps.cacheHours, lookupRetentionDays),
      });
    },

    /**
     * Files a search under its case, if it has one, and keeps the legal basis it stated itself on its
     * lookups row, if it stated one.
     */
    async file(search: PaidSearch<unknown>, lookupId: string) {
      const filed = search.caseReference.case;
      if (filed) await deps.cases.file(filed, lookupId, search.user);
      const basis = search.caseReference.legalBasis;
      if (basis) await db.update(lookups).set({ legalBasis: basis }).where(eq(lookups.id, lookupId));
    },

    /**
     * The audit row of a search that did not complete (a refusal, an error, a short balance), at no
     * cost. Completed searches get theirs from the settle writer, in the statement that completes them.
     */
    auditRefusal(
      executor: Executor,
      search: PaidSearch<unknown>,
      outcome: 'failure' | 'denied' | 'no_record',
      details: Record<string, unknown>,
    ) {
      return recordAudit(executor, {
        action: actionOf(search),
        outcome,
        user: search.user,
        client: search.client,
        target: targetOf(search),
        cost: 0,
        caseReference: search.caseReference.value,
        details: { ...queryDetails(search), ...details },
      });
    },
  };
}

export type SearchContext = ReturnType<typeof createSearchContext>;
