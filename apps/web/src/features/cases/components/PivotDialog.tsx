import { messages, type Pivot } from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { failureMessage } from '../../../lib/field-errors.ts';
import { usePaidAnswer } from '../../../lib/paid-answer.ts';
import { searchPrice, useSources } from '../../../lib/sources.ts';
import { runPivot } from '../api/runPivot.ts';

const t = messages.cases;

/** Confirms a pivot with its price, runs it under the case's reference, and refreshes the case. */
export function PivotDialog({
  reference,
  value,
  pivot,
  onClose,
}: {
  reference: string;
  value: string;
  pivot: Pivot;
  onClose: () => void;
}) {
  const { data: sources } = useSources();
  const paidAnswer = usePaidAnswer();
  const queryClient = useQueryClient();
  const price = searchPrice(sources, pivot.kind);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    if (running) return;
    setRunning(true);
    setError(null);
    try {
      paidAnswer.paid(await runPivot(pivot));
      toast.success(t.pivotDone);
      await queryClient.invalidateQueries({ queryKey: ['cases'] });
      onClose();
    } catch (err) {
      // The balance a refusal says (a refund after a failed source) is merged; a 402 is the common
      // warning; anything else is said in the dialog.
      const failure = paidAnswer.failed(err, {
        failed: t.saveFailed,
        inline: () => setError(failureMessage(err, t.saveFailed)),
      });
      if (failure.kind === 'session-ended') return;
      void queryClient.invalidateQueries({ queryKey: ['cases'] });
    } finally {
      setRunning(false);
    }
  };
  return (
    <Modal
      title={t.pivotTitle(pivot.action)}
      description={value}
      onClose={onClose}
      actions={
        <button type="button" className="btn-primary" disabled={running} onClick={() => void run()}>
          {running && <Spinner size="sm" decorative className="mr-1.5" />}
          {running ? t.pivotRunning : t.pivotRun(price)}
        </button>
      }
    >
      <p className="text-sm text-text">
        {t.pivotCost(price)} {t.pivotFiled(reference)}
      </p>
      {error && (
        <p role="alert" className="field-error mt-3">
          {error}
        </p>
      )}
    </Modal>
  );
}
