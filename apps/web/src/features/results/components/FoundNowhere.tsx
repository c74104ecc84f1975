import { messages, type SiteCheckAnswer } from '@footprint/domain';
import { useId } from 'react';
import { countsOf } from '../username.ts';

const t = messages.usernameResults;

/**
 * The name was found on no site: not the generic no-results view (the check did run), but how many
 * sites said no and how many could not be asked or would not say — on those the name may still be.
 */
export function FoundNowhere({ check, username }: { check: SiteCheckAnswer; username: string }) {
  const id = useId();
  const counts = countsOf(check);
  const unasked = counts.blocked + counts.error + counts.not_checked;
  return (
    <section
      aria-labelledby={id}
      className="card flex flex-col items-center gap-2 px-5 py-8 text-center sm:py-10"
    >
      <span className="inline-flex size-12 items-center justify-center rounded-full border border-line bg-night text-muted">
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.75"
          aria-hidden="true"
          focusable="false"
          className="size-6"
        >
          <circle cx="11" cy="11" r="6.5" />
          <path d="m20 20-4.2-4.2M8.5 11h5" />
        </svg>
      </span>
      <h2 id={id} className="mt-2 text-xl font-bold tracking-tight text-text">
        {t.noneFoundTitle}
      </h2>
      <p className="font-mono text-sm text-text/90">{username}</p>
      <p className="max-w-xl text-sm leading-relaxed text-muted">
        {t.noneFoundBody(counts.not_found, unasked)}
      </p>
      <p className="text-xs text-muted">{t.noneFoundFree}</p>
    </section>
  );
}
