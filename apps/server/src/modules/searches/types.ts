/** The paid search's contract with the kinds that run through it (service.ts). */

import type { LegalBasis, SearchKind } from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { DomainError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import type { DeploymentDefaults } from '../settings/service.ts';
import type { SearchWriters } from './host-writer.ts';
import type { ApprovalGate, CaseFiling, FiledCase, HeldRequest, KeySpending, SearchMeter } from './ports.ts';
import type { Reusable } from './reuse.ts';

/** A case reference checked by `caseReference()`: the only way a search gets one. */
export interface CaseReference {
  /** The case's reference as the case spells it (or null: no case). */
  readonly value: string | null;
  /** The case the search files itself under. */
  readonly case: FiledCase | null;
  /**
   * The legal basis the search states itself (`legal_basis`), or null. It is the search's basis before
   * its case's: stored on its lookups row, written in its audit rows and printed on its reports.
   */
  readonly legalBasis: LegalBasis | null;
  readonly checked: true;
}

/** What the source (or the kind's own store) answered, as the kind judges it. */
export type Answer<T> =
  | {
      ok: true;
      /** What the kind answers its caller. */
      value: T;
      /** Stored with the lookups row: sources that answered, their errors, the result history reopens. */
      answered: string[];
      errors: Record<string, string>;
      result: unknown;
      sandbox: boolean;
      /** The kind's own keys for the success row of the audit trail. */
      details?: Record<string, unknown>;
      /**
       * The sources answered and found nothing: the row is `no_record` and so is its audit row (a
       * neutral outcome, not a failure). The answer is kept and given, and the charge goes back: no
       * search of any kind pays for "no record" (README, "Credits").
       */
      noRecord?: boolean;
    }
  | {
      ok: false;
      /** The ledger's reason for giving the charge back. */
      refund: string;
      /** Stored on the refunded lookups row. */
      sourceErrors?: Record<string, string>;
      /** The kind's own keys for the failure row of the audit trail (`reason` at least). */
      details: Record<string, unknown>;
      /** The refusal the caller gets, with the balance after the refund. */
      error: (credits: number) => DomainError;
      /**
       * The source answered that it holds no record (not a failure): the refunded row is `no_record`
       * and so is its audit row.
       */
      noRecord?: boolean;
    };

export interface AskContext {
  /** The search's lookups row (for a free repeat, the id it will get). */
  lookupId: string;
  /** The user's identical recent search when this one is a free repeat, else null. */
  reused: Reusable | null;
}

export interface PaidSearch<T> {
  user: UserRow;
  client: ClientContext;
  kind: SearchKind;
  /** The normalized query: stored in `lookups.query`, the key of the cache. */
  query: string;
  /**
   * The query as the user typed it (for intel, the filled fields), stored in `lookups.query_typed` and
   * the audit row's `query_typed`; cleaned here (control characters, length) whatever the kind sent.
   */
  queryTyped: string;
  cost: number;
  caseReference: CaseReference;
  /** The audit row's action and target; `lookup.<kind>` and the query unless the kind says otherwise. */
  action?: string;
  target?: string;
  /**
   * What the user's identical search within the cache window (capped by retention) gives: its stored
   * answer again without asking ('replay'), a free ask ('ask': the leak search pages its paid run),
   * or nothing ('never').
   */
  reuse: { replay: (hit: Reusable) => T } | 'ask' | 'never';
  /** Skip the reuse this once (the user asked for a fresh answer): ask and charge as a new search. */
  fresh?: boolean;
  /** The ledger's reason when the charge goes back because the ask threw. */
  failedReason?: string;
  /**
   * Keys added to every audit row of this search, naming what ran it when the user did not ask at
   * that moment (a watch run: `watch_id`).
   */
  auditDetails?: Record<string, unknown>;
  /**
   * The lookups row's id, chosen by the caller before the search (a bulk row stores it first), so that
   * a search retried after its process died finds its own charge instead of charging again: a pending
   * row of this id and user was charged and never answered, and is resumed (asked and settled) with no
   * new charge. Absent: a new id. A caller passing one must not run it twice at once (bulk's lease).
   */
  lookupId?: string;
  /**
   * The caller made `lookupId` just now for this search (a bulk row's first run), so no earlier run can
   * have charged under it: the search skips looking for a charge to resume.
   */
  lookupIdIsNew?: boolean;
  /**
   * Nobody is waiting for this search (a bulk row): it is not counted among the interactive searches
   * that background work gives way to (foreground.ts).
   */
  background?: boolean;
  /**
   * Set by a search the user asks for now (not a bulk row or a watch run, nor an approved request
   * running): if its kind is sensitive, the approval gate holds it instead of charging it, and this is
   * what runs it once approved (modules/approvals).
   */
  held?: HeldRequest;
  ask: (context: AskContext) => Promise<Answer<T>>;
}

/** The paid search a free repeat reuses. */
export interface ReusedSearch {
  lookupId: string;
  caseReference: string | null;
}

export interface Searched<T> {
  value: T;
  lookupId: string;
  /** The balance after the search. */
  credits: number;
  cached: boolean;
  /**
   * When the answer was given: the moment the sources (or the kind's store) answered, which for a
   * replayed answer is the completion of the paid search it replays.
   */
  answeredAt: Date;
  /** The paid search a free repeat reuses; null for a charged search. */
  reusedFrom: ReusedSearch | null;
}

export interface SearchesDeps {
  db: Database;
  cacheHours: number;
  /** Defaults of the deployment settings (the retention period bounds the cache window). */
  settings: DeploymentDefaults;
  /** Where a search with a case reference is filed (the cases module, cases/filing.ts). */
  cases: CaseFiling;
  /** API keys' monthly credit caps (the api-keys module, api-keys/spending.ts). */
  keySpending: KeySpending;
  /** Told how each search ended and what it charged or gave back (modules/metrics); absent: nobody. */
  metrics?: SearchMeter;
  /** Where charges and answers are written (host-writer.ts); absent: this process's own group commits. */
  writers?: SearchWriters;
  /** Holds the searches of sensitive kinds for a supervisor's approval (modules/approvals); absent: none is. */
  gate?: ApprovalGate;
  now?: () => Date;
}
