import { messages, type SourcePanel as Panel } from '@footprint/domain';
import { type ReactNode, useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { ReadAsSupervisorNote } from '../../../components/ReadAsSupervisorNote.tsx';
import { SandboxBanner } from '../../../components/SandboxBanner.tsx';
import { StatedLegalBasis, statedBasisOf } from '../../../components/StatedLegalBasis.tsx';
import { paths } from '../../../config/paths.ts';
import type { ReportInput } from '../api/generateReport.ts';
import type { ResultsState } from '../resultsState.ts';
import { watchTargetOf } from '../watch.ts';
import { CaptureTargetProvider } from './CaptureButton.tsx';
import { ResultsTopBar } from './ResultsTopBar.tsx';
import { SourcePanel } from './SourcePanel.tsx';

/** The lookup id a search answered with (absent from answers of an older server). */
const lookupIdOf = (results: unknown): string | undefined => {
  const id = (results as { lookup_id?: unknown } | null)?.lookup_id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * Shared frame of the lookup results (phone, e-mail, username): top bar, whose search it is when it is someone else's (read as
 * their supervisor), the legal basis the search stated itself, the sandbox banner (only when a value shown is synthetic), the cached mark, the
 * source panel, then the content. In the content, 'Capture' beside an address captures that page into a
 * case (CaptureButton), for one's own search.
 */
export function ResultsFrame({
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
  /** What the PDF reports are made of; absent: no PDF buttons. */
  report?: ReportInput | undefined;
  synthetic: boolean;
  cached: boolean;
  panel: Panel | null;
  /** When the sources answered, with Refresh (under the searched value). */
  answered: ReactNode;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const basis = statedBasisOf(state.legalBasis);
  const lookupId = lookupIdOf(state.results);
  // The addresses of one's own search may be captured into a case (not those of a search read as
  // someone else's: the case it was filed under is theirs).
  const captureTarget = useMemo(
    () => (state.searchedBy ? null : { lookupId, caseReference: state.caseReference }),
    [state.searchedBy, state.caseReference, lookupId],
  );
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
        lookupId={lookupId}
        theirs={state.searchedBy !== undefined}
        watch={watchTargetOf(state)}
        onNewSearch={newSearch}
      />
      <div className="mx-auto w-full max-w-7xl space-y-6 px-4 py-5 sm:px-6 lg:py-6">
        {state.searchedBy && (
          <ReadAsSupervisorNote searcher={state.searchedBy} hint={messages.units.history.readAsHint} />
        )}
        {basis && <StatedLegalBasis basis={basis} />}
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
        <CaptureTargetProvider target={captureTarget}>{children}</CaptureTargetProvider>
      </div>
    </div>
  );
}
