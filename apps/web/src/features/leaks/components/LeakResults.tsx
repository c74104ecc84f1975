import {
  LEAK_EXPORT_CAP,
  LEAK_PAGE_SIZE,
  LEAK_PAGINATION_WINDOW,
  LEAK_TOTAL_CAP,
  type LeakSearchResponse,
  messages,
  SANDBOX_BANNER,
} from '@footprint/domain';
import { type Ref, useId } from 'react';
import { AddToCaseButton } from '../../../components/AddToCaseButton.tsx';
import { LeakRecordCard } from '../../../components/LeakRecordCard.tsx';
import { Pagination } from '../../../components/Pagination.tsx';
import { SaveMenu } from '../../../components/SaveMenu.tsx';
import { WatchButton, type WatchTarget } from '../../../components/WatchButton.tsx';
import type { LeakNeedles } from '../../../lib/leak-highlight.ts';
import { originStatusParts } from '../../../lib/leak-origins.ts';

export interface LeakResultsProps {
  response: LeakSearchResponse;
  needles: LeakNeedles;
  /** True when this answer was a new search the server had already been paid for. */
  cachedNotice: boolean;
  busy: boolean;
  onPageChange: (page: number) => void;
  /** The summary heading: the page moves focus here after each answer. */
  headingRef: Ref<HTMLHeadingElement>;
  /** The search as a watch repeats it: 'Watch' runs it again on a schedule (live accounts). */
  watch?: WatchTarget;
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : 0;

/** How many pages the total spans. */
export function pageCount(total: number, perPage: number): number {
  return total > 0 && perPage > 0 ? Math.ceil(total / perPage) : 0;
}

/**
 * The summary line of spec §2.6. The spec gives 'N Results Found' under 10 and 'Page X of Y pages.' over
 * 10 and is silent on exactly 10; here the line follows the pages: one page of results (10 or fewer)
 * says how many were found, more than one page says which page this is.
 */
export function leakSummary(total: number, page: number, perPage: number): string {
  if (total <= 0) return messages.leaks.noResults;
  const pages = pageCount(total, perPage);
  return pages <= 1 ? messages.leaks.resultsFound(total) : messages.leaks.pageOf(page, pages);
}

/** The answer of a leak search: summary, notes, the record cards, pagination. */
export function LeakResults({
  response,
  needles,
  cachedNotice,
  busy,
  onPageChange,
  headingRef,
  watch,
}: LeakResultsProps) {
  const records = Array.isArray(response.data) ? response.data : [];
  const total = count(response.total);
  const perPage = count(response.per_page) || LEAK_PAGE_SIZE;
  const pages = pageCount(total, perPage);
  const page = Math.max(1, count(response.page) || 1);
  const sandbox = (response as { sandbox?: unknown }).sandbox === true;
  const empty = total === 0 && records.length === 0;
  const headingId = useId();
  const originsId = useId();
  // Only a federated search has more than one origin; the local index alone is the summary itself.
  const originParts = originStatusParts(response.origin_status, response.total_capped === true);
  const showOrigins = originParts.length > 1;

  return (
    <section aria-labelledby={headingId} aria-busy={busy} className="leak-results">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h2 id={headingId} ref={headingRef} tabIndex={-1} className="leak-summary">
            {leakSummary(total, page, perPage)}
          </h2>
          {pages > 1 && (
            <span className="text-sm text-muted tabular-nums">
              {messages.leaks.matchCount(total, response.total_capped === true)}
            </span>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {sandbox && (
            <p role="note" className="sandbox-banner">
              {SANDBOX_BANNER}
            </p>
          )}
          {cachedNotice && response.cached && (
            <span className="source-chip chip-slate" title={messages.leaks.cachedTitle}>
              {messages.leaks.cached}
            </span>
          )}
          <AddToCaseButton
            lookupId={typeof response.lookup_id === 'string' ? response.lookup_id : undefined}
          />
          <WatchButton target={watch} />
          <SaveMenu
            lookupId={typeof response.lookup_id === 'string' ? response.lookup_id : undefined}
            hint={messages.results.leakExportHint(total, response.total_capped === true, LEAK_EXPORT_CAP)}
            // Below the summary on a phone the menu opens from the left edge, beside it from the right.
            menuAlign="left-0 sm:right-0 sm:left-auto"
          />
        </div>
      </div>

      {showOrigins && (
        <div className="mt-1 flex flex-wrap items-center gap-x-1.5 text-xs text-muted">
          <span id={originsId} className="font-medium tracking-wide uppercase">
            {messages.leaks.originsSearched}
          </span>
          <ul aria-labelledby={originsId} className="flex flex-wrap items-center gap-x-1.5">
            {originParts.map((part, index) => (
              <li key={part.name} className={part.trouble ? 'text-warning' : undefined}>
                {index > 0 && (
                  <span aria-hidden="true" className="mr-1.5">
                    ·
                  </span>
                )}
                {part.text}
              </li>
            ))}
          </ul>
        </div>
      )}

      {response.total_capped && (
        <p role="note" className="leak-capped">
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            focusable="false"
            className="mt-0.5 size-4 shrink-0"
          >
            <path d="M12 9v4M12 17v.1M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
          </svg>
          {messages.leaks.capped(LEAK_TOTAL_CAP)}
        </p>
      )}

      {empty ? null : records.length === 0 ? (
        <p className="mt-4 text-sm text-muted">{messages.leaks.pastLastPage(pages)}</p>
      ) : (
        <ul className="leak-grid">
          {records.map((record, index) => (
            <LeakRecordCard key={record.id || `row-${index}`} record={record} needles={needles} />
          ))}
        </ul>
      )}

      {pages > 1 && (
        <Pagination
          page={page}
          totalPages={pages}
          window={LEAK_PAGINATION_WINDOW}
          onPageChange={onPageChange}
          disabled={busy}
          label={messages.leaks.resultsPages}
          className="mt-6"
        />
      )}
    </section>
  );
}
