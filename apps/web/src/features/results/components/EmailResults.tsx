import {
  analyzeEmailLookup,
  type Breach,
  type EmailLookupResponse,
  extraRecords,
  isEmailResultEmpty,
  mergeEmailProfile,
  messages,
} from '@footprint/domain';
import { useDeferredValue, useMemo, useState } from 'react';
import { filterBreaches, filterKey, hasProfileContent, matches } from '../filter.ts';
import type { ResultsState } from '../resultsState.ts';
import { answerPanel, emailParts, showsSynthetic } from '../sourcePanel.ts';
import { useFiltered } from '../useFiltered.ts';
import { useProfileLookups } from '../useProfileLookups.tsx';
import { AnswerHeader } from './AnswerHeader.tsx';
import { AccountProviderCard, AvatarServiceCard, BreachesGrid } from './EmailCards.tsx';
import { Evidence } from './Evidence.tsx';
import { FilterBox } from './FilterBox.tsx';
import { LocationsSection } from './LocationsSection.tsx';
import { MergedProfileView } from './MergedProfile.tsx';
import { NoResults } from './NoResults.tsx';
import { NothingMatches } from './NothingMatches.tsx';
import { ProfileSummary } from './ProfileSummary.tsx';
import { ResultsFrame } from './ResultsFrame.tsx';

const t = messages.results;

export function EmailResults({
  state,
  response,
}: {
  state: ResultsState & { type: 'email' };
  response: EmailLookupResponse;
}) {
  const data = response.data;
  const profile = useMemo(() => mergeEmailProfile(data), [data]);
  const analysis = useMemo(
    () =>
      analyzeEmailLookup(data, { sourceStatus: response.source_status, answeredAt: response.answered_at }),
    [data, response.source_status, response.answered_at],
  );
  const records = useMemo(() => extraRecords(data.osintData), [data]);
  const empty = useMemo(() => isEmailResultEmpty(data), [data]);
  const panel = useMemo(() => answerPanel('email', emailParts(response)), [response]);
  const lookups = useProfileLookups(state);
  const [filter, setFilter] = useState('');
  const query = useDeferredValue(filter);
  const shown = useFiltered(analysis, profile, records, query);
  const breaches = useMemo(
    () =>
      filterBreaches(
        (Array.isArray(data.hibpData) ? data.hibpData : []).filter(
          (b): b is Breach => typeof b === 'object' && b !== null,
        ),
        query,
        t.foundBreaches,
      ),
    [data.hibpData, query],
  );
  const reviews = useMemo(
    () =>
      matches(query, t.locations)
        ? data.emailData?.maps_result?.reviews
        : (data.emailData?.maps_result?.reviews ?? []).filter((r) =>
            matches(query, r?.place_name, r?.address, r?.text, r?.published_at),
          ),
    [data.emailData, query],
  );

  if (empty)
    return (
      <NoResults
        searched={state.userInput}
        panel={panel}
        searchedBy={state.searchedBy}
        answered={<AnswerHeader state={state} answer={response} className="mt-2 justify-center" />}
      />
    );

  const hasAccount = Boolean(data.emailData?.PROFILE_CONTAINER?.profile?.personId);
  const hasAvatar = (data.zehefData?.data ?? []).length > 0;
  // The account and avatar cards are the subject's own profiles: shown unless the filter rules them out.
  const side =
    (hasAccount || hasAvatar) &&
    matches(
      query,
      t.accountProviderTitle,
      t.avatarServiceTitle,
      JSON.stringify(data.emailData?.PROFILE_CONTAINER ?? ''),
      JSON.stringify(data.zehefData ?? ''),
    );
  const anything = shown.anything || side || breaches.length > 0 || (reviews ?? []).length > 0;

  return (
    <ResultsFrame
      state={state}
      display={state.userInput}
      copyValue={state.userInput}
      report={{ userInput: state.userInput, type: 'email', results: data }}
      synthetic={showsSynthetic(emailParts(response))}
      cached={response.cached === true}
      panel={panel}
      answered={<AnswerHeader state={state} answer={response} className="mt-0.5" />}
    >
      <div
        className={`grid items-start gap-5 ${side ? 'lg:grid-cols-[21rem_minmax(0,1fr)] xl:grid-cols-[23rem_minmax(0,1fr)]' : ''}`}
      >
        {side && (
          <div className="space-y-4">
            <AccountProviderCard emailData={data.emailData} />
            <AvatarServiceCard zehefData={data.zehefData} />
          </div>
        )}
        <div className="min-w-0 space-y-4">
          <FilterBox value={filter} onChange={setFilter} />
          {anything ? (
            (shown.attributes.length > 0 || hasProfileContent(shown.more)) && (
              <MergedProfileView attributes={shown.attributes} actions={lookups.actions}>
                {hasProfileContent(shown.more) && (
                  <ProfileSummary profile={shown.more} title={t.moreDetails} />
                )}
              </MergedProfileView>
            )
          ) : (
            <NothingMatches query={filter} onClear={() => setFilter('')} />
          )}
        </div>
      </div>
      <BreachesGrid breaches={breaches} />
      {anything && (
        <Evidence
          timeline={shown.timeline}
          nextSteps={shown.nextSteps}
          raw={shown.raw}
          records={shown.records}
          filtering={filterKey(query) !== ''}
        />
      )}
      <LocationsSection reviews={reviews} />
      {lookups.overlay}
    </ResultsFrame>
  );
}
