import { messages } from '@footprint/domain';
import { type KeyboardEvent, useId, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { CountedList, LoadingBlock } from '../../components/LoadError.tsx';
import { supervisesAUnit, useUnits } from '../../lib/units.ts';
import { type ReviewList, useReviews } from './api/reviews.ts';
import { ReviewCard } from './components/ReviewCard.tsx';

/**
 * /reviews (sampled review, beyond the spec): a supervisor's queue of searches drawn from the people
 * they supervise (To review, Reviewed), and for everyone their own searches drawn for review with the
 * verdicts (My searches reviewed). The tab lives in the address (`?tab=`), so a reload shows the same.
 */

const t = messages.reviewsPage;

const allTabs = [
  { key: 'open', label: t.toReviewTab, lead: t.toReviewLead, empty: t.emptyToReview, supervisors: true },
  { key: 'done', label: t.reviewedTab, lead: t.reviewedLead, empty: t.emptyReviewed, supervisors: true },
  { key: 'mine', label: t.mineTab, lead: t.mineLead, empty: t.emptyMine, supervisors: false },
] as const satisfies ReadonlyArray<{ key: ReviewList; supervisors: boolean } & Record<string, unknown>>;

function ReviewListPanel({
  list,
  lead,
  empty,
  headingLevel,
}: {
  list: ReviewList;
  lead: string;
  empty: string;
  headingLevel: 2 | 3;
}) {
  const reviews = useReviews(list);
  return (
    <>
      <p className="mb-4 max-w-3xl text-sm text-muted">{lead}</p>
      <CountedList query={reviews} failed={t.loadFailed} retryLabel={t.retry} empty={empty} count={t.count}>
        {(item, onChanged) => (
          <ReviewCard
            key={item.lookup_id}
            item={item}
            list={list}
            headingLevel={headingLevel}
            onReviewed={onChanged}
          />
        )}
      </CountedList>
    </>
  );
}

export default function ReviewsPage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const units = useUnits();
  const supervises = supervisesAUnit(units.data);
  const tabs = allTabs.filter((item) => supervises || !item.supervisors);
  const asked = params.get('tab');
  const current = tabs.find((item) => item.key === asked) ?? tabs[0]!;
  const tabRefs = useRef(new Map<ReviewList, HTMLButtonElement>());

  const choose = (next: ReviewList) => {
    if (next === current.key) return;
    setParams(next === tabs[0]!.key ? {} : { tab: next });
  };

  // Arrow keys move between the tabs (the WAI-ARIA tabs pattern, activating on focus).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((item) => item.key === current.key);
    let target: number | null = null;
    if (event.key === 'ArrowRight') target = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') target = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = tabs.length - 1;
    if (target === null) return;
    event.preventDefault();
    const next = tabs[target]!.key;
    choose(next);
    tabRefs.current.get(next)?.focus();
  };

  const tabId = (key: ReviewList) => `${id}-tab-${key}`;
  const panelId = `${id}-panel`;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <p className="eyebrow">{t.eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>

      {units.isPending ? (
        <LoadingBlock />
      ) : (
        <>
          {tabs.length > 1 && (
            <div
              role="tablist"
              aria-label={t.tabsLabel}
              className="tabs review-tabs mt-6"
              onKeyDown={onKeyDown}
            >
              {tabs.map((item) => (
                <button
                  key={item.key}
                  ref={(element) => {
                    if (element) tabRefs.current.set(item.key, element);
                    else tabRefs.current.delete(item.key);
                  }}
                  id={tabId(item.key)}
                  type="button"
                  role="tab"
                  aria-selected={current.key === item.key}
                  aria-controls={panelId}
                  tabIndex={current.key === item.key ? 0 : -1}
                  className="tab"
                  onClick={() => choose(item.key)}
                >
                  {item.label}
                </button>
              ))}
            </div>
          )}
          {tabs.length > 1 ? (
            <div id={panelId} role="tabpanel" aria-labelledby={tabId(current.key)} className="mt-5">
              <ReviewListPanel
                key={current.key}
                list={current.key}
                lead={current.lead}
                empty={current.empty}
                headingLevel={2}
              />
            </div>
          ) : (
            // Someone who supervises no unit has one list: its name as a heading, no tabs.
            <section className="mt-5" aria-labelledby={`${id}-only`}>
              <h2 id={`${id}-only`} className="mb-2 text-lg font-semibold text-text">
                {current.label}
              </h2>
              <ReviewListPanel
                list={current.key}
                lead={current.lead}
                empty={current.empty}
                headingLevel={3}
              />
            </section>
          )}
        </>
      )}
    </div>
  );
}
