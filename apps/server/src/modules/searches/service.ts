import type { LegalBasis } from '@footprint/domain';
import type { UserRow } from '../../db/schema.ts';
import { requireCaseReference } from '../settings/case-reference.ts';
import { readDeploymentSettings } from '../settings/service.ts';
import { createSearchContext } from './context.ts';
import { createForeground } from './foreground.ts';
import { runSearch } from './run.ts';
import type { CaseReference, PaidSearch, Searched, SearchesDeps } from './types.ts';

export { legalBasisLineOf, legalBasisOfSearch } from './basis.ts';
export type {
  Answer,
  AskContext,
  CaseReference,
  PaidSearch,
  ReusedSearch,
  Searched,
  SearchesDeps,
} from './types.ts';

/**
 * The paid search, for every kind: case reference, cache, charge, ask, settle or refund, and audit.
 * A kind supplies its query, its price and how to ask; this module owns the money and the trail:
 *
 *   - an identical search by the same user within the cache window (never longer than retention) is
 *     served free, with its own cost-0 lookups row and its audit row, unless the search asks to be
 *     `fresh`; the answer says when its sources answered and which paid search it reuses;
 *   - otherwise the charge and the lookups row are written in one statement (group-committed with
 *     other searches' charges); a short balance is a 402 and a 'denied' row;
 *   - an answer completes the lookups row and writes its 'success' row in one statement (group
 *     committed too); a refusal or an error gives the charge back and writes a 'failure' row;
 *   - an answer that found nothing (`noRecord`) is neither: the row and its audit row are 'no_record',
 *     and the charge goes back, whether the kind answers it (200: phone, e-mail, detail, leak) or
 *     refuses it (intel's 422). The charging rule, for every kind: a record is charged, "no record"
 *     is not, and a kind no source can answer is a 503 before any charge (README, "Credits");
 *   - the query as typed (`queryTyped`, cleaned here) is kept beside the normalized one, on the row
 *     and in every audit row's details (`query_typed`, `query`).
 */
export function createSearches(deps: SearchesDeps) {
  const ctx = createSearchContext(deps);
  const { db } = deps;
  const foreground = createForeground();

  return {
    /**
     * Checks a search's raw case reference (length, and presence when the deployment requires one)
     * and finds (or opens) the user's case of that reference, before anything is charged; a 422 (or a
     * 409 for a closed case) otherwise. `legalBasis` is the basis the search states itself (checked by
     * the kind's request schema): with it, a deployment that requires a legal basis takes the search
     * outside a case, or under a case that has no basis yet.
     */
    async caseReference(
      raw: unknown,
      user: UserRow,
      legalBasis: LegalBasis | null = null,
    ): Promise<CaseReference> {
      const value = await requireCaseReference(db, raw);
      const { legalBasisRequired } = await readDeploymentSettings(db, deps.settings);
      const filed = await deps.cases.caseFor(user, value, {
        legalBasisRequired: legalBasisRequired && legalBasis === null,
      });
      return { value: filed?.reference ?? value, case: filed, legalBasis, checked: true };
    },

    /** The raw case reference checked (length, presence when required), no case looked up or opened. */
    checkReference(raw: unknown): Promise<string | null> {
      return requireCaseReference(db, raw);
    },

    /** The interactive searches in flight, which background work gives way to. */
    foreground,

    /** Runs one paid search of any kind; the kind's refusals come back as the errors its `ask` chose. */
    run<T>(search: PaidSearch<T>): Promise<Searched<T>> {
      return search.background ? runSearch(ctx, search) : foreground.track(() => runSearch(ctx, search));
    },
  };
}

export type Searches = ReturnType<typeof createSearches>;
