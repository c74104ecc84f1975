import { messages, type PROFILE_SECTIONS, type ProfileEntry } from '@footprint/domain';
import type { ReactNode } from 'react';
import { ActionButton, detailButtons, type ProfileActions } from './ActionButton.tsx';
import { SourceChip } from './SourceChip.tsx';

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

export function EntryRow({
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
  buttons.push(...detailButtons({ section }, entry.value, actions));

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
