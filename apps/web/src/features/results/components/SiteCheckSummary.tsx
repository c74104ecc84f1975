import { messages, SITE_STATES, type SiteCheckAnswer, type SiteState } from '@footprint/domain';
import { useId } from 'react';
import { countsOf } from '../username.ts';

const t = messages.usernameResults;

/** The colour of each state's count: found stands out, the ones that could not say warn, no is quiet. */
const tone: Record<SiteState, string> = {
  found: 'text-emerald-300',
  not_found: 'text-text',
  blocked: 'text-amber-300',
  error: 'text-rose-300',
  not_checked: 'text-slate-300',
};
const dot: Record<SiteState, string> = {
  found: 'bg-emerald-400',
  not_found: 'bg-slate-500',
  blocked: 'bg-amber-400',
  error: 'bg-rose-400',
  not_checked: 'bg-slate-400',
};

/** From this share of the sites asked blocked or failed, the summary says the check is partial. */
const PARTIAL_FROM = 0.1;

/**
 * The site check at a glance: how many sites are in each state, how many of the catalogue's sites
 * were asked, whether so many would not say that the check is partial, and, when an account was found, the caution every such find needs (a name is not a person).
 */
export function SiteCheckSummary({
  check,
  caution = true,
}: {
  check: SiteCheckAnswer;
  /** Whether to say that a name is not a person (only said when some account was found). */
  caution?: boolean;
}) {
  const id = useId();
  const counts = countsOf(check);
  const asked = Math.max(0, check.catalogue.scope - counts.not_checked);
  const unanswered = counts.blocked + counts.error;
  const partial = asked > 0 && unanswered / asked >= PARTIAL_FROM;
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={id} className="section-title">
          {t.summary}
        </h2>
        <p className="text-sm text-muted tabular-nums">{t.checkedOf(asked, check.catalogue.sites)}</p>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
        {SITE_STATES.map((state) => (
          <div
            key={state}
            className={`rounded-xl border border-line bg-night/60 px-3 py-2.5 ${state === 'found' ? 'col-span-2 sm:col-span-1' : ''}`}
          >
            <dt className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-muted uppercase">
              <span aria-hidden="true" className={`size-2 shrink-0 rounded-full ${dot[state]}`} />
              {t.states[state]}
            </dt>
            <dd
              className={`mt-1 text-2xl leading-tight font-bold tabular-nums ${counts[state] > 0 ? tone[state] : 'text-muted'}`}
            >
              {counts[state].toLocaleString('en-US')}
            </dd>
            <dd className="mt-0.5 text-xs leading-snug text-muted">{t.stateHints[state]}</dd>
          </div>
        ))}
      </dl>
      {partial && (
        <p className="unavailable-note mt-4" role="note">
          {t.partial(unanswered, asked)}
        </p>
      )}
      {caution && (
        <p className="mt-4 flex items-start gap-2 text-sm leading-relaxed text-muted">
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
            focusable="false"
            className="mt-0.5 size-4 shrink-0 text-accent"
          >
            <circle cx="12" cy="12" r="9" />
            <path d="M12 11v5M12 8h.01" />
          </svg>
          {t.sameName}
        </p>
      )}
    </section>
  );
}
