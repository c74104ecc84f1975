import {
  LEAK_TOTAL_CAP,
  type LeakFieldType,
  type LeakSearchResponse,
  leakRowError,
  messages,
} from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { pageOutOfRange, validationError } from '../../http/errors.ts';
import type { Searches } from '../searches/service.ts';
import { countMatches, type LeakScope, readPage } from './pages.ts';
import { conditionOf, queryKey } from './query.ts';

type LeakPage = Omit<LeakSearchResponse, 'credits' | 'cached' | 'lookup_id'>;

/**
 * The leak search: the rows checked as the browser checks them, normalized into one query, and run
 * as a paid search (searches/). A new query is charged once; paging through it again within the cache
 * window is free. The page the user paid for is kept for history; a page past the last is refused and
 * the charge refunded.
 */
export function createLeakService(deps: {
  db: Database;
  searches: Searches;
  cost: number;
  /** SANDBOX: off, sandbox sources are never searched, so no answer carries a synthetic record. */
  sandbox: boolean;
}) {
  const { db, searches } = deps;
  const scope: LeakScope = { includeSandbox: deps.sandbox };

  return {
    async search(
      user: UserRow,
      rows: Array<{ type: LeakFieldType; value: string }>,
      page: number,
      perPage: number,
      client: ClientContext,
      rawCaseReference?: unknown,
    ): Promise<LeakSearchResponse> {
      // The browser's checks, again on the server: same rules, same messages.
      const rowErrors = rows.map((row) => leakRowError(row.type, row.value));
      const firstError = rowErrors.find((e): e is string => e !== null);
      if (firstError) {
        throw validationError({ fields: rowErrors.map((e) => e ?? '') }, firstError);
      }
      const caseReference = await searches.caseReference(rawCaseReference);
      const conditions = rows.map((row) => conditionOf(row.type, row.value));

      const searched = await searches.run<LeakPage>({
        user,
        client,
        kind: 'leak',
        query: queryKey(conditions),
        cost: deps.cost,
        caseReference,
        reuse: 'ask',
        failedReason: 'Leak search refused',
        async ask() {
          const matches = await countMatches(db, conditions, scope);
          const total = Math.min(matches, LEAK_TOTAL_CAP);
          const lastPage = Math.max(1, Math.ceil(total / perPage));
          if (page > lastPage) {
            return {
              ok: false,
              refund: 'Leak search refused',
              details: { page, per_page: perPage, total, reason: 'page_out_of_range' },
              error: (credits) => pageOutOfRange(messages.leaks.pastLastPage(lastPage), credits),
            };
          }
          const { data, sandbox } = await readPage(db, conditions, page, perPage, scope);
          const found = { total, total_capped: matches > LEAK_TOTAL_CAP, page, per_page: perPage };
          return {
            ok: true,
            value: { data, ...found, sandbox },
            answered: ['leaks'],
            errors: {},
            // The page the user paid for, as they saw it: history reopens it (and the retention purge
            // removes it with every other stored result). Pages viewed later from the cache are free
            // and not kept again.
            result: { ...found, sandbox, data },
            sandbox,
            details: { page, per_page: perPage, total },
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
      };
    },
  };
}

export type LeakService = ReturnType<typeof createLeakService>;
