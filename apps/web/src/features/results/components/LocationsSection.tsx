import { type MapsReview, messages } from '@footprint/domain';
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDate } from '../format.ts';
import { formatCoordinates, locatedReviews } from './reviews.ts';

const ReviewsMap = lazy(() => import('./ReviewsMap.tsx'));

/**
 * 'Locations' of the e-mail results (spec §2.5): the places the account reviewed. The list is always
 * there; the map loads only when asked for, so Leaflet stays out of every other page's download.
 */
export function LocationsSection({
  reviews,
}: {
  reviews: ReadonlyArray<MapsReview | null | undefined> | null | undefined;
}) {
  const id = useId();
  const located = useMemo(() => locatedReviews(reviews), [reviews]);
  const [showMap, setShowMap] = useState(false);
  const mapFrame = useRef<HTMLDivElement>(null);
  // The button goes away once pressed: its focus moves to the map rather than back to the page top.
  useEffect(() => {
    if (showMap) mapFrame.current?.focus();
  }, [showMap]);
  if (located.length === 0) return null;

  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="results-heading">
          {messages.results.locations}
          <span className="section-count">{located.length}</span>
        </h2>
        {!showMap && (
          <button type="button" className="btn-ghost" onClick={() => setShowMap(true)}>
            <svg
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.75"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
              focusable="false"
              className="size-4"
            >
              <path d="M9 4 3 6v14l6-2 6 2 6-2V4l-6 2-6-2zM9 4v14M15 6v14" />
            </svg>
            {messages.results.showMap}
          </button>
        )}
      </div>
      <div className={`grid gap-3 ${showMap ? 'lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]' : ''}`}>
        {showMap && (
          <div ref={mapFrame} tabIndex={-1} className="card overflow-hidden p-0 focus:outline-none">
            <Suspense
              fallback={
                <div className="reviews-map flex items-center justify-center">
                  <Spinner label={messages.results.loadingMap} />
                </div>
              }
            >
              <ReviewsMap reviews={located} />
            </Suspense>
          </div>
        )}
        <ol
          className={`grid gap-2 ${showMap ? 'content-start lg:max-h-[26rem] lg:overflow-y-auto lg:pr-1' : 'md:grid-cols-2 xl:grid-cols-3'}`}
        >
          {located.map((review) => (
            <li key={review.number} className="card flex gap-3 p-3">
              <span aria-hidden="true" className="review-pin-static">
                {review.number}
              </span>
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-semibold break-words text-text">{review.name}</p>
                {review.address && review.address !== review.name && (
                  <p className="text-xs break-words text-muted">{review.address}</p>
                )}
                <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-muted">
                  {review.rating !== undefined && (
                    <span className="text-warning">
                      <span aria-hidden="true">★ </span>
                      <span className="sr-only">{messages.results.rating}</span>
                      {review.rating}
                    </span>
                  )}
                  {review.publishedAt && <span>{formatDate(review.publishedAt)}</span>}
                  <span className="font-mono">
                    <span className="sr-only">{messages.results.coordinates}</span>
                    {formatCoordinates(review)}
                  </span>
                </p>
                {review.text && (
                  <p className="mt-1 line-clamp-3 text-xs leading-relaxed text-text/80">{review.text}</p>
                )}
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
