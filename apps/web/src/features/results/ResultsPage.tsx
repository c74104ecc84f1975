import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { EmailResults } from './components/EmailResults.tsx';
import { NoResults } from './components/NoResults.tsx';
import { PhoneResults } from './components/PhoneResults.tsx';
import { UsernameResults } from './components/UsernameResults.tsx';
import { readResultsState } from './resultsState.ts';

/**
 * /results (spec §2.5): the answer of a phone, e-mail or username search, handed over in navigation state by the
 * dashboard. Without state, or with an empty answer, it shows the no-results view.
 */

export default function ResultsPage() {
  const location = useLocation();
  const state = useMemo(() => readResultsState(location.state), [location.state]);
  if (!state) return <NoResults />;
  if (state.type === 'tel') return <PhoneResults state={state} results={state.results} />;
  if (state.type === 'username') return <UsernameResults state={state} results={state.results} />;
  return <EmailResults state={state} response={state.results} />;
}
