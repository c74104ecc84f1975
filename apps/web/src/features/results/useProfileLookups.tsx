import { messages } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { Overlay } from '../../components/Overlay.tsx';
import { paths } from '../../config/paths.ts';
import { usePaidAnswer } from '../../lib/paid-answer.ts';
import { useKindAvailable } from '../../lib/sources.ts';
import { lookupUsername, usernameOf } from '../search/index.ts';
import type { ProfileActions } from './components/ActionButton.tsx';
import type { ResultsState } from './resultsState.ts';

/**
 * The lookups a value on a phone or e-mail profile leads to (`profilePivots`): today a username's
 * username lookup. It runs as the dashboard's would, under the page's case reference and stated legal
 * basis, and opens its results as a new page of the history, so Back returns to this profile. While the
 * sites are checked the page is veiled, as the dashboard is. A search read as someone else's
 * (`searchedBy`) offers none: the case it was filed under is theirs.
 */
export function useProfileLookups(state: ResultsState): { actions: ProfileActions; overlay: ReactNode } {
  const navigate = useNavigate();
  const available = useKindAvailable();
  const paidAnswer = usePaidAnswer();
  const username = useMutation({ mutationFn: lookupUsername });
  const { caseReference, legalBasis, searchedBy } = state;

  const lookUp = useCallback(
    async (name: string) => {
      if (username.isPending) return;
      try {
        const results = await username.mutateAsync({
          username: name,
          caseReference,
          legalBasis: legalBasis ? JSON.stringify(legalBasis) : undefined,
        });
        paidAnswer.paid(results);
        const next: ResultsState = {
          type: 'username',
          userInput: usernameOf(name),
          results,
          ...(caseReference ? { caseReference } : {}),
          ...(legalBasis ? { legalBasis } : {}),
        };
        await navigate(paths.results, { state: next });
      } catch (error) {
        paidAnswer.failed(error, { failed: messages.search.somethingWrong });
      }
    },
    [username, caseReference, legalBasis, paidAnswer, navigate],
  );

  const actions = useMemo<ProfileActions>(
    () =>
      searchedBy || !available('username') ? {} : { onLookup: { username: (value) => void lookUp(value) } },
    [searchedBy, available, lookUp],
  );
  const overlay = username.isPending ? <Overlay message={messages.search.searchingUsername} /> : null;
  return { actions, overlay };
}
