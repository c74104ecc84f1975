import { type ApiKeyCreated, messages } from '@footprint/domain';
import { useRef } from 'react';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { Modal } from '../../../components/Modal.tsx';

const t = messages.apiKeys;

/** The new key, shown once with a Copy button and the notice that it will not be shown again. */
export function CreatedDialog({ created, onClose }: { created: ApiKeyCreated; onClose: () => void }) {
  const done = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title={t.shownOnceTitle}
      description={created.name}
      onClose={onClose}
      initialFocus={done}
      hideFooterClose
      actions={
        <button ref={done} type="button" className="btn-primary" onClick={onClose}>
          {t.done}
        </button>
      }
    >
      <div className="flex items-start gap-2 rounded-lg border border-line bg-night px-3 py-2">
        <code
          className="min-w-0 flex-1 font-mono text-sm break-all text-text select-all"
          data-testid="new-api-key"
        >
          {created.key}
        </code>
        <CopyButton text={created.key} label={t.copyKey} className="shrink-0" />
      </div>
      <p
        role="note"
        className="mt-3 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-sm text-text"
      >
        {t.shownOnce}
      </p>
    </Modal>
  );
}
