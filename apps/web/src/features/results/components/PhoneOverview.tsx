import {
  type AnalysisValue,
  type MergedProfile,
  messages,
  type PhoneHighlights,
  type SourceLabel,
} from '@footprint/domain';
import type { ReactNode } from 'react';
import { safeHref } from '../format.ts';
import { ProfileImages } from './ProfileImages.tsx';
import { SourceChip } from './SourceChip.tsx';

function Tile({
  label,
  children,
  tone = 'default',
}: {
  label: string;
  children: ReactNode;
  tone?: 'default' | 'good';
}) {
  return (
    <div className={`tile ${tone === 'good' ? 'tile-good' : ''}`}>
      <dt className="tile-label">{label}</dt>
      <dd className="tile-value">{children}</dd>
    </div>
  );
}

/**
 * The head of the phone results (spec §2.5, 'Other elements'): the pictures, the merged profile's
 * leading name (the analysis's most confident, with the sources that agree on it),
 * the spam warning, and the tiles for Phone Status, Phone IMSI and a WhatsApp Business account, plus the
 * Facebook profile link.
 */
export function PhoneOverview({
  profile,
  highlights,
  searched,
  name: primary,
}: {
  profile: MergedProfile;
  highlights: PhoneHighlights;
  searched: string;
  /** The merged profile's leading name. */
  name?: AnalysisValue;
}) {
  const agreeing = primary?.sources ?? [];
  const facebook = safeHref(highlights.facebookUrl);
  return (
    <section aria-label={messages.results.overview} className="card space-y-4 p-4 sm:p-5">
      <div className="flex items-start gap-4">
        <ProfileImages images={profile.images} name={primary?.value ?? searched} />
        {profile.images.length === 0 && (
          <span
            aria-hidden="true"
            className="flex size-16 shrink-0 items-center justify-center rounded-xl border border-line bg-surface-2 text-2xl font-semibold text-muted"
          >
            {(primary?.value ?? '?').slice(0, 1).toUpperCase()}
          </span>
        )}
      </div>
      <div className="min-w-0">
        <p className="text-lg font-semibold break-words text-text">
          {primary?.value ?? messages.results.unknownUser}
        </p>
        {primary && (
          <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted">
            {agreeing.length > 1 ? messages.results.corroboratedBy : messages.results.reportedBy}
            {agreeing.map((source) => (
              <SourceChip key={source} source={source as SourceLabel} />
            ))}
          </p>
        )}
        <p className="mt-1 font-mono text-sm text-muted">{searched}</p>
      </div>

      {highlights.markedAsSpam && (
        <p className="flex items-center gap-2 rounded-xl border border-danger/40 bg-danger/10 px-3 py-2 text-sm font-semibold text-danger">
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
            <path d="M12 9v4M12 17h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
          </svg>
          {messages.results.markedAsSpam}
        </p>
      )}

      <dl className="grid grid-cols-2 gap-2">
        <Tile
          label={messages.results.phoneStatus}
          tone={highlights.phoneStatus === 'Active' ? 'good' : 'default'}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-2 rounded-full ${highlights.phoneStatus === 'Active' ? 'bg-success' : 'bg-muted'}`}
          />
          {highlights.phoneStatus === 'Active'
            ? messages.results.active
            : highlights.phoneStatus === 'Inactive'
              ? messages.results.inactive
              : messages.results.notKnown}
        </Tile>
        {highlights.imsi && (
          <Tile label={messages.results.phoneImsi}>
            <span className="font-mono text-[0.8rem] break-all">{highlights.imsi}</span>
          </Tile>
        )}
        {highlights.whatsappBusiness && (
          <Tile label={messages.results.whatsappBusiness} tone="good">
            {messages.results.yes}
          </Tile>
        )}
      </dl>

      {facebook && (
        <a href={facebook} target="_blank" rel="noopener noreferrer" className="btn-ghost w-full">
          <span
            aria-hidden="true"
            className="inline-flex size-5 items-center justify-center rounded bg-[#1877f2] text-xs font-bold text-white"
          >
            f
          </span>
          {messages.results.facebookProfile}
          <span className="sr-only">{messages.layout.opensInNewTab}</span>
        </a>
      )}
    </section>
  );
}
