import { type ReactNode, useRef } from 'react';
import { Spinner } from './Spinner.tsx';

/** A list that failed to load: what happened and a way to ask again. */
export function LoadError({
  message,
  retryLabel,
  onRetry,
  retrying = false,
}: {
  message: string;
  retryLabel: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <div role="alert" className="card flex flex-col items-center gap-3 px-4 py-10 text-center">
      <p className="text-sm text-text">{message}</p>
      <button type="button" className="btn-ghost" onClick={onRetry} disabled={retrying}>
        {retrying && <Spinner size="sm" decorative />}
        {retryLabel}
      </button>
    </div>
  );
}

/** The first load of a list. */
export function LoadingBlock() {
  return (
    <div className="grid min-h-40 place-items-center">
      <Spinner size="md" />
    </div>
  );
}

/** What `QueryView` reads of a TanStack query. */
interface ViewedQuery<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A list screen's query before its rows: the first load, a failure with nothing to show (and a retry),
 * an empty answer, and only then `children` with the data. A failed refetch keeps the rows on screen.
 */
export function QueryView<T>({
  query,
  failed,
  retryLabel,
  empty,
  isEmpty,
  children,
}: {
  query: ViewedQuery<T>;
  /** The message when the list cannot be shown. */
  failed: string;
  retryLabel: string;
  /** The message in place of an empty list, when `isEmpty(data)` says it is. */
  empty?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingBlock />;
  const { data } = query;
  if (data === undefined) {
    if (!query.isError) return null;
    return (
      <LoadError
        message={failed}
        retryLabel={retryLabel}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (empty !== undefined && isEmpty?.(data)) {
    return <p className="card px-4 py-10 text-center text-sm text-muted">{empty}</p>;
  }
  return children(data);
}

export default LoadError;

/**
 * A queue of cards (sampled review, approvals): the query as QueryView shows it, then a count that
 * speaks its changes and a list. `children` draws one item; its `onChanged` (a card decided) moves the
 * focus to the count, so a keyboard or screen-reader user is not left on a card that went away.
 */
export function CountedList<I>({
  query,
  failed,
  retryLabel,
  empty,
  count,
  children,
}: {
  query: ViewedQuery<{ data: I[] }>;
  failed: string;
  retryLabel: string;
  empty: string;
  count: (n: number) => string;
  children: (item: I, onChanged: () => void) => ReactNode;
}) {
  const countRef = useRef<HTMLParagraphElement>(null);
  const onChanged = () => countRef.current?.focus();
  return (
    <QueryView
      query={query}
      failed={failed}
      retryLabel={retryLabel}
      empty={empty}
      isEmpty={(answer) => answer.data.length === 0}
    >
      {(answer) => (
        <>
          <p
            ref={countRef}
            tabIndex={-1}
            className="mb-3 text-sm font-medium text-muted focus:outline-none"
            aria-live="polite"
          >
            {count(answer.data.length)}
          </p>
          <ul className="review-list">{answer.data.map((item) => children(item, onChanged))}</ul>
        </>
      )}
    </QueryView>
  );
}
