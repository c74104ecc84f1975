import {
  ACCOUNT_SEARCH_NOTHING_FOUND,
  isAccountSearchAnswer,
  isSiteCheckAnswer,
  type LegalBasis,
  type SearchKind,
  type SourceStatus,
  type SourcesResponse,
  searchKindLabel,
  siteCheckNothingFound,
  sourceStatusOf,
} from '@footprint/domain';
import type { UserRow } from '../../db/schema.ts';
import { kindUnavailable, noSourceAnswered } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { isKycEnvelope, kycMessageOf, kycRecordOf } from '../../providers/kyc-envelope.ts';
import { kindAvailable } from '../../providers/modes.ts';
import type { Runner } from '../../providers/runner.ts';
import type { ProviderKind, QueryKind } from '../../providers/types.ts';
import type { CaseReference, ReusedSearch, Searches } from '../searches/service.ts';

/** What a lookup stores and answers, before it is shaped into the spec's response for its kind. */
export interface LookupOutcome {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  /** Every source of the kind: what became of it, live or sandbox. */
  status: Record<string, SourceStatus>;
  sandbox: boolean;
  credits: number;
  lookupId: string;
  cached: boolean;
  /** When the sources answered: for a reuse, when they answered the paid lookup it replays. */
  answeredAt: Date;
  /** The paid lookup a reuse replays; null when the sources were asked for this answer. */
  reusedFrom: ReusedSearch | null;
  /** Time spent waiting for the sources, for the Server-Timing header (0 for cache hits). */
  sourcesMs: number;
}

/** What a phone, e-mail or detail lookup keeps in `lookups.result`, and serves again from the cache. */
interface StoredResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  /** Absent from results stored before source statuses existed: rebuilt from the rest. */
  status?: Record<string, SourceStatus>;
}

type Answered = Pick<LookupOutcome, 'payloads' | 'errors' | 'status' | 'sandbox' | 'sourcesMs'>;

/**
 * The statuses of a stored result; one stored before they were kept gets them rebuilt from its
 * payloads and errors, as the results page and the reports rebuild them.
 */
const statusOf = (kind: QueryKind, stored: StoredResult, sandbox: boolean): Record<string, SourceStatus> =>
  sourceStatusOf(kind, { ...stored, sandbox }).status;

/**
 * The sources' statuses as the charging rule reads them.
 * - A detail kind's one source (keyed by the kind itself: RC, UPI, challan) answers the KYC vendor's
 *   envelope even when it holds no record (a 404 or 422 envelope, `data: null`): the envelope is
 *   answered as it came (spec §7), but the source's status is `not_found`, as the intel searches judge
 *   the same envelope.
 * - A site check that found the name on no site answers its whole picture (which sites said no, which
 *   were blocked), but its status is `not_found`: a username found nowhere is not charged.
 * - A vendor's account search with no account (its adapter says "no record" itself; a payload that
 *   lists none anyway is judged the same).
 * (The phone sources' envelopes are left as they are: a phone lookup finds nothing only when every
 * source says so.)
 */
function judgedStatus(
  kind: QueryKind,
  payloads: Record<string, unknown>,
  status: Record<string, SourceStatus>,
): Record<string, SourceStatus> {
  const judged = { ...status };
  for (const [source, payload] of Object.entries(payloads)) {
    const line = judged[source];
    if (line?.status !== 'ok') continue;
    if (source === kind && isKycEnvelope(payload) && kycRecordOf(payload) === null) {
      judged[source] = { ...line, status: 'not_found', message: kycMessageOf(payload) || 'No record found.' };
    } else if (isSiteCheckAnswer(payload) && payload.counts.found === 0) {
      judged[source] = { ...line, status: 'not_found', message: siteCheckNothingFound(payload) };
    } else if (isAccountSearchAnswer(payload) && payload.accounts.length === 0) {
      judged[source] = { ...line, status: 'not_found', message: ACCOUNT_SEARCH_NOTHING_FOUND };
    }
  }
  return judged;
}

/**
 * Whether an answer found nothing, by the charging rule: every source that gave a payload was judged
 * `not_found` (`judgedStatus`), or none gave one. Such a lookup is recorded as no_record and not
 * charged; a bulk row reads its outcome by the same rule (bulk/row.ts).
 */
export const foundNothing = (
  payloads: Record<string, unknown>,
  status: Readonly<Record<string, SourceStatus>>,
): boolean => !Object.keys(payloads).some((source) => status[source]?.status !== 'not_found');

export interface LookupDeps {
  searches: Searches;
  runner: Runner;
  /** Every paid kind's price (the lookups charge theirs; `sources()` tells the screens each one). */
  costs: Readonly<Record<SearchKind, number>>;
}

/** What a lookup request may ask besides its query. */
export interface LookupOptions {
  /** Ask the sources again and charge, even when an identical lookup is within the cache window. */
  fresh?: boolean;
  /** The query as the user typed it (the raw request value); the normalized query when absent. */
  typed?: unknown;
  /** Keys added to the search's audit rows (a watch run names its watch). */
  auditDetails?: Record<string, unknown>;
  /**
   * The user asks for it now (a route, not a bulk row or a watch run): a sensitive kind is held for a
   * supervisor's approval (modules/approvals) and later runs with the request kept here.
   */
  holdable?: boolean;
  /** The lookups row's id, chosen beforehand (a bulk row: searches/service.ts `PaidSearch.lookupId`). */
  lookupId?: string;
  /** `lookupId` was made just now for this search: nothing can be charged under it yet (PaidSearch). */
  lookupIdIsNew?: boolean;
  /** Nobody waits for this lookup (a bulk row): interactive ones go first (searches/foreground.ts). */
  background?: boolean;
  /** The case reference already checked (a bulk job checks its own once, before its rows run). */
  checkedCase?: CaseReference;
  /** The legal basis the search states itself (`legal_basis`, checked by the request schema). */
  legalBasis?: LegalBasis | null;
}

