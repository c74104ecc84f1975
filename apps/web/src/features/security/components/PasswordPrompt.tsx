import { messages } from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { fieldFailure, isSessionEnd } from '../../../lib/field-errors.ts';

const t = messages.security;

/** Asks for the password before a change that weakens the account; `run` gets it. */
export function PasswordPrompt({
  title,
  action,
  onClose,
  run,
}: {
  title: string;
  action: string;
  onClose: () => void;
  run: (password: string) => Promise<void>;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    try {
      await run(password);
      onClose();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      setError(fieldFailure(failure, 'password', messages.errors.generic));
      field.current?.focus();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={title}
      description={t.password.prompt}
      onClose={onClose}
      initialFocus={field}
      actions={
        <button type="submit" form={`${id}-form`} className="btn-primary" disabled={busy || !password}>
          {busy && <Spinner size="sm" decorative />}
          {action}
        </button>
      }
    >
      <form id={`${id}-form`} noValidate onSubmit={(event) => void submit(event)}>
        <label htmlFor={`${id}-password`} className="label">
          {t.password.label}
        </label>
        <input
          ref={field}
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          className="input"
          value={password}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setPassword(event.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="field-error">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}
