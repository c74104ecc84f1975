import {
  analyzeEmailLookup,
  analyzePhoneLookup,
  type Breach,
  type EmailLookupResponse,
  extraRecords,
  isEmailResultEmpty,
  isPhoneResultEmpty,
  type MergedProfile,
  mergeEmailProfile,
  mergePhoneProfile,
  messages,
  type SourcePanel as Panel,
  type PhoneLookupResponse,
  phoneHighlights,
} from '@footprint/domain';
import { type ReactNode, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { SandboxBanner } from '../../components/SandboxBanner.tsx';
import { paths } from '../../config/paths.ts';
import { useKindAvailable } from '../../lib/sources.ts';
import type { ReportInput } from './api/generateReport.ts';
import { AnswerHeader } from './components/AnswerHeader.tsx';
import { AccountProviderCard, AvatarServiceCard, BreachesGrid } from './components/EmailCards.tsx';
import { LocationsSection } from './components/LocationsSection.tsx';
import {
  FilterBox,
  MergedProfileView,
  NextSteps,
  NothingMatches,
  SourceRecords,
  Timeline,
} from './components/MergedProfile.tsx';
import { PhoneOverview } from './components/PhoneOverview.tsx';
import { type ProfileActions, ProfileSummary } from './components/ProfileSummary.tsx';
import { RecordCards } from './components/RecordCards.tsx';
import { ResultsTopBar } from './components/ResultsTopBar.tsx';
import { SourcePanel } from './components/SourcePanel.tsx';
import {
  filterAnalysis,
  filterBreaches,
  filterKey,
  filterProfile,
  filterRecords,
  hasProfileContent,
  matches,
  unweighedProfile,
} from './filter.ts';
import { CreditReportModal, type CreditReportPrefill } from './modals/CreditReportModal.tsx';
import { DetailModal } from './modals/DetailModal.tsx';
import { RefreshDialog } from './modals/RefreshDialog.tsx';
import { useDetailLookups } from './modals/useDetailLookups.ts';
import { type ResultsState, readResultsState } from './resultsState.ts';
import { answerPanel, emailParts, phoneParts, showsSynthetic } from './sourcePanel.ts';

/**
 * /results (spec §2.5): the answer of a phone or e-mail search, handed over in navigation state by the
 * dashboard. Without state, or with an empty answer, it shows the no-results view.
 */

function NoResultsImage() {
  return (
    <svg
      viewBox="0 0 160 120"
      role="img"
      aria-label={messages.results.noResults}
      className="h-32 w-auto sm:h-40"
    >
      <rect
        x="18"
        y="22"
        width="92"
        height="70"
        rx="10"
        className="fill-surface-2 stroke-line"
        strokeWidth="2"
      />
      <rect x="30" y="38" width="48" height="6" rx="3" className="fill-line" />
      <rect x="30" y="52" width="64" height="6" rx="3" className="fill-line" />
      <rect x="30" y="66" width="36" height="6" rx="3" className="fill-line" />
      <circle cx="106" cy="72" r="24" className="fill-ink stroke-accent" strokeWidth="5" />
      <path d="m123 89 18 18" className="stroke-accent" strokeWidth="8" strokeLinecap="round" />
      <path d="m97 63 18 18M115 63 97 81" className="stroke-muted" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

/**
 * Nothing to show: no value is synthetic, so no sandbox banner; the source panel still says which
 * sources answered nothing and why (and which are sandbox), and `answered` when they answered.
 */
function NoResults({
  searched,
  panel,
  answered,
}: {
  searched?: string;
  panel?: Panel | null;
  answered?: ReactNode;
}) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <NoResultsImage />
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-text">{messages.results.noResults}</h1>
      {searched && (
        <p className="mt-2 text-sm text-muted">
          {messages.results.searchedFor} <span className="font-mono text-text">{searched}</span>
        </p>
      )}
      {answered}
      {panel && (
        <div className="mt-4 w-full max-w-2xl text-left">
          <SourcePanel panel={panel} />
        </div>
      )}
      <Link to={paths.dashboard} className="btn-primary mt-8">
        {messages.search.noResultsButton}
      </Link>
    </div>
  );
}

/** The lookup id a search answered with (absent from answers of an older server). */
const lookupIdOf = (results: unknown): string | undefined => {
  const id = (results as { lookup_id?: unknown } | null)?.lookup_id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * Shared frame of both result kinds: top bar, the sandbox banner (only when a value shown is
 * synthetic), the cached mark, the source panel, then the content.
 */
function ResultsFrame({
  state,
  display,
  copyValue,
  report,
  synthetic,
  cached,
  panel,
  answered,
  children,
}: {
  state: ResultsState;
  display: string;
  copyValue: string;
  report: ReportInput;
  synthetic: boolean;
  cached: boolean;
  panel: Panel | null;
  /** When the sources answered, with Refresh (under the searched value). */
  answered: ReactNode;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const newSearch = useCallback(() => {
    // Spec §2.5: 'New Search' goes back one page. Opened in a fresh tab there is no page to go back to.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(paths.dashboard);
  }, [navigate]);

  return (
    <div className="flex flex-1 flex-col">
      <ResultsTopBar
        type={state.type}
        display={display}
        copyValue={copyValue}
        report={report}
        answered={answered}
        lookupId={lookupIdOf(state.results)}
        watch={
          state.type === 'tel'
            ? {
                kind: 'tel',
                query: `${state.dialCode}${state.userInput}`,
                caseReference: state.caseReference,
              }
            : { kind: 'email', query: state.userInput, caseReference: state.caseReference }
        }
        onNewSearch={newSearch}
      />
      <div className="mx-auto w-full max-w-7xl space-y-6 px-4 py-5 sm:px-6 lg:py-6">
        {(synthetic || cached || panel) && (
          <div className="space-y-2">
            {(synthetic || cached) && (
              <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                {synthetic && <SandboxBanner />}
                {cached && (
                  <span className="source-chip chip-slate" title={messages.results.cachedTitle}>
                    {messages.results.cachedAnswer}
                  </span>
                )}
              </div>
            )}
            {panel && <SourcePanel panel={panel} />}
          </div>
        )}
        {children}
      </div>
    </div>
  );
}

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

const t = messages.results;
const LABELS = { timeline: t.timeline, nextSteps: t.nextSteps };

/**
 * The filter over the answer's analysis and its per-source profile: what each section shows, and
 * whether anything is left.
 */
function useFiltered(
  analysis: ReturnType<typeof analyzePhoneLookup>,
  profile: MergedProfile,
  records: ReturnType<typeof extraRecords>,
  query: string,
) {
  return useMemo(() => {
    const shown = filterAnalysis(analysis, query, LABELS);
    const more = filterProfile(unweighedProfile(profile), query);
    const raw = filterProfile(profile, query);
    const rawRecords = filterRecords(records, query, t.records);
    const sourceRecords = matches(query, t.sourceRecords, t.valuesBySource);
    return {
      ...shown,
      more,
      raw: sourceRecords ? profile : raw,
      records: sourceRecords ? records : rawRecords,
      anything:
        shown.attributes.length > 0 ||
        shown.timeline.length > 0 ||
        shown.nextSteps.length > 0 ||
        hasProfileContent(more) ||
        hasProfileContent(sourceRecords ? profile : raw) ||
        (sourceRecords ? records : rawRecords).length > 0,
    };
  }, [analysis, profile, records, query]);
}

/** The evidence below the answer: the timeline and next steps side by side, then the source records. */
function Evidence({
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

function PhoneResults({
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
  const details = useDetailLookups(state.caseReference);
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
      onRcDetails: available('rc') ? (rc) => void details.open('rc', rc) : undefined,
      onChallanDetails: available('challan') ? (rc) => void details.open('challan', rc) : undefined,
      onUpiDetails: available('upi') ? (upi) => void details.open('upi', upi) : undefined,
    }),
    [profile, state.userInput, details.open, available],
  );

  const answered = <AnswerHeader state={state} answer={results} className="mt-0.5" />;
  if (empty)
    return (
      <NoResults
        searched={display}
        panel={panel}
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
    </ResultsFrame>
  );
}

function EmailResults({
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
              <MergedProfileView attributes={shown.attributes}>
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
    </ResultsFrame>
  );
}

export default function ResultsPage() {
  const location = useLocation();
  const state = useMemo(() => readResultsState(location.state), [location.state]);
  if (!state) return <NoResults />;
  if (state.type === 'tel') return <PhoneResults state={state} results={state.results} />;
  return <EmailResults state={state} response={state.results} />;
}
