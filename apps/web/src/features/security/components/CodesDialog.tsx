import { messages } from '@footprint/domain';
import { useRef } from 'react';
import { Modal } from '../../../components/Modal.tsx';

const t = messages.security;

/** New recovery codes, shown once. */
export function CodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const done = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title={t.recovery.heading}
      description={t.recovery.showOnce}
      onClose={onClose}
      initialFocus={done}
      hideFooterClose
      actions={
        <button ref={done} type="button" className="btn-primary" onClick={onClose}>
          {t.recovery.done}
        </button>
      }
    >
      <ul aria-label={t.recovery.heading} className="grid grid-cols-2 gap-2 font-mono text-sm text-text">
        {codes.map((code) => (
          <li
            key={code}
            className="rounded-lg border border-line bg-night px-3 py-2 text-center tabular-nums"
          >
            {code}
          </li>
        ))}
      </ul>
    </Modal>
  );
}
