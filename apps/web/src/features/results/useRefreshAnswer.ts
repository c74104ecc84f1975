import { messages } from '@footprint/domain';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';
import { maySpend, usePaidAnswer } from '../../lib/paid-answer.ts';
import { kindPrice, useKindAvailable, useSources } from '../../lib/sources.ts';
import { useRefreshLookup } from './api/refreshLookup.ts';
import type { ResultsState } from './resultsState.ts';

/**
 * The results page's Refresh: `ask()` opens the confirmation with the kind's price, `confirm()` runs
 * the fresh, charged lookup. Its answer replaces the page's navigation state (so a reload keeps it)
 * and its balance goes to the header through the one paid-answer handling; a refusal is said the
 * common way and leaves the answer shown as it was. `available` is false when the deployment has no
 * source for the kind (the search would only answer 503).
 */
export function useRefreshAnswer(state: ResultsState) {
  const navigate = useNavigate();
  const { user } = useAuth();
  const { paid, failed } = usePaidAnswer();
  const { data: sources } = useSources();
  const available = useKindAvailable()(state.type);
  const lookup = useRefreshLookup();
  const [confirming, setConfirming] = useState(false);
  const credits = user?.credits;

  const ask = useCallback(() => setConfirming(true), []);
  const cancel = useCallback(() => setConfirming(false), []);

  const confirm = useCallback(async () => {
    if (!maySpend(user)) {
      setConfirming(false);
      toast.warning(messages.credits.insufficientUpgrade);
      return;
    }
    try {
      const next = await lookup.mutateAsync(state);
      paid(next.results);
      setConfirming(false);
      await navigate(paths.results, { replace: true, state: next });
    } catch (error) {
      setConfirming(false);
      failed(error, { failed: messages.answerTime.failed });
    }
  }, [user, lookup.mutateAsync, state, paid, failed, navigate]);

  return {
    available,
    price: kindPrice(sources, state.type),
    credits,
    confirming,
    busy: lookup.isPending,
    ask,
    cancel,
    confirm,
  };
}
