import { messages } from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { request } from '../lib/api.ts';
import { failureMessage, isSessionEnd } from '../lib/field-errors.ts';
import { useOpenCases } from '../lib/open-cases.ts';
import { Modal } from './Modal.tsx';
import { OpenCasePicker } from './OpenCasePicker.tsx';
import { Spinner } from './Spinner.tsx';

const t = messages.cases;

/**
 * 'Add to case' on a results page: files the search (its lookup id) under one of the user's open cases
 * (POST /api/cases/{id}/items). Nothing is charged; a search already in the case says so.
 */
export function AddToCaseButton({
  lookupId,
  className = '',
}: {
  lookupId: string | undefined;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  if (!lookupId) return null;
  return (
    <>
      <button
        type="button"
        className={`btn-ghost px-3 whitespace-nowrap sm:px-4 ${className}`}
        onClick={() => setOpen(true)}
      >
        {t.addToCase}
      </button>
      {open && <AddToCaseDialog lookupId={lookupId} onClose={() => setOpen(false)} />}
    </>
  );
}

function AddToCaseDialog({ lookupId, onClose }: { lookupId: string; onClose: () => void }) {
  const id = useId();
  const cases = useOpenCases();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = cases.data ?? [];
  const caseId = chosen || list[0]?.id || '';

  const add = async () => {
    const target = list.find((item) => item.id === caseId);
    if (!target || busy) return;
    setBusy(true);
    setError(null);
    try {
      await request(`/api/cases/${encodeURIComponent(target.id)}/items`, {
        method: 'POST',
        body: { lookup_id: lookupId },
      });
      void queryClient.invalidateQueries({ queryKey: ['cases'] });
      toast.success(t.addedToCase(target.reference));
      onClose();
    } catch (err) {
      if (isSessionEnd(err)) return;
      setError(failureMessage(err, t.saveFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={t.addToCaseTitle}
      description={t.addToCaseLead}
      onClose={onClose}
      actions={
        list.length > 0 ? (
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void add()}>
            {busy && <Spinner size="sm" decorative className="mr-1.5" />}
            {t.addToCaseRun}
          </button>
        ) : undefined
      }
    >
      <OpenCasePicker
        id={id}
        cases={cases}
        value={caseId}
        onChange={setChosen}
        error={error}
        labels={{ pick: t.pickCase, none: t.noOpenCases, open: t.openCasesLink }}
      />
    </Modal>
  );
}
