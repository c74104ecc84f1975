import {
  analyzePhoneLookup,
  DETAIL_KINDS,
  extraRecords,
  isPhoneResultEmpty,
  type MergedProfile,
  mergePhoneProfile,
  messages,
  type PhoneLookupResponse,
  phoneHighlights,
} from '@footprint/domain';
import { useDeferredValue, useMemo, useState } from 'react';
import { useKindAvailable } from '../../../lib/sources.ts';
import { filterKey, hasProfileContent } from '../filter.ts';
import { CreditReportModal, type CreditReportPrefill } from '../modals/CreditReportModal.tsx';
import { DetailModal } from '../modals/DetailModal.tsx';
import { RefreshDialog } from '../modals/RefreshDialog.tsx';
import { useDetailLookups } from '../modals/useDetailLookups.ts';
import type { ResultsState } from '../resultsState.ts';
import { answerPanel, phoneParts, showsSynthetic } from '../sourcePanel.ts';
import { useFiltered } from '../useFiltered.ts';
import { useProfileLookups } from '../useProfileLookups.tsx';
import type { ProfileActions } from './ActionButton.tsx';
import { AnswerHeader } from './AnswerHeader.tsx';
import { Evidence } from './Evidence.tsx';
import { FilterBox } from './FilterBox.tsx';
import { MergedProfileView } from './MergedProfile.tsx';
import { NoResults } from './NoResults.tsx';
import { NothingMatches } from './NothingMatches.tsx';
import { PhoneOverview } from './PhoneOverview.tsx';
import { ProfileSummary } from './ProfileSummary.tsx';
import { ResultsFrame } from './ResultsFrame.tsx';

const t = messages.results;

/** The Gov-sourced name and phone of the profile prefill the credit report (spec §2.5). */
function creditReportPrefill(
  profile: MergedProfile,
  pan: string,
  fallbackMobile: string,
): CreditReportPrefill {
  const gov = (entries: MergedProfile['names']) => entries.find((entry) => entry.source === 'Gov')?.value;
  return {
    pan,
    name: gov(profile.names) ?? '',
    mobile: (gov(profile.phones) ?? fallbackMobile).replace(/\D/g, '').slice(-10),
  };
}

export function PhoneResults({
  state,
  results,
}: {
  state: ResultsState & { type: 'tel' };
  results: PhoneLookupResponse;
}) {
  const profile = useMemo(() => mergePhoneProfile(results), [results]);
  const analysis = useMemo(() => analyzePhoneLookup(results), [results]);
  const highlights = useMemo(() => phoneHighlights(results), [results]);
  const records = useMemo(() => extraRecords(results.osintData), [results]);
  const empty = useMemo(() => isPhoneResultEmpty(results), [results]);
  const panel = useMemo(() => answerPanel('tel', phoneParts(results)), [results]);
  const details = useDetailLookups(state.caseReference, state.legalBasis);
  const lookups = useProfileLookups(state);
  const available = useKindAvailable();
  const [creditReport, setCreditReport] = useState<CreditReportPrefill | null>(null);
  const [filter, setFilter] = useState('');
  const query = useDeferredValue(filter);
  const shown = useFiltered(analysis, profile, records, query);
  const display = state.dialCode ? `+${state.dialCode} ${state.userInput}` : state.userInput;
  const name = analysis.attributes.find((a) => a.attribute === 'Name')?.values[0];

  // A search this deployment has no source for is not offered (it would only answer 503).
  const actions = useMemo<ProfileActions>(
    () => ({
      onCreditReport: available('corporate:credit_report')
        ? (pan) => setCreditReport(creditReportPrefill(profile, pan, state.userInput))
        : undefined,
      onDetails: Object.fromEntries(
        DETAIL_KINDS.filter(available).map((kind) => [
          kind,
          (value: string) => void details.open(kind, value),
        ]),
      ),
      ...lookups.actions,
    }),
    [profile, state.userInput, details.open, available, lookups.actions],
  );

  const answered = <AnswerHeader state={state} answer={results} className="mt-0.5" />;
  if (empty)
    return (
      <NoResults
        searched={display}
        panel={panel}
        searchedBy={state.searchedBy}
        answered={<AnswerHeader state={state} answer={results} className="mt-2 justify-center" />}
      />
    );

  return (
    <ResultsFrame
      state={state}
      display={display}
      copyValue={state.dialCode ? `+${state.dialCode}${state.userInput}` : state.userInput}
      report={{ userInput: state.userInput, type: 'tel', results }}
      synthetic={showsSynthetic(phoneParts(results))}
      cached={results.cached === true}
      panel={panel}
      answered={answered}
    >
      <div className="grid items-start gap-5 lg:grid-cols-[19rem_minmax(0,1fr)] xl:grid-cols-[21rem_minmax(0,1fr)]">
        <div className="lg:sticky lg:top-40">
          <PhoneOverview profile={profile} highlights={highlights} searched={display} name={name} />
        </div>
        <div className="min-w-0 space-y-4">
          <FilterBox value={filter} onChange={setFilter} />
          {shown.anything ? (
            <MergedProfileView attributes={shown.attributes} actions={actions}>
              {hasProfileContent(shown.more) && <ProfileSummary profile={shown.more} title={t.moreDetails} />}
            </MergedProfileView>
          ) : (
            <NothingMatches query={filter} onClear={() => setFilter('')} />
          )}
        </div>
      </div>
      {shown.anything && (
        <Evidence
          timeline={shown.timeline}
          nextSteps={shown.nextSteps}
          raw={shown.raw}
          records={shown.records}
          filtering={filterKey(query) !== ''}
        />
      )}
      {details.selection && (
        <DetailModal
          selection={details.selection}
          onClose={details.close}
          refresh={{ onClick: details.refresh.ask, busy: details.refresh.busy }}
        />
      )}
      {details.selection && details.refresh.confirming && (
        <RefreshDialog
          price={details.refresh.price}
          credits={details.refresh.credits}
          busy={details.refresh.busy}
          onConfirm={() => void details.refresh.confirm()}
          onClose={details.refresh.cancel}
        />
      )}
      {creditReport && (
        <CreditReportModal
          prefill={creditReport}
          caseReference={state.caseReference}
          onClose={() => setCreditReport(null)}
        />
      )}
      {lookups.overlay}
    </ResultsFrame>
  );
}
