import { type analyzePhoneLookup, type extraRecords, type MergedProfile, messages } from '@footprint/domain';
import { hasProfileContent } from '../filter.ts';
import { NextSteps } from './NextSteps.tsx';
import { ProfileSummary } from './ProfileSummary.tsx';
import { RecordCards } from './RecordCards.tsx';
import { SourceRecords } from './SourceRecords.tsx';
import { Timeline } from './Timeline.tsx';

const t = messages.results;

/** The evidence below the answer: the timeline and next steps side by side, then the source records. */
export function Evidence({
  timeline,
  nextSteps,
  raw,
  records,
  filtering,
}: {
  timeline: ReturnType<typeof analyzePhoneLookup>['timeline'];
  nextSteps: string[];
  raw: MergedProfile;
  records: ReturnType<typeof extraRecords>;
  filtering: boolean;
}) {
  return (
    <>
      {(timeline.length > 0 || nextSteps.length > 0) && (
        <div className="grid items-start gap-5 lg:grid-cols-2">
          <NextSteps steps={nextSteps} />
          <Timeline events={timeline} />
        </div>
      )}
      {(hasProfileContent(raw) || records.length > 0) && (
        <SourceRecords forceOpen={filtering}>
          {hasProfileContent(raw) && <ProfileSummary profile={raw} title={t.valuesBySource} />}
          <RecordCards records={records} />
        </SourceRecords>
      )}
    </>
  );
}
