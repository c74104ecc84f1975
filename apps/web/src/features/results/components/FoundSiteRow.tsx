import { type AnsweredSite, messages } from '@footprint/domain';
import { useId, useState } from 'react';
import { Chevron } from '../../../components/Icon.tsx';
import { clockTime } from '../username.ts';
import { CaptureButton } from './CaptureButton.tsx';
import { ExternalLink } from './ExternalLink.tsx';
import { SiteEvidenceList } from './SiteEvidenceList.tsx';

const t = messages.usernameResults;

/**
 * One account found: the site, its category and India mark, the profile address (opens in a new
 * tab), when the site was checked, 'Capture' (the page into a case) and its evidence behind a
 * disclosure button.
 */
export function FoundSiteRow({ site }: { site: AnsweredSite }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const checkedAt = site.evidence?.checked_at ?? site.checked_at;
  return (
    <li className="py-2.5">
      <div className="grid gap-x-4 gap-y-1.5 md:grid-cols-[minmax(11rem,15rem)_minmax(0,1fr)_auto] md:items-center">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-semibold break-words text-text">{site.name}</span>
          {site.category && <span className="source-chip chip-slate">{site.category}</span>}
          {site.india && (
            <span className="source-chip chip-indigo" title={t.indiaTitle}>
              {t.india}
            </span>
          )}
        </div>
        <p className="min-w-0 font-mono text-[0.8rem] break-all">
          <ExternalLink href={site.url}>{site.url}</ExternalLink>
        </p>
        <div className="flex items-center justify-between gap-3 md:justify-end">
          <time dateTime={checkedAt} title={checkedAt} className="text-xs text-muted tabular-nums">
            {t.checkedAt(clockTime(checkedAt))}
          </time>
          <span className="flex items-center gap-2">
            <CaptureButton url={site.url} />
            <button
              type="button"
              className="inline-flex min-h-8 shrink-0 items-center gap-1 rounded-md border border-line px-2 text-xs font-semibold whitespace-nowrap text-muted transition-colors hover:border-accent hover:text-accent aria-expanded:border-accent/60 aria-expanded:bg-accent-soft/40 aria-expanded:text-accent"
              aria-expanded={open}
              aria-controls={panelId}
              aria-label={open ? `${t.hideEvidence}: ${site.name}` : t.evidenceOf(site.name)}
              onClick={() => setOpen((value) => !value)}
            >
              <Chevron open={open} className="size-3.5" />
              {open ? t.hideEvidence : t.evidence}
            </button>
          </span>
        </div>
      </div>
      <div id={panelId} hidden={!open} className="provenance-panel">
        {open && <SiteEvidenceList site={site.name} evidence={site.evidence} />}
      </div>
    </li>
  );
}
