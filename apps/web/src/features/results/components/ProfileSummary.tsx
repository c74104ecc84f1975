import {
  type Experience,
  type MergedProfile,
  messages,
  type PlatformPresence,
  PROFILE_SECTIONS,
  type ProfileEntry,
  type Qualification,
} from '@footprint/domain';
import { type ReactNode, useId } from 'react';
import { safeHref } from '../format.ts';
import { PlatformIcon } from './PlatformIcon.tsx';
import { SourceChip } from './SourceChip.tsx';

/**
 * The merged profile (spec §2.5): every section of PROFILE_SECTIONS that has entries, in the spec's
 * order, each value with the chip of its source. Identity proofs, RC numbers and UPI ids carry the
 * buttons of the paid detail lookups; Internet Presence is a platform list with Active/Inactive.
 */

export interface ProfileActions {
  onCreditReport?: (pan: string) => void;
  onRcDetails?: (rc: string) => void;
  onChallanDetails?: (rc: string) => void;
  onUpiDetails?: (upi: string) => void;
}

type EntryKey = Exclude<
  (typeof PROFILE_SECTIONS)[number]['key'],
  'qualifications' | 'experience' | 'internetPresence'
>;

const monoSections = new Set<string>([
  'phones',
  'identityProofs',
  'rcNumbers',
  'upiIds',
  'bankDetails',
  'countryCodes',
]);

function years(start?: number, end?: number): string | undefined {
  if (start && end) return start === end ? String(start) : `${start}–${end}`;
  if (start) return `${start}–present`;
  if (end) return `until ${end}`;
  return undefined;
}

function ExternalLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const safe = safeHref(href);
  if (!safe) return <>{children}</>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer" className="link-accent">
      {children}
      <span className="sr-only">{messages.layout.opensInNewTab}</span>
    </a>
  );
}

/** A detail or report button beside a value, named with the value it opens. */
export function ActionButton({
  label,
  target,
  onClick,
}: {
  label: string;
  target: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className="btn-chip" onClick={onClick} aria-label={`${label}: ${target}`}>
      {label}
    </button>
  );
}

function EntryRow({
  section,
  entry,
  actions,
}: {
  section: EntryKey;
  entry: ProfileEntry;
  actions: ProfileActions;
}) {
  const buttons: ReactNode[] = [];
  if (
    section === 'identityProofs' &&
    entry.key === messages.profile.identityProofs.pan_number &&
    actions.onCreditReport
  ) {
    buttons.push(
      <ActionButton
        key="credit"
        label={messages.creditReport.button}
        target={entry.value}
        onClick={() => actions.onCreditReport?.(entry.value)}
      />,
    );
  }
  if (section === 'rcNumbers') {
    if (actions.onRcDetails)
      buttons.push(
        <ActionButton
          key="rc"
          label={messages.details.rcTitle}
          target={entry.value}
          onClick={() => actions.onRcDetails?.(entry.value)}
        />,
      );
    if (actions.onChallanDetails)
      buttons.push(
        <ActionButton
          key="challan"
          label={messages.details.challanTitle}
          target={entry.value}
          onClick={() => actions.onChallanDetails?.(entry.value)}
        />,
      );
  }
  if (section === 'upiIds' && actions.onUpiDetails) {
    buttons.push(
      <ActionButton
        key="upi"
        label={messages.details.upiTitle}
        target={entry.value}
        onClick={() => actions.onUpiDetails?.(entry.value)}
      />,
    );
  }

  return (
    <li className="entry-row">
      {/* With action buttons the value keeps at least 6rem: on a phone the buttons wrap below it
          rather than squeezing an RC number onto two lines. */}
      <div
        className={`min-w-0 ${buttons.length > 0 ? 'grow basis-24' : 'flex-1'} ${entry.key ? 'sm:flex sm:items-baseline sm:gap-3' : ''}`}
      >
        {entry.key && <span className="entry-key sm:w-28 sm:shrink-0">{entry.key}</span>}
        <span className={`entry-value min-w-0 ${monoSections.has(section) ? 'font-mono text-[0.8rem]' : ''}`}>
          {entry.value}
        </span>
      </div>
      <div className="ml-auto flex flex-wrap items-center justify-end gap-1.5">
        {buttons}
        <SourceChip source={entry.source} />
      </div>
    </li>
  );
}

function QualificationRow({ item }: { item: Qualification }) {
  const heading = [item.degree, item.field].filter(Boolean).join(', ');
  const period = years(item.startYear, item.endYear);
  return (
    <li className="entry-row">
      <div className="min-w-0 flex-1">
        <span className="entry-value">{heading || item.school}</span>
        {heading && item.school && (
          <span className="block text-xs text-muted">
            <ExternalLink href={item.url}>{item.school}</ExternalLink>
          </span>
        )}
        {period && <span className="block text-xs text-muted tabular-nums">{period}</span>}
      </div>
      <SourceChip source={item.source} />
    </li>
  );
}

