import { messages } from '@footprint/domain';
import { type Ref, useId } from 'react';
import { CASE_REFERENCE_MAX_LENGTH } from '../lib/case-reference.ts';
import { useOpenCases } from '../lib/open-cases.ts';

export interface CaseReferenceFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** From `useCaseReferencePolicy()`: when false the field carries an 'Optional' badge. */
  required: boolean;
  /** The input's id; one is made up when absent. */
  id?: string;
  disabled?: boolean;
  /** A message to show under the field (e.g. the server's 422), tied to the input. */
  error?: string | null;
  /** Lets the form focus the field when it refuses a search for want of a reference. */
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
}

/**
 * The 'Case reference' field of every search screen (the investigation a search is made for, kept in
 * the audit trail): a labelled text input, at most 100 characters, with an 'Optional' badge unless the
 * deployment requires one. It is also the case picker: the user's open cases are offered as it is
 * typed in (a datalist), and a reference no case has yet opens a new case with the search. Forms wire
 * it with `useCaseReferenceField`, which checks the value before a search and sends it trimmed.
 */
export function CaseReferenceField({
  value,
  onChange,
  required,
  id,
  disabled = false,
  error,
  inputRef,
  className = '',
}: CaseReferenceFieldProps) {
  const generated = useId();
  const inputId = id ?? `${generated}-case-reference`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const listId = `${inputId}-cases`;
  const openCases = useOpenCases(!disabled);
  const cases = openCases.data ?? [];

  return (
    <div className={className}>
      <div className="mb-1 flex items-center justify-between gap-3">
        <label htmlFor={inputId} className="text-sm font-medium text-muted">
          {messages.caseReference.label}
          {required && (
            <span aria-hidden="true" className="ml-0.5 text-danger">
              *
            </span>
          )}
        </label>
        {!required && (
          <span className="rounded-full border border-line bg-surface-2 px-2 py-0.5 text-[0.68rem] font-semibold tracking-wide text-muted uppercase">
            {messages.caseReference.optional}
          </span>
        )}
      </div>
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        name="case_reference"
        autoComplete="off"
        spellCheck={false}
        maxLength={CASE_REFERENCE_MAX_LENGTH}
        placeholder={messages.caseReference.placeholder}
        list={cases.length > 0 ? listId : undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        required={required}
        aria-required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        className="input min-h-11 text-base sm:text-sm"
      />
      {cases.length > 0 && (
        <datalist id={listId}>
          {cases.map((item) => (
            <option key={item.id} value={item.reference}>
              {item.title}
            </option>
          ))}
        </datalist>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
      <p id={hintId} className="mt-1 text-xs text-muted">
        {messages.caseReference.hint}
      </p>
    </div>
  );
}

export default CaseReferenceField;
