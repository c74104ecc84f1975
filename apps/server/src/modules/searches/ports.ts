import type { LegalBasis, SearchKind } from '@footprint/domain';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';

// What the paid search needs from other modules, as it needs it. The cases and api-keys modules
// implement these (cases/filing.ts, api-keys/spending.ts) and app.ts hands them in, so this module
// imports neither.

/**
 * What a search filed under a case carries: the case, and the legal basis its audit rows keep. `id` is
 * null for a case the search will open: it is created when the search is filed, after its charge, so a
 * search refused before (a short balance) opens nothing.
 */
export interface FiledCase {
  id: string | null;
  reference: string;
  legalBasis: LegalBasis | null;
}

/** Where a search with a case reference is filed. */
export interface CaseFiling {
  /**
   * The case a search with this (checked) reference files itself under, or null without a reference.
   * Refuses (409, 422) a closed case, or one without a legal basis while the deployment requires one,
   * before anything is charged.
   */
  caseFor(
    user: UserRow,
    reference: string | null,
    options: { legalBasisRequired: boolean },
  ): Promise<FiledCase | null>;
  /**
   * Files the search under its case (idempotent), opening a new case first; then `filed.id` is set, for
   * the search's later audit rows.
   */
  file(filed: FiledCase, lookupId: string, user: UserRow): Promise<void>;
  /** The keys a case adds to every audit row of a search under it. */
  auditDetails(filed: FiledCase | null): Record<string, unknown>;
}

/** The API key a search is made with, as far as its spending goes. */
export interface SpendingKey {
  id: string;
  /** Credits its searches may spend per calendar month (UTC); null: no cap. */
  monthlyCreditCap: number | null;
}

/** A key's monthly credit cap, enforced before a search is charged. */
export interface KeySpending {
  /**
   * Runs `steps.charge` when the key's spend this calendar month (UTC) plus `price` stays within its
   * cap (at once for a key without a cap, or a free search); otherwise `steps.refuse` with the cap and
   * the spend, which throws. One key's capped searches take turns from the check to the end of the
   * charge, in this process and across server processes on one database, so concurrent calls cannot
   * both pass one check.
   */
  reserve<R>(
    key: SpendingKey,
    price: number,
    steps: { charge: () => Promise<R>; refuse: (cap: number, spent: number) => Promise<never> },
  ): Promise<R>;
}

/** How a paid search ended, as the metrics count it. */
export type SearchOutcome = 'charged' | 'no_record' | 'refunded' | 'failed' | 'cached' | 'denied';

/** What the paid search tells the metrics module (modules/metrics) about each search. */
export interface SearchMeter {
  lookup(kind: SearchKind, outcome: SearchOutcome): void;
  /** Credits taken, or given back by a refund that was made (not one the recovery sweep made first). */
  credits(direction: 'charged' | 'refunded', kind: SearchKind, amount: number): void;
}

/** The services a held search can be asked of again once approved (modules/approvals). */
export type ApprovalFamily = 'lookup' | 'intel' | 'bulk';

/** What a held search needs to run later: the service, and the request as that service takes it. */
export interface HeldRequest {
  family: ApprovalFamily;
  input: unknown;
}

/** A search as the approval gate judges it. */
export interface HoldCandidate {
  user: UserRow;
  client: ClientContext;
  kind: string;
  query: string;
  queryTyped: string;
  cost: number;
  fresh?: boolean | undefined;
  caseReference: string | null;
  /** The case's legal basis as every artefact prints it, when it has one. */
  legalBasisLine: string | null;
  held: HeldRequest;
}

/**
 * Holds a search of a sensitive kind for a supervisor's approval (modules/approvals): it throws the
 * 202 that says so; for any other kind it returns and the search runs.
 */
export interface ApprovalGate {
  hold(search: HoldCandidate): Promise<void>;
}
