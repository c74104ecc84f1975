import type { ReactNode, RefObject } from 'react';
import { Modal, type ModalProps } from './Modal.tsx';
import { Spinner } from './Spinner.tsx';

const tones = {
  primary: 'btn-primary',
  danger: 'btn bg-rose-700 text-white hover:bg-rose-600',
} as const;

/**
 * A dialog that asks for one action (approve an account, name or delete a unit, place or release a
 * legal hold): its body, then Cancel, any other actions, and the action's button, which shows a spinner
 * and `busyLabel` while the call runs. With `form` the button submits the form of that id in the body
 * (so Enter in a field does too); without it the button calls `onConfirm`. While busy the button says
 * so (`aria-disabled`), and the caller ignores a second press.
 */
export function ActionDialog({
  title,
  onClose,
  cancel,
  label,
  busyLabel,
  busy,
  tone = 'primary',
  form,
  onConfirm,
  initialFocus,
  extraActions,
  size,
  children,
}: {
  title: string;
  onClose: () => void;
  /** The Cancel button's label. */
  cancel: string;
  label: string;
  /** What the button says while busy; its `label` by default. */
  busyLabel?: string;
  busy: boolean;
  tone?: keyof typeof tones;
  /** The id of the form in the body that the button submits. */
  form?: string;
  onConfirm?: () => void;
  initialFocus?: RefObject<HTMLElement | null>;
  /** Buttons between Cancel and the action (e.g. 'Follow the deployment's period'). */
  extraActions?: ReactNode;
  size?: ModalProps['size'];
  children: ReactNode;
}) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      initialFocus={initialFocus}
      size={size}
      hideFooterClose
      actions={
        <>
          <button type="button" className="btn-ghost" onClick={onClose}>
            {cancel}
          </button>
          {extraActions}
          <button
            type={form ? 'submit' : 'button'}
            form={form}
            className={tones[tone]}
            aria-disabled={busy || undefined}
            onClick={form ? undefined : onConfirm}
          >
            {busy && <Spinner size="sm" decorative />}
            {busy ? (busyLabel ?? label) : label}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
