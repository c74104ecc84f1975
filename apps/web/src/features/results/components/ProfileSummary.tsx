import { type MergedProfile, messages, PROFILE_SECTIONS } from '@footprint/domain';
import { type ReactNode, useId } from 'react';
import type { ProfileActions } from './ActionButton.tsx';
import { EntryRow } from './EntryRow.tsx';
import { ExperienceRow } from './ExperienceRow.tsx';
import { InternetPresence } from './InternetPresence.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { QualificationRow } from './QualificationRow.tsx';

/**
 * The merged profile (spec §2.5): every section of PROFILE_SECTIONS that has entries, in the spec's
 * order, each value with the chip of its source. Identity proofs, RC numbers and UPI ids carry the
 * buttons of the paid detail lookups; Internet Presence is a platform list with Active/Inactive.
 */

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
          <ProfileSection key={key} title={sectionTitle} count={profile.qualifications.length}>
            {profile.qualifications.map((item, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows never reorder
              <QualificationRow key={index} item={item} />
            ))}
          </ProfileSection>,
        );
      continue;
    }
    if (key === 'experience') {
      if (profile.experience.length > 0)
        blocks.push(
          <ProfileSection key={key} title={sectionTitle} count={profile.experience.length}>
            {profile.experience.map((item, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows never reorder
              <ExperienceRow key={index} item={item} />
            ))}
          </ProfileSection>,
        );
      continue;
    }
    const entries = profile[key];
    if (entries.length === 0) continue;
    blocks.push(
      <ProfileSection key={key} title={sectionTitle} count={entries.length}>
        {entries.map((entry) => (
          <EntryRow
            key={`${entry.source}|${entry.key ?? ''}|${entry.value}`}
            section={key}
            entry={entry}
            actions={actions}
          />
        ))}
      </ProfileSection>,
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
