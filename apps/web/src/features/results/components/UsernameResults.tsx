import { messages, type UsernameLookupResponse } from '@footprint/domain';
import { useDeferredValue, useMemo, useState } from 'react';
import { filterKey } from '../filter.ts';
import type { ResultsState } from '../resultsState.ts';
import { answerPanel, showsSynthetic } from '../sourcePanel.ts';
import {
  atName,
  siteCheckOf,
  siteMatches,
  sitesIn,
  UNASKED_STATES,
  type UnaskedState,
  usernameParts,
} from '../username.ts';
import { vendorAccountsOf } from '../vendorAccounts.ts';
import { AnswerHeader } from './AnswerHeader.tsx';
import { FilterBox } from './FilterBox.tsx';
import { FoundNowhere } from './FoundNowhere.tsx';
import { FoundSites } from './FoundSites.tsx';
import { NoResults } from './NoResults.tsx';
import { NothingMatches } from './NothingMatches.tsx';
import { ResultsFrame } from './ResultsFrame.tsx';
import { SiteCheckSummary } from './SiteCheckSummary.tsx';
import { UnaskedSites } from './UnaskedSites.tsx';
import { VendorAccounts } from './VendorAccounts.tsx';

const t = messages.usernameResults;

/** More sites listed than this and the page offers its filter box. */
const FILTER_FROM = 8;

/**
 * A username lookup's answer: the site check at a glance, the accounts found (each with its profile
 * link and evidence on demand), or the found-nowhere state, then the sites that could not say. Its PDF
 * (the evidence of every found account), the exports, 'Add to case', Refresh and the answer's time
 * are the frame's, as for the other lookups, and so is Watch (a username watch is compared by the
 * accounts its runs find); no AI report.
 * An answer without a readable site check (the source failed) is the common no-results view.
 */
export function UsernameResults({
  state,
  results,
}: {
  state: ResultsState & { type: 'username' };
  results: UsernameLookupResponse;
}) {
  const check = useMemo(() => siteCheckOf(results), [results]);
  const vendor = useMemo(() => vendorAccountsOf(results), [results]);
  const parts = useMemo(() => usernameParts(results), [results]);
  const panel = useMemo(() => answerPanel('username', parts), [parts]);
  const [filter, setFilter] = useState('');
  const query = useDeferredValue(filter);
  const key = filterKey(query);
  const display = atName(state.userInput);

  const found = useMemo(() => (check ? sitesIn(check, 'found') : []), [check]);
  const unasked = useMemo(
    () =>
      Object.fromEntries(UNASKED_STATES.map((s) => [s, check ? sitesIn(check, s) : []])) as Record<
        UnaskedState,
        ReturnType<typeof sitesIn>
      >,
    [check],
  );
  const shownFound = useMemo(() => found.filter((site) => siteMatches(site, key)), [found, key]);
  const shownUnasked = useMemo(
    () =>
      Object.fromEntries(
        UNASKED_STATES.map((s) => [s, unasked[s].filter((site) => siteMatches(site, key))]),
      ) as Record<UnaskedState, ReturnType<typeof sitesIn>>,
    [unasked, key],
  );

  // Only a vendor's account search answered (the site check is off or failed): its accounts alone.
  if (!check && vendor)
    return (
      <ResultsFrame
        state={state}
        display={display}
        copyValue={state.userInput}
        synthetic={showsSynthetic(parts)}
        cached={results.cached === true}
        panel={panel}
        answered={<AnswerHeader state={state} answer={results} className="mt-0.5" />}
        report={{ userInput: state.userInput, type: 'username', results }}
      >
        <VendorAccounts search={vendor} />
      </ResultsFrame>
    );
  if (!check)
    return (
      <NoResults
        searched={display}
        panel={panel}
        searchedBy={state.searchedBy}
        answered={<AnswerHeader state={state} answer={results} className="mt-2 justify-center" />}
      />
    );

  // The site check is shown even when it found nothing (its status is then not_found): the counts and
  // lists are the sandbox's as much as found accounts would be.
  const sitesMode = results.source_status?.sitesData?.mode;
  const synthetic =
    showsSynthetic(parts) || sitesMode === 'sandbox' || (sitesMode === undefined && results.sandbox === true);
  const listed = found.length + UNASKED_STATES.reduce((n, s) => n + unasked[s].length, 0);
  const nothingShown =
    key !== '' && shownFound.length === 0 && UNASKED_STATES.every((s) => shownUnasked[s].length === 0);

  return (
    <ResultsFrame
      state={state}
      display={display}
      copyValue={state.userInput}
      synthetic={synthetic}
      cached={results.cached === true}
      panel={panel}
      answered={<AnswerHeader state={state} answer={results} className="mt-0.5" />}
      report={{ userInput: state.userInput, type: 'username', results }}
    >
      {/* Found nowhere: that is the answer, said first; the counts follow. */}
      {found.length === 0 && !vendor && <FoundNowhere check={check} username={display} />}
      <SiteCheckSummary check={check} caution={found.length > 0} />
      {listed > FILTER_FROM && (
        <FilterBox
          value={filter}
          onChange={setFilter}
          label={t.filterLabel}
          placeholder={t.filterPlaceholder}
        />
      )}
      {nothingShown ? (
        <NothingMatches query={filter} onClear={() => setFilter('')} />
      ) : (
        <>
          {shownFound.length > 0 && <FoundSites sites={shownFound} total={found.length} />}
          <UnaskedSites
            sites={shownUnasked}
            totals={{
              blocked: unasked.blocked.length,
              error: unasked.error.length,
              not_checked: unasked.not_checked.length,
            }}
            filtering={key !== ''}
          />
        </>
      )}
      {vendor && <VendorAccounts search={vendor} />}
    </ResultsFrame>
  );
}
