import { type AnsweredSite, messages } from '@footprint/domain';
import { useId } from 'react';
import { FoundSiteRow } from './FoundSiteRow.tsx';

const t = messages.usernameResults;

/**
 * The accounts found, one row each (the filter may have narrowed them: `total` is how many were
 * found). The list is named by its count so a screen reader hears it before the rows.
 */
export function FoundSites({ sites, total }: { sites: readonly AnsweredSite[]; total: number }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="card px-4 pt-3 pb-1 sm:px-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="section-title">
          {t.foundTitle}
          <span className="section-count">{total.toLocaleString('en-US')}</span>
        </h2>
        {sites.length !== total && (
          <p className="text-xs text-muted tabular-nums">{t.shownOf(sites.length, total)}</p>
        )}
      </div>
      <ul aria-label={t.foundListLabel(sites.length)} className="mt-1 divide-y divide-line/70">
        {sites.map((site) => (
          <FoundSiteRow key={site.site} site={site} />
        ))}
      </ul>
    </section>
  );
}