function ExperienceRow({ item }: { item: Experience }) {
  const period = years(item.startYear, item.endYear);
  return (
    <li className="entry-row">
      <div className="min-w-0 flex-1">
        <span className="entry-value">{item.title ?? item.company}</span>
        {item.title && item.company && (
          <span className="block text-xs text-muted">
            <ExternalLink href={item.url}>{item.company}</ExternalLink>
          </span>
        )}
        {period && <span className="block text-xs text-muted tabular-nums">{period}</span>}
      </div>
      <SourceChip source={item.source} />
    </li>
  );
}

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="profile-section">
      <h3 id={id} className="section-title">
        {title}
        <span className="section-count" aria-hidden="true">
          {count}
        </span>
      </h3>
      <ul className="divide-y divide-line/60">{children}</ul>
    </section>
  );
}

interface PlatformGroup {
  platform: string;
  active: boolean;
  url?: string;
  sources: PlatformPresence['source'][];
}

/**
 * One tile per platform: several sources reporting the same platform ('Instagram' from the social scan,
 * 'instagram' from the registered-sites check) corroborate each other rather than repeat. A platform is
 * Active when any source found an account there.
 */
export function groupPlatforms(platforms: PlatformPresence[]): PlatformGroup[] {
  const groups = new Map<string, PlatformGroup>();
  for (const item of platforms) {
    const key = item.platform.toLowerCase().replace(/[^a-z0-9]/g, '') || item.platform;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        platform: item.platform,
        active: item.active,
        url: item.url,
        sources: [item.source],
      });
      continue;
    }
    group.active ||= item.active;
    group.url ??= item.url;
    if (!group.sources.includes(item.source)) group.sources.push(item.source);
    // Prefer the spelling with capitals ('GitHub' over 'github').
    if (group.platform === group.platform.toLowerCase() && item.platform !== item.platform.toLowerCase())
      group.platform = item.platform;
  }
  // Accounts that exist first: they are the leads; inactive platforms are negative findings.
  return [...groups.values()].sort((a, b) => Number(b.active) - Number(a.active));
}

export function InternetPresence({ platforms }: { platforms: PlatformPresence[] }) {
  const id = useId();
  const groups = groupPlatforms(platforms);
  const active = groups.filter((group) => group.active).length;
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <h3 id={id} className="section-title">
        {messages.results.internetPresence}
        <span className="section-count">
          <span className="sr-only">{messages.results.activeOn}</span>
          {active}/{groups.length}
        </span>
      </h3>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
        {groups.map((item) => (
          <li
            key={item.platform}
            className={`flex items-center gap-3 rounded-xl border px-3 py-2 ${
              item.active ? 'border-line bg-night/60' : 'border-line/50 bg-transparent'
            }`}
          >
            <PlatformIcon platform={item.platform} dimmed={!item.active} />
            <div className="min-w-0 flex-1">
              <p className={`truncate text-sm font-medium ${item.active ? 'text-text' : 'text-muted'}`}>
                <ExternalLink href={item.url}>{item.platform}</ExternalLink>
              </p>
              <p className="mt-0.5 flex flex-wrap items-center gap-1">
                <span className={item.active ? 'status-badge status-on' : 'status-badge status-off'}>
                  {item.active ? messages.results.active : messages.results.inactive}
                </span>
                {item.sources.map((source) => (
                  <SourceChip key={source} source={source} />
                ))}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Titles of the sections that have something to show, for tests and the summary line. */
export function filledSections(profile: MergedProfile): string[] {
  return PROFILE_SECTIONS.filter(({ key }) => profile[key].length > 0).map(({ title }) => title);
}

export function ProfileSummary({
  profile,
  actions = {},
  title = messages.results.profileSummary,
}: {
  profile: MergedProfile;
  actions?: ProfileActions;
  title?: string;
}) {
  const id = useId();
  const blocks: ReactNode[] = [];
  for (const { key, title: sectionTitle } of PROFILE_SECTIONS) {
    if (key === 'internetPresence') continue;
    if (key === 'qualifications') {
      if (profile.qualifications.length > 0)
        blocks.push(
          <Section key={key} title={sectionTitle} count={profile.qualifications.length}>
            {profile.qualifications.map((item, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows never reorder
              <QualificationRow key={index} item={item} />
            ))}
          </Section>,
        );
      continue;
    }
    if (key === 'experience') {
      if (profile.experience.length > 0)
        blocks.push(
          <Section key={key} title={sectionTitle} count={profile.experience.length}>
            {profile.experience.map((item, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows never reorder
              <ExperienceRow key={index} item={item} />
            ))}
          </Section>,
        );
      continue;
    }
    const entries = profile[key];
    if (entries.length === 0) continue;
    blocks.push(
      <Section key={key} title={sectionTitle} count={entries.length}>
        {entries.map((entry) => (
          <EntryRow
            key={`${entry.source}|${entry.key ?? ''}|${entry.value}`}
            section={key}
            entry={entry}
            actions={actions}
          />
        ))}
      </Section>,
    );
  }

  return (
    <section aria-labelledby={id} className="space-y-4">
      <h2 id={id} className="results-heading">
        {title}
      </h2>
      {blocks.length > 0 && <div className="profile-columns">{blocks}</div>}
      {profile.internetPresence.length > 0 && <InternetPresence platforms={profile.internetPresence} />}
    </section>
  );
}
