import { type CaseDetail, messages } from '@footprint/domain';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { saveCaseBundle } from '../api/caseBundle.ts';

const t = messages.cases;

/** Downloads the case's evidence bundle (a ZIP the server streams and registers for /verify). */
export function BundleButton({ detail }: { detail: CaseDetail }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await saveCaseBundle(detail);
      toast.success(t.bundleSaved);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.bundleFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn-primary" disabled={busy} onClick={() => void download()}>
      {busy && <Spinner size="sm" decorative className="mr-1.5" />}
      {busy ? t.downloadingBundle : t.downloadBundle}
    </button>
  );
}
