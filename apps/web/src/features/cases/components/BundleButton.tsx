import { type CaseDetail, messages } from '@footprint/domain';
import { Spinner } from '../../../components/Spinner.tsx';
import { useFileSave } from '../../../components/useFileSave.ts';
import { saveCaseBundle } from '../api/caseBundle.ts';

const t = messages.cases;

/** Downloads the case's evidence bundle (a ZIP the server streams and registers for /verify). */
export function BundleButton({ detail }: { detail: CaseDetail }) {
  const { busy, start } = useFileSave(() => saveCaseBundle(detail), {
    saved: t.bundleSaved,
    failed: t.bundleFailed,
  });
  return (
    <button type="button" className="btn-primary" disabled={busy} onClick={start}>
      {busy && <Spinner size="sm" decorative className="mr-1.5" />}
      {busy ? t.downloadingBundle : t.downloadBundle}
    </button>
  );
}
