import { type CaseDetail, messages } from '@footprint/domain';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { request, saveBlob } from '../../../lib/api.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';

const t = messages.cases;

/** Downloads the case's evidence bundle (a ZIP the server streams and registers for /verify). */
export function BundleButton({ detail }: { detail: CaseDetail }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const { blob, headers } = await request(`/api/cases/${encodeURIComponent(detail.id)}/bundle`, {
        responseType: 'file',
      });
      const named = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1];
      saveBlob(blob, named ?? `case-${detail.reference}.zip`);
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
