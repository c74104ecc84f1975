import { type ApiKeySummary, messages } from '@footprint/domain';
import { useRef } from 'react';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { useRevokeApiKey } from '../api/revokeApiKey.ts';

const t = messages.apiKeys;

export function RevokeDialog({ apiKey, onClose }: { apiKey: ApiKeySummary; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  const cancel = useRef<HTMLButtonElement>(null);
  const onRevoke = async () => {
    try {
      await revoke.mutateAsync(apiKey.id);
      toast.success(t.revoked);
      onClose();
    } catch (failure) {
      if (!isSessionEnd(failure)) toast.error(failureMessage(failure, messages.errors.generic));
    }
  };
  return (
    <Modal
      title={t.revokeTitle}
      description={t.revokeConfirm(apiKey.name)}
      onClose={onClose}
      initialFocus={cancel}
      hideFooterClose
      actions={
        <>
          <button ref={cancel} type="button" className="btn-ghost" onClick={onClose}>
            {t.cancel}
          </button>
          <button
            type="button"
            className="btn bg-danger text-white hover:bg-danger/85"
            disabled={revoke.isPending}
            onClick={() => void onRevoke()}
          >
            {revoke.isPending && <Spinner size="sm" decorative />}
            {t.revoke}
          </button>
        </>
      }
    >
      <p className="font-mono text-sm text-muted">{apiKey.prefix}</p>
    </Modal>
  );
}