/** What a held lookup keeps to run later, as `replayHeld` reads it back (modules/approvals). */
const heldLookup = (kind: QueryKind, query: string, caseReference: unknown, options: LookupOptions) => ({
  family: 'lookup' as const,
  input: {
    kind,
    query,
    typed: options.typed ?? null,
    fresh: options.fresh === true,
    caseReference,
    legalBasis: options.legalBasis ?? null,
  },
});

/**
 * Phone, e-mail and detail lookups: the sources' fan-out through the paid search (searches/), which
 * serves a recent identical lookup again for free, charges, settles or refunds, and audits. A lookup
 * fails, and is refunded, when not one source answered; when the sources that answered all found
 * nothing, it is answered, recorded as no_record and refunded (the charging rule: README, "Credits").
 */
export function createLookupService(deps: LookupDeps) {
  const { searches, runner } = deps;

  return {
    /** What one search of every paid kind costs (the leak search too, which has no provider). */
    prices(): SourcesResponse['prices'] {
      return { ...deps.costs };
    },

    /** Which searches this deployment answers, at what price, and who answers each of their sources. */
    sources(): SourcesResponse['kinds'] {
      const modes = runner.modes();
      const entries = Object.entries(modes) as Array<[ProviderKind, (typeof modes)[ProviderKind]]>;
      return Object.fromEntries(
        entries.map(([kind, sources]) => [
          kind,
          { available: kindAvailable(sources), price: deps.costs[kind], sources },
        ]),
      );
    },

    /**
     * `caseReference` is the request's raw value: checked (length, and presence when the deployment
     * requires one) before anything is charged or written. `fresh` skips the reuse of a recent
     * identical lookup: the sources are asked again and the lookup is charged.
     */
    /** Runs a held request (modules/approvals) once a supervisor approved it, as the user's lookup. */
    async replayHeld(
      user: UserRow,
      client: ClientContext,
      input: unknown,
      auditDetails: Record<string, unknown>,
    ): Promise<{ lookupId: string }> {
      const held = input as {
        kind: QueryKind;
        query: string;
        typed: unknown;
        fresh: boolean;
        caseReference: unknown;
        /** The basis as the request's schema checked it when the search was asked (absent before it existed). */
        legalBasis?: LegalBasis | null;
      };
      const outcome = await this.lookup(user, held.kind, held.query, client, held.caseReference, {
        typed: held.typed,
        fresh: held.fresh,
        legalBasis: held.legalBasis ?? null,
        auditDetails,
      });
      return { lookupId: outcome.lookupId };
    },

    async lookup(
      user: UserRow,
      kind: QueryKind,
      query: string,
      client: ClientContext,
      caseReference?: unknown,
      options: LookupOptions = {},
    ): Promise<LookupOutcome> {
      // No source of this kind in this deployment: say so before anything is charged or written.
      if (!runner.available(kind)) throw kindUnavailable(searchKindLabel(kind));
      const searched = await searches.run<Answered>({
        user,
        client,
        kind,
        query,
        queryTyped: typeof options.typed === 'string' ? options.typed : query,
        cost: deps.costs[kind],
        caseReference:
          options.checkedCase ??
          (await searches.caseReference(caseReference, user, options.legalBasis ?? null)),
        fresh: options.fresh === true,
        background: options.background === true,
        ...(options.auditDetails ? { auditDetails: options.auditDetails } : {}),
        ...(options.holdable ? { held: heldLookup(kind, query, caseReference, options) } : {}),
        ...(options.lookupId
          ? { lookupId: options.lookupId, lookupIdIsNew: options.lookupIdIsNew === true }
          : {}),
        reuse: {
          replay: (hit) => {
            const stored = hit.result as StoredResult;
            return {
              payloads: stored.payloads,
              errors: stored.errors,
              status: statusOf(kind, stored, hit.sandbox),
              sandbox: hit.sandbox,
              sourcesMs: 0,
            };
          },
        },
        async ask() {
          const started = performance.now();
          const fanOut = await runner.run({ kind, value: query });
          const sourcesMs = performance.now() - started;
          if (fanOut.answered.length === 0) {
            return {
              ok: false,
              refund: 'No source answered',
              sourceErrors: fanOut.errors,
              details: { reason: 'no_source_answered' },
              error: (credits) => noSourceAnswered(credits, fanOut.errors),
            };
          }
          const status = judgedStatus(kind, fanOut.payloads, fanOut.status);
          const stored: StoredResult = {
            payloads: fanOut.payloads,
            errors: fanOut.errors,
            status,
          };
          return {
            ok: true,
            value: {
              payloads: fanOut.payloads,
              errors: fanOut.errors,
              status,
              sandbox: fanOut.sandbox,
              sourcesMs,
            },
            answered: fanOut.answered,
            errors: fanOut.errors,
            result: stored,
            sandbox: fanOut.sandbox,
            // Sources answered, and every one of them that answered said "no record" (a detail
            // kind's source: with its vendor's no-record envelope): recorded as no_record and, by
            // the charging rule, not charged (the charge goes back; searches/run.ts).
            noRecord: foundNothing(fanOut.payloads, status),
          };
        },
      });
      return {
        ...searched.value,
        credits: searched.credits,
        lookupId: searched.lookupId,
        cached: searched.cached,
        answeredAt: searched.answeredAt,
        reusedFrom: searched.reusedFrom,
      };
    },
  };
}

export type LookupService = ReturnType<typeof createLookupService>;
