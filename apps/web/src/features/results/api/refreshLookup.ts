import type { EmailLookupResponse, PhoneLookupResponse, UsernameLookupResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { ResultsState } from '../resultsState.ts';

/**
 * The page's search again, fresh: GET /api/tel, /api/email or /api/username with `fresh=1`, so that the sources are
 * asked again and the lookup is charged even within the cache window. The same case reference (and
 * stated legal basis) goes with it. Answers the page's state with the new answer in place of the old; the new lookup is the
 * caller's own, so a search read as someone's supervisor (`searchedBy`) is no longer theirs.
 */
export async function refreshLookup(current: ResultsState): Promise<ResultsState> {
  const { searchedBy: _theirs, ...state } = current;
  const legal_basis = state.legalBasis ? JSON.stringify(state.legalBasis) : undefined;
  if (state.type === 'tel') {
    const results = await api.get<PhoneLookupResponse>('/api/tel', {
      query: {
        number: `${state.dialCode}${state.userInput}`,
        case_reference: state.caseReference,
        legal_basis,
        fresh: 1,
      },
    });
    return { ...state, results };
  }
  if (state.type === 'username') {
    const results = await api.get<UsernameLookupResponse>('/api/username', {
      query: { username: state.userInput, case_reference: state.caseReference, legal_basis, fresh: 1 },
    });
    return { ...state, results };
  }
  const results = await api.get<EmailLookupResponse>('/api/email', {
    query: { email: state.userInput, case_reference: state.caseReference, legal_basis, fresh: 1 },
  });
  return { ...state, results };
}

/** A paid call: a mutation, never retried by the query layer, so one confirmation is one charge. */
export function useRefreshLookup() {
  return useMutation({ mutationFn: refreshLookup });
}
