import { messages } from '@footprint/domain';

/** A page number, or a gap standing for the pages left out before or after the current window. */
export type PaginationItem = number | 'start-gap' | 'end-gap';

/**
 * The page buttons to show (spec §2.6, §9): the first and last page, up to `window` neighbours each side
 * of the current page, and a gap where pages are left out. A gap never stands for a single page: that
 * page is shown instead, since its number takes no more room than the ellipsis would.
 *
 *   paginationItems(1, 1000, 3)   → [1, 2, 3, 4, 'end-gap', 1000]
 *   paginationItems(500, 1000, 3) → [1, 'start-gap', 497, …, 503, 'end-gap', 1000]
 *   paginationItems(5, 9, 3)      → [1, 2, …, 9]
 *
 * `current` is clamped into 1..totalPages; no pages (or nonsense input) gives an empty list.
 */
export function paginationItems(current: number, totalPages: number, window: number): PaginationItem[] {
  const total = Number.isFinite(totalPages) ? Math.floor(totalPages) : 0;
  if (total < 1) return [];
  const span = Number.isFinite(window) ? Math.max(0, Math.floor(window)) : 0;
  const page = Math.min(total, Math.max(1, Number.isFinite(current) ? Math.floor(current) : 1));

  let start = Math.max(2, page - span);
  let end = Math.min(total - 1, page + span);
  // A gap of exactly one page shows that page instead.
  if (start === 3) start = 2;
  if (end === total - 2) end = total - 1;

  const items: PaginationItem[] = [1];
  if (start > 2) items.push('start-gap');
  for (let n = start; n <= end; n += 1) items.push(n);
  if (end < total - 1) items.push('end-gap');
  if (total > 1) items.push(total);
  return items;
}

export interface PaginationProps {
  /** 1-based. */
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  /** Neighbours each side of the current page. */
  window?: number;
  /** The navigation landmark's name. */
  label?: string;
  disabled?: boolean;
  className?: string;
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="size-4 shrink-0"
    >
      <path d={direction === 'left' ? 'M15 6l-6 6 6 6' : 'm9 6 6 6-6 6'} />
    </svg>
  );
}

/**
 * Previous, first, neighbours, last, Next, as buttons in a named navigation landmark. The current page
 * carries aria-current; the ellipses are decoration. Renders nothing for a single page.
 */
export function Pagination({
  page,
  totalPages,
  onPageChange,
  window = 3,
  label = messages.pagination.label,
  disabled = false,
  className = '',
}: PaginationProps) {
  const items = paginationItems(page, totalPages, window);
  if (items.length < 2) return null;
  const last = items[items.length - 1] as number;
  const go = (target: number) => {
    if (!disabled && target !== page && target >= 1 && target <= last) onPageChange(target);
  };

  return (
    <nav aria-label={label} className={`pagination ${className}`}>
      <button
        type="button"
        className="pagination-step"
        onClick={() => go(page - 1)}
        disabled={disabled || page <= 1}
      >
        <Chevron direction="left" />
        {messages.pagination.previous}
      </button>
      <ul className="pagination-pages">
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                className="pagination-page"
                aria-label={messages.pagination.page(item)}
                aria-current={item === page ? 'page' : undefined}
                onClick={() => go(item)}
                disabled={disabled}
              >
                {item.toLocaleString('en-US')}
              </button>
            </li>
          ) : (
            <li key={item} aria-hidden="true" className="pagination-gap">
              …
            </li>
          ),
        )}
      </ul>
      <button
        type="button"
        className="pagination-step"
        onClick={() => go(page + 1)}
        disabled={disabled || page >= last}
      >
        {messages.pagination.next}
        <Chevron direction="right" />
      </button>
    </nav>
  );
}

export default Pagination;
