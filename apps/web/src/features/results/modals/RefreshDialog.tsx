import { messages } from '@footprint/domain';
import { useRef } from 'react';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';

/**
 * The confirmation before a fresh, charged lookup: what it does and what it costs (the deployment's
 * price of the kind, when known), and the balance. Focus starts on 'Cancel'; while the lookup runs
 * the dialog stays open and cannot be dismissed, so one confirmation is one charge.
 */
export function RefreshDialog({
  price,
  credits,
  busy,
  onConfirm,
  onClose,
}: {
  /** Credits one search of the kind costs; null while not known. */
  price: number | null;
  /** The balance, as the signed-in user carries it. */
  credits: number | string | undefined;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const t = messages.answerTime;
  const cancel = useRef<HTMLButtonElement>(null);
  const close = () => {
    if (!busy) onClose();
  };
  return (
    <Modal
      title={t.confirmTitle}
      onClose={close}
      initialFocus={cancel}
      hideFooterClose
      actions={
        <>
          <button ref={cancel} type="button" className="btn-ghost" onClick={close} disabled={busy}>
            {t.cancel}
          </button>
          <button type="button" className="btn-primary" onClick={onConfirm} disabled={busy}>
            {busy && <Spinner size="sm" decorative />}
            {busy ? t.refreshing : t.confirm(price)}
          </button>
        </>
      }
    >
      <p className="text-sm text-text">{t.confirmBody(price)}</p>
      {credits !== undefined && <p className="mt-2 text-sm text-muted">{messages.credits.label(credits)}</p>}
    </Modal>
  );
}
