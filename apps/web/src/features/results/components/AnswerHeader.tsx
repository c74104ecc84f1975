import { useMemo } from 'react';
import { type AnswerTimeFields, answeredLineOf } from '../answered.ts';
import { RefreshDialog } from '../modals/RefreshDialog.tsx';
import type { ResultsState } from '../resultsState.ts';
import { useRefreshAnswer } from '../useRefreshAnswer.ts';
import { AnswerTime } from './AnswerTime.tsx';

/**
 * The results page's answer time with its Refresh and the confirmation it opens. Without a time in
 * the answer (an older build's state) nothing is shown; Refresh is offered only when the deployment
 * answers the kind.
 */
export function AnswerHeader({
  state,
  answer,
  className,
}: {
  state: ResultsState;
  answer: AnswerTimeFields;
  className?: string;
}) {
  const line = useMemo(() => answeredLineOf(answer), [answer]);
  const refresh = useRefreshAnswer(state);
  if (!line) return null;
  return (
    <>
      <AnswerTime
        line={line}
        className={className}
        refresh={refresh.available ? { onClick: refresh.ask, busy: refresh.busy } : undefined}
      />
      {refresh.confirming && (
        <RefreshDialog
          price={refresh.price}
          credits={refresh.credits}
          busy={refresh.busy}
          onConfirm={() => void refresh.confirm()}
          onClose={refresh.cancel}
        />
      )}
    </>
  );
}
