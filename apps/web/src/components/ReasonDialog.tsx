import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../lib/field-errors.ts';
import { ActionDialog } from './ActionDialog.tsx';

/**
 * A dialog whose action needs a reason (place a legal hold, remove a captured page): the reason is
 * checked with the domain's schema before anything is sent, and said under its field when missing or
 * refused by the server; any other failure is a toast. The action runs once at a time.
 */
export function ReasonDialog({
  title,
  lead,
  label,
  hint,
  cancel,
  submitLabel,
  busyLabel,
  tone,
  maxLength,
  schema,
  invalid,
  saveFailed,
  success,
  busy,
  submit,
  onClose,
}: {
  title: string;
  /** What the dialog says above the field. */
  lead: ReactNode;
  label: string;
  hint: string;
  cancel: string;
  submitLabel: string;
  busyLabel: string;
  tone?: 'primary' | 'danger';
  maxLength: number;
  /** The request body's schema: `{ reason }`. */
  schema: z.ZodType<{ reason: string }, { reason: string }>;
  /** Said when the schema refuses the reason without a message of its own. */
  invalid: string;
  saveFailed: string;
  /** The toast once it is done. */
  success: string;
  busy: boolean;
  submit: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const id = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const refuse = (message: string) => {
    setError(message);
    input.current?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = schema.safeParse({ reason });
    if (!checked.success) return refuse(checked.error.issues[0]?.message ?? invalid);
    try {
      await submit(checked.data.reason);
      toast.success(success);
      onClose();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const fields = fieldErrorsOf(failure);
      if (fields.reason) refuse(fields.reason);
      else toast.error(failureMessage(failure, saveFailed));
    }
  };

  return (
    <ActionDialog
      title={title}
      onClose={onClose}
      initialFocus={input}
      cancel={cancel}
      label={submitLabel}
      busyLabel={busyLabel}
      busy={busy}
      tone={tone}
      form={`${id}-form`}
    >
      <form id={`${id}-form`} noValidate onSubmit={(event) => void onSubmit(event)}>
        {lead}
        <label htmlFor={`${id}-reason`} className="label">
          {label}
        </label>
        <textarea
          ref={input}
          id={`${id}-reason`}
          className="input min-h-24"
          value={reason}
          maxLength={maxLength}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-reason-error ${id}-reason-hint` : `${id}-reason-hint`}
          onChange={(event) => {
            setReason(event.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${id}-reason-error`} className="field-error">
            {error}
          </p>
        )}
        <p id={`${id}-reason-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      </form>
    </ActionDialog>
  );
}
