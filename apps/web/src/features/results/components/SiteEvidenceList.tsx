import { messages, type SiteEvidence } from '@footprint/domain';
import type { ReactNode } from 'react';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { formatDateTime } from '../../../lib/datetime.ts';
import { ExternalLink } from './ExternalLink.tsx';

const t = messages.usernameResults;

function Line({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-x-4 gap-y-0.5 py-1.5 sm:grid-cols-[8.5rem_minmax(0,1fr)] sm:items-baseline">
      <dt className="entry-key">{term}</dt>
      <dd className="min-w-0 text-sm text-text">{children}</dd>
    </div>
  );
}

/**
 * What a found site's page rests on: the address the answer came from after redirects, its HTTP
 * status, its title, the SHA-256 of the bytes read (with a copy button, for a note or a seizure
 * memo) and how many bytes that was, and when the answer came.
 */
export function SiteEvidenceList({ site, evidence }: { site: string; evidence: SiteEvidence | undefined }) {
  if (!evidence) return <p className="text-sm text-muted">{t.noEvidence}</p>;
  const ok = evidence.status >= 200 && evidence.status < 300;
  return (
    <dl className="divide-y divide-line/60">
      <Line term={t.finalUrl}>
        <span className="font-mono text-[0.8rem] break-all">
          <ExternalLink href={evidence.final_url}>{evidence.final_url}</ExternalLink>
        </span>
      </Line>
      <Line term={t.httpStatus}>
        <span className={`source-chip ${ok ? 'chip-emerald' : 'chip-amber'} tabular-nums`}>
          {evidence.status}
        </span>
      </Line>
      <Line term={t.pageTitle}>
        <span className="break-words">{evidence.title || t.noTitle}</span>
      </Line>
      <Line term={t.sha256}>
        <span className="flex items-start gap-2">
          <code className="min-w-0 flex-1 font-mono text-[0.8rem] leading-relaxed break-all text-text/90">
            {evidence.sha256}
          </code>
          <CopyButton text={evidence.sha256} label={t.copySha256(site)} className="shrink-0" />
        </span>
      </Line>
      <Line term={t.bytes}>
        <span className="tabular-nums">{evidence.bytes.toLocaleString('en-US')}</span>
      </Line>
      <Line term={t.answeredAt}>
        <time dateTime={evidence.checked_at} title={evidence.checked_at}>
          {formatDateTime(evidence.checked_at, true) || evidence.checked_at}
        </time>
      </Line>
    </dl>
  );
}
