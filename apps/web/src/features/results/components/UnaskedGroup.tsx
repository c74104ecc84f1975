import { type AnsweredSite, messages } from '@footprint/domain';
import { useMemo } from 'react';
import { byReason, type UnaskedState } from '../username.ts';
import { ExternalLink } from './ExternalLink.tsx';

const t = messages.usernameResults;

/** How many sites a group may hold and still open by itself; a longer list waits to be opened. */
const OPEN_UP_TO = 12;

const tone: Record<UnaskedState, string> = {
  blocked: 'chip-amber',
  error: 'chip-rose',
  not_checked: 'chip-slate',
};

/**
 * One kind of site that could not say (blocked, errors, not checked), as a disclosure: its count in
 * the summary, then its sites grouped under each reason, every site's name a link to the profile
 * address, so the investigator can look by hand. Short lists open by themselves; a filter opens them.
 */
export function UnaskedGroup({
  state,
  sites,
  total,
  filtering,
}: {
  state: UnaskedState;
  sites: readonly AnsweredSite[];
  /** How many sites are in this state (the filter may show fewer). */
  total: number;
  filtering: boolean;
}) {
  const groups = useMemo(() => byReason(sites, t.noReason), [sites]);
  if (sites.length === 0) return null;
  return (
    <details className="source-panel group" open={filtering || total <= OPEN_UP_TO}>
      <summary className="source-panel-summary">
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
          focusable="false"
          className="size-4 shrink-0 transition-transform group-open:rotate-90"
        >
          <path d="m9 6 6 6-6 6" />
        </svg>
        <span className="font-semibold text-text">{t.groupTitle[state]}</span>
        <span className={`source-chip ${tone[state]} tabular-nums`}>
          {sites.length === total ? total.toLocaleString('en-US') : t.shownOf(sites.length, total)}
        </span>
        <span className="hidden min-w-0 truncate text-xs sm:inline">{t.stateHints[state]}</span>
      </summary>
      <div className="source-panel-body space-y-3 pb-3">
        {groups.map((group) => (
          <div key={group.reason} className="px-1">
            <h3 className="text-xs font-semibold text-text">
              {t.reasonSites(group.reason, group.sites.length)}
            </h3>
            <ul
              aria-label={t.reasonSites(group.reason, group.sites.length)}
              className="mt-1.5 flex flex-wrap gap-x-3 gap-y-1 text-sm"
            >
              {group.sites.map((site) => (
                <li
                  key={site.site}
                  className="min-w-0 break-words after:ml-3 after:inline-block after:size-1 after:rounded-full after:bg-muted/40 after:align-middle after:content-[''] last:after:hidden"
                >
                  <ExternalLink href={site.url}>{site.name}</ExternalLink>
                  {site.india && (
                    <span className="source-chip chip-indigo ml-1.5 align-middle" title={t.indiaTitle}>
                      {t.india}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </details>
  );
}
