import { type CaseSummary, captureUrl, messages } from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { OpenCasePicker } from '../../../components/OpenCasePicker.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { useOpenCases } from '../../../lib/open-cases.ts';
import { capturesKey, createCapture, useCaptureStatus } from '../../cases/index.ts';

const t = messages.captures;

/**
 * 'Capture' beside an address a result shows (an account found, a profile link): the server's browser
 * saves the page into one of the caller's open cases (POST /api/cases/{id}/captures with the search's
 * lookup id). The results page says, through `CaptureTargetProvider`, which search the addresses come
 * from and the case reference it was filed under; outside one (or for a search read as someone
 * else's), or where the server does not capture pages (GET /api/captures/status), no button is drawn.
 */

export interface CaptureTarget {
  /** The search whose result holds the addresses. */
  lookupId: string | undefined;
  /** The case reference the search was made under: that case is chosen first. */
  caseReference: string | undefined;
}

const CaptureTargetContext = createContext<CaptureTarget | null>(null);

export function CaptureTargetProvider({
  target,
  children,
}: {
  target: CaptureTarget | null;
  children?: ReactNode;
}) {
  return <CaptureTargetContext.Provider value={target}>{children}</CaptureTargetContext.Provider>;
}

/** The case a capture from this search goes to first: the one filed under its reference, else the newest. */
export function preferredCase(
  cases: readonly Pick<CaseSummary, 'id' | 'reference'>[],
  reference: string | undefined,
): string {
  const wanted = reference?.trim().toLowerCase();
  const filed = wanted ? cases.find((item) => item.reference.toLowerCase() === wanted) : undefined;
  return filed?.id ?? cases[0]?.id ?? '';
}

export function CaptureButton({
  url,
  className = '',
}: {
  url: string | null | undefined;
  className?: string;
}) {
  const target = useContext(CaptureTargetContext);
  const checked = useMemo(() => (url ? captureUrl.safeParse(url) : null), [url]);
  if (!target || !checked?.success) return null;
  return <OfferedCapture url={checked.data} target={target} className={className} />;
}

/** The button itself, where the server captures pages (GET /api/captures/status; none before it has said). */
function OfferedCapture({
  url,
  target,
  className,
}: {
  url: string;
  target: CaptureTarget;
  className: string;
}) {
  const [open, setOpen] = useState(false);
  const status = useCaptureStatus();
  if (status.data?.available !== true) return null;
  return (
    <>
      <button
        type="button"
        className={`unit-action ${className}`}
        aria-label={t.captureActionLabel(url)}
        onClick={() => setOpen(true)}
      >
        {t.captureAction}
      </button>
      {open && <CaptureDialog url={url} target={target} onClose={() => setOpen(false)} />}
    </>
  );
}

function CaptureDialog({
  url,
  target,
  onClose,
}: {
  url: string;
  target: CaptureTarget;
  onClose: () => void;
}) {
  const id = useId();
  const cases = useOpenCases();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = cases.data ?? [];
  const caseId = chosen || preferredCase(list, target.caseReference);
  // The cases arrive after the dialog opened (its focus then went to Close): the choice takes it.
  const picker = useRef<HTMLSelectElement>(null);
  const loaded = list.length > 0;
  useEffect(() => {
    const dialog = picker.current?.closest('[role="dialog"]');
    const active = document.activeElement;
    if (loaded && dialog && (active === document.body || (active && dialog.contains(active))))
      picker.current?.focus();
  }, [loaded]);

  const run = async () => {
    const chosenCase = list.find((item) => item.id === caseId);
    if (!chosenCase || busy) return;
    setBusy(true);
    setError(null);
    try {
      await createCapture(chosenCase.id, { url, lookup_id: target.lookupId });
      void queryClient.invalidateQueries({ queryKey: capturesKey(chosenCase.id) });
      toast.success(<Queued id={chosenCase.id} reference={chosenCase.reference} />);
      onClose();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      setError(fieldErrorsOf(failure).url ?? failureMessage(failure, t.saveFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={t.dialogTitle}
      onClose={onClose}
      actions={
        list.length > 0 ? (
          <button
            type="button"
            className="btn-primary"
            aria-disabled={busy || undefined}
            onClick={() => void run()}
          >
            {busy && <Spinner size="sm" decorative />}
            {busy ? t.capturing : t.dialogRun}
          </button>
        ) : undefined
      }
    >
      <p className="mb-3 text-sm text-muted">{t.dialogLead}</p>
      <p className="text-xs text-muted">{t.dialogAddress}</p>
      <p className="mt-0.5 mb-4 font-mono text-sm break-all text-text">{url}</p>
      <OpenCasePicker
        id={id}
        cases={cases}
        value={caseId}
        onChange={(chosenId) => {
          setChosen(chosenId);
          setError(null);
        }}
        error={error}
        labels={{ pick: t.pickCase, none: t.noOpenCases, open: t.openCasesLink }}
        pickerRef={picker}
      />
    </Modal>
  );
}

/** The toast of a queued capture: what happened, and the way to the case it went to. */
function Queued({ id, reference }: { id: string; reference: string }) {
  return (
    <span>
      {t.queuedIn(reference)}{' '}
      <Link to={paths.case(id)} className="link-inline">
        {t.openCase}
      </Link>
    </span>
  );
}
