import type { WatchTarget } from '../../components/WatchButton.tsx';
import type { ResultsState } from './resultsState.ts';

/**
 * The search a results page shows, as a watch repeats it (its Watch button): a phone number with its
 * dial code, an e-mail address, a username without the '@' people type before a handle.
 */
export function watchTargetOf(state: ResultsState): WatchTarget {
  const caseReference = state.caseReference;
  if (state.type === 'tel')
    return { kind: 'tel', query: `${state.dialCode}${state.userInput}`, caseReference };
  if (state.type === 'email') return { kind: 'email', query: state.userInput, caseReference };
  return { kind: 'username', query: state.userInput.replace(/^@/, ''), caseReference };
}
