import {
  LEAK_TOTAL_CAP,
  type LeakFieldType,
  type LeakOriginStatus,
  type LeakSearchResponse,
  type LegalBasis,
  leakRowError,
  leakTypedText,
  messages,
  searchKindLabel,
} from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { kindUnavailable, pageOutOfRange, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import type { LeakSearcher } from '../../providers/leak-search.ts';
import type { Reusable } from '../searches/reuse.ts';
import type { Searches } from '../searches/service.ts';
import {
  type Federation,
  federate,
  federationOf,
  localStatus,
  mergeRecords,
  NO_FEDERATION,
  pageWindow,
  vendorQueryOf,
  withVendorOrigins,
} from './federation.ts';
import {
  countAndReadPage,
  countMatches,
  findTwinCandidates,
  indexHasRecords,
  type LeakScope,
  readPage,
} from './pages.ts';
import { conditionOf, type LeakCondition, queryKey } from './query.ts';
import { askVendors, type VendorOutcome } from './vendors.ts';

type LeakPage = Omit<LeakSearchResponse, 'credits' | 'cached' | 'lookup_id'>;

/** What a leak search may ask besides its rows and page. */
export interface LeakSearchOptions {
  /** The legal basis the search states itself (`legal_basis`, checked by the request schema). */
  legalBasis?: LegalBasis | null;
  /** Ask again and charge, even when an identical search is within the cache window (a watch run). */
  fresh?: boolean;
  /** Keys added to the search's audit rows (a watch run names its watch). */
  auditDetails?: Record<string, unknown>;
}

export interface LeakServiceDeps {
  db: Database;
  searches: Searches;
  cost: number;
  /** SANDBOX: off, sandbox sources are never searched, so no answer carries a synthetic record. */
  sandbox: boolean;
  /** Leak-search vendors queried alongside the local index (none by default). */
  searchers?: readonly LeakSearcher[];
}

/** What the local index holds for a search: its capped match count and the page asked for. */
type LocalRead = Awaited<ReturnType<typeof countAndReadPage>>;

/** What the paid search found everywhere: the local match count and what the vendors added. */
interface Found {
  matches: number;
  /** The local page, when it was read together with the count (see `search`). */
  local?: LocalRead;
  federation: Federation;
  /** Source keys that answered, and the errors of those that did not (kept with the lookup). */
  answered: string[];
  errors: Record<string, string>;
}

/** The key a vendor's outcome is stored under in the lookup's answered sources and errors. */
const sourceKey = (outcome: VendorOutcome) => `leak:${outcome.id}`;

const statusOf = (outcome: VendorOutcome): LeakOriginStatus => ({
  ...outcome.origin,
  status: outcome.status,
  records: outcome.records.length,
});

/**
 * The leak search: the rows checked as the browser checks them, normalized into one query, and run
 * as a paid search (searches/). A new query is charged once (and not at all when nothing matches);
 * paging through it again within the cache window is free. With an empty index and no vendor, no
 * source can answer: 503 before any charge. The page the user paid for is kept for history; a page past the last is refused and
 * the charge refunded.
 *
 * With leak-search vendors configured, the paid search also asks each of them, in parallel with the
 * local index and within its own timeout; the local index is authoritative (its failure fails the
 * search), a vendor's never does. Identical records are merged into one listing every origin, and the
 * vendors' records are stored with the paid result, so that further pages read the same set.
 */
/** The paid search: the local count and every vendor at once, then what the vendors add. */
async function searchEverywhere(
  db: LeakServiceDeps['db'],
  searchers: NonNullable<LeakServiceDeps['searchers']>,
  scope: LeakScope,
  conditions: LeakCondition[],
  rows: Array<{ type: LeakFieldType; value: string }>,
): Promise<Found> {
  const stop = new AbortController();
  const asked = askVendors(searchers, vendorQueryOf(rows), conditions, stop.signal);
  let matches: number;
  try {
    matches = await countMatches(db, conditions, scope);
  } catch (error) {
    stop.abort(error);
    await asked;
    throw error;
  }
  const outcomes = await asked;
  const merged = mergeRecords(outcomes.map((outcome) => outcome.records));
  const twins = await findTwinCandidates(db, conditions, scope, merged);
  return {
    matches,
    federation: federate(merged, twins, outcomes.map(statusOf)),
    answered: [
      'leaks',
      ...outcomes
        .filter((outcome) => outcome.status === 'ok' || outcome.status === 'not_found')
        .map(sourceKey),
    ],
    errors: Object.fromEntries(
      outcomes.flatMap((outcome) => (outcome.error ? [[sourceKey(outcome), outcome.error]] : [])),
    ),
  };
}

export function createLeakService(deps: LeakServiceDeps) {
  const { db, searches } = deps;
  const searchers = deps.searchers ?? [];
  const scope: LeakScope = { includeSandbox: deps.sandbox };

  /**
   * What the search finds. A further page of a paid search reads the vendors' records that search
   * stored: free, and the same set on every page; the local index is read again (it is the authority).
   */
  async function findEverywhere(
    conditions: LeakCondition[],
    rows: Array<{ type: LeakFieldType; value: string }>,
    reused: Reusable | null,
    localRead: Promise<LocalRead> | null,
  ): Promise<Found> {
    const readLocal = async () =>
      localRead
        ? { matches: (await localRead).matches, local: await localRead }
        : { matches: await countMatches(db, conditions, scope) };
    if (reused)
      return {
        ...(await readLocal()),
        federation: federationOf(reused.result),
        answered: reused.answered,
        errors: reused.errors,
      };
    if (searchers.length > 0) return searchEverywhere(db, searchers, scope, conditions, rows);
    return { ...(await readLocal()), federation: NO_FEDERATION, answered: ['leaks'], errors: {} };
  }

  return {
    async search(
      user: UserRow,
      rows: Array<{ type: LeakFieldType; value: string }>,
      page: number,
      perPage: number,
      client: ClientContext,
      rawCaseReference?: unknown,
      options: LeakSearchOptions = {},
    ): Promise<LeakSearchResponse> {
      // The browser's checks, again on the server: same rules, same messages.
      const rowErrors = rows.map((row) => leakRowError(row.type, row.value));
      const firstError = rowErrors.find((e): e is string => e !== null);
      if (firstError) {
        throw validationError({ fields: rowErrors.map((e) => e ?? '') }, firstError);
      }
      // No source could answer (an empty index, no vendor): say so before anything is charged.
      if (searchers.length === 0 && !(await indexHasRecords(db, scope)))
        throw kindUnavailable(searchKindLabel('leak'));
      const conditions = rows.map((row) => conditionOf(row.type, row.value));
      // Without vendors, the local page does not depend on anything the paid search decides (a
      // repeat's stored federation only adds vendor records after the local ones): it is read at once,
      // count and page in one statement, while the search checks the case and looks for a reusable
      // answer, so those round trips overlap instead of adding up. Its window is taken within the
      // capped total, which is the page's window whatever the count turns out to be. A search refused
      // before its answer (a short balance, a closed case) has read it for nothing.
      const localRead =
        searchers.length === 0
          ? countAndReadPage(db, conditions, pageWindow(LEAK_TOTAL_CAP, page, perPage).local, scope)
          : null;
      localRead?.catch(() => {});
      const caseReference = await searches.caseReference(rawCaseReference, user, options.legalBasis ?? null);

      const searched = await searches.run<LeakPage>({
        user,
        client,
        kind: 'leak',
        query: queryKey(conditions),
        queryTyped: leakTypedText(rows),
        cost: deps.cost,
        caseReference,
        reuse: 'ask',
        fresh: options.fresh === true,
        ...(options.auditDetails ? { auditDetails: options.auditDetails } : {}),
        failedReason: 'Leak search refused',
        async ask({ reused }) {
          const found = await findEverywhere(conditions, rows, reused, localRead);
          const { federation } = found;
          const localTotal = Math.min(found.matches, LEAK_TOTAL_CAP);
          const total = localTotal + federation.records.length;
          const lastPage = Math.max(1, Math.ceil(total / perPage));
          if (page > lastPage) {
            return {
              ok: false,
              refund: 'Leak search refused',
              details: { page, per_page: perPage, total, reason: 'page_out_of_range' },
              error: (credits) => pageOutOfRange(messages.leaks.pastLastPage(lastPage), credits),
            };
          }
          const window = pageWindow(localTotal, page, perPage);
          const local = found.local
            ? { data: found.local.data.slice(0, window.local.limit), sandbox: found.local.sandbox }
            : window.local.limit > 0
              ? await readPage(db, conditions, window.local, scope)
              : { data: [], sandbox: false };
          const data = [
            ...local.data.map((record) => withVendorOrigins(record, federation.also_in[record.id])),
            ...federation.records.slice(window.vendor.start, window.vendor.end),
          ];
          const sandbox = local.sandbox;
          const originStatus = [localStatus(localTotal), ...federation.vendors];
          const counted = { total, total_capped: found.matches > LEAK_TOTAL_CAP, page, per_page: perPage };
          return {
            ok: true,
            value: { data, ...counted, sandbox, origin_status: originStatus },
            answered: found.answered,
            errors: found.errors,
            // The page the user paid for, as they saw it: history reopens it (and the retention purge
            // removes it with every other stored result). Pages viewed later from the cache are free
            // and not kept again. A federated search also keeps what the vendors found, which those
            // later pages read instead of asking the vendors again.
            result: {
              ...counted,
              sandbox,
              data,
              origin_status: originStatus,
              ...(searchers.length > 0 ? { federation } : {}),
            },
            sandbox,
            details: { page, per_page: perPage, total },
            // Every source answered and none holds a matching record: recorded as no_record and, by
            // the charging rule, not charged (the charge goes back; searches/run.ts).
            noRecord: total === 0,
          };
        },
      });
      const { data, ...found } = searched.value;
      return {
        data,
        total: found.total,
        total_capped: found.total_capped,
        page: found.page,
        per_page: found.per_page,
        credits: searched.credits,
        cached: searched.cached,
        lookup_id: searched.lookupId,
        sandbox: found.sandbox,
        origin_status: found.origin_status,
      };
    },
  };
}

export type LeakService = ReturnType<typeof createLeakService>;
