import { messages } from '@footprint/domain';
import { type InputHTMLAttributes, useId, useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

interface BaseFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'name' | 'ref'> {
  label: string;
  registration: UseFormRegisterReturn;
  error?: string;
  hint?: string;
  /**
   * Marks the field in its label: `required` with an asterisk (hidden from screen readers, which hear
   * the input's own required state), `optional` with an 'Optional' badge.
   */
  mark?: 'required' | 'optional';
}

/**
 * The label, and its mark beside it (outside the label element, so the field's name stays its
 * label's text alone).
 */
function FieldLabel({
  htmlFor,
  label,
  mark,
}: {
  htmlFor: string;
  label: string;
  mark?: 'required' | 'optional' | undefined;
}) {
  if (!mark) {
    return (
      <label htmlFor={htmlFor} className="label">
        {label}
      </label>
    );
  }
  return (
    <div className="mb-1 flex items-center gap-1">
      <label htmlFor={htmlFor} className="label mb-0">
        {label}
      </label>
      {mark === 'required' ? (
        <span aria-hidden="true" className="text-sm font-semibold text-danger">
          *
        </span>
      ) : (
        <span className="ml-1 rounded-full border border-line bg-surface-2 px-2 py-0.5 text-[0.68rem] font-semibold tracking-wide text-muted uppercase">
          {messages.signupFields.optional}
        </span>
      )}
    </div>
  );
}

function describedBy(errorId: string, hintId: string, error?: string, hint?: string) {
  return [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
}

/** A labelled text input whose error (client or server) is tied to it for assistive technology. */
export function TextField({
  label,
  registration,
  error,
  hint,
  mark,
  type = 'text',
  className = '',
  ...rest
}: BaseFieldProps & { type?: 'text' | 'email' }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className={className}>
      <FieldLabel htmlFor={id} label={label} mark={mark} />
      <input
        id={id}
        type={type}
        className={`input ${error ? 'border-danger focus:border-danger' : ''} read-only:cursor-default read-only:opacity-80`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(errorId, hintId, error, hint)}
        {...rest}
        {...registration}
      />
      {hint && !error && (
        <p id={hintId} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="size-5"
    >
      <path d="M2.5 12s3.5-6.5 9.5-6.5 9.5 6.5 9.5 6.5-3.5 6.5-9.5 6.5S2.5 12 2.5 12z" />
      <circle cx="12" cy="12" r="2.75" />
      {crossed && <path d="M4 4l16 16" />}
    </svg>
  );
}

/** A password input with an accessible show/hide toggle (spec §2.2). */
export function PasswordField({
  label,
  registration,
  error,
  hint,
  mark,
  className = '',
  ...rest
}: BaseFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <FieldLabel htmlFor={id} label={label} mark={mark} />
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className={`input pr-11 ${error ? 'border-danger focus:border-danger' : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(errorId, hintId, error, hint)}
          autoCapitalize="none"
          spellCheck={false}
          {...rest}
          {...registration}
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-muted transition-colors hover:text-accent"
          aria-label={messages.authPages.showPassword(label)}
          aria-pressed={visible}
          aria-controls={id}
          onClick={() => setVisible((value) => !value)}
        >
          <EyeIcon crossed={visible} />
        </button>
      </div>
      {hint && !error && (
        <p id={hintId} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
