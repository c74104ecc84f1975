import { INTEL_TEXT_MAX, type IntelField, messages } from '@footprint/domain';
import { type Ref, useId } from 'react';

export type IntelValue = string | boolean;

interface IntelFieldInputProps {
  field: IntelField;
  value: IntelValue;
  onChange: (value: IntelValue) => void;
  disabled: boolean;
  /** The refusal of the last submit when it is about this field: shown under it and tied to it. */
  error?: string;
  /** The first focusable control of the field, so the form can focus it when it refuses a submit. */
  inputRef?: Ref<HTMLInputElement | HTMLSelectElement>;
  /** False where the type asks for a combination of fields rather than each one (employment). */
  required?: boolean;
}

function OptionalBadge() {
  return (
    <span className="rounded-full border border-line bg-surface-2 px-2 py-0.5 text-[0.68rem] font-semibold tracking-wide text-muted uppercase">
      {messages.intel.optional}
    </span>
  );
}

const textValue = (value: IntelValue): string => (typeof value === 'string' ? value : '');

/**
 * What the browser may help with per kind: keyboards on phones, capitals for PAN. No input is cut to
 * its field's exact length (a pasted ' 27AADCN4821K1ZC ' would lose its last character before the
 * trim); the rules say what is too long, and INTEL_TEXT_MAX only stops runaway pastes.
 */
const textAttributes = (field: IntelField) => {
  switch (field.kind) {
    case 'mobile':
      return { type: 'tel', inputMode: 'numeric' as const, maxLength: INTEL_TEXT_MAX };
    case 'pan':
      return { type: 'text', autoCapitalize: 'characters', maxLength: INTEL_TEXT_MAX };
    case 'date':
      return { type: 'date' };
    default:
      return { type: 'text', maxLength: Math.max(field.maxLength ?? 0, INTEL_TEXT_MAX) };
  }
};

/**
 * One field of a corporate or verification form, drawn from its domain definition (spec §2.7, §2.8):
 * a labelled text, number, PAN or date input with an 'Optional' badge when it is optional, the year
 * select, a checkbox, the gender radio group or the consent box.
 */
export function IntelFieldInput({
  field,
  value,
  onChange,
  disabled,
  error,
  inputRef,
  required = !field.optional,
}: IntelFieldInputProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const errorId = `${id}-error`;
  const invalid = error ? true : undefined;
  const describedBy = error ? errorId : undefined;
  const errorLine = error && (
    <p id={errorId} className="field-error">
      {error}
    </p>
  );

  if (field.kind === 'checkbox' || field.kind === 'consent') {
    return (
      <div className={field.kind === 'consent' ? 'sm:col-span-2' : ''}>
        <label
          htmlFor={inputId}
          className={`intel-check ${field.kind === 'consent' ? 'items-start' : 'items-center'}`}
        >
          <input
            ref={inputRef as Ref<HTMLInputElement>}
            id={inputId}
            type="checkbox"
            name={field.name}
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
            disabled={disabled}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            className="size-4 shrink-0 accent-accent"
          />
          <span>{field.label}</span>
          {field.optional && field.kind === 'consent' && <OptionalBadge />}
        </label>
        {errorLine}
      </div>
    );
  }

  if (field.kind === 'gender') {
    return (
      <fieldset aria-describedby={describedBy} className="min-w-0">
        <legend className="label">{field.label}</legend>
        <div className="flex flex-wrap gap-2">
          {(field.options ?? []).map((option, index) => (
            <label key={option.value} className="radio-pill">
              <input
                ref={index === 0 ? (inputRef as Ref<HTMLInputElement>) : undefined}
                type="radio"
                name={`${id}-${field.name}`}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                disabled={disabled}
                className="accent-accent"
              />
              {option.label}
            </label>
          ))}
        </div>
        {errorLine}
      </fieldset>
    );
  }

  const header = (
    <div className="mb-1 flex items-center justify-between gap-3">
      <label htmlFor={inputId} className="text-sm font-medium text-muted">
        {field.label}
      </label>
      {field.optional && <OptionalBadge />}
    </div>
  );

  if (field.kind === 'year') {
    return (
      <div>
        {header}
        <select
          ref={inputRef as Ref<HTMLSelectElement>}
          id={inputId}
          name={field.name}
          value={textValue(value)}
          onChange={(event) => onChange(event.target.value)}
          disabled={disabled}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className="input min-h-11 text-base sm:text-sm"
        >
          {(field.options ?? []).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {errorLine}
      </div>
    );
  }

  return (
    <div>
      {header}
      <input
        ref={inputRef as Ref<HTMLInputElement>}
        id={inputId}
        name={field.name}
        autoComplete="off"
        spellCheck={false}
        placeholder={field.placeholder}
        {...textAttributes(field)}
        value={textValue(value)}
        // PANs are capitals only; typing one in lower case should not earn 'Invalid PAN format.'.
        onChange={(event) =>
          onChange(field.kind === 'pan' ? event.target.value.toUpperCase() : event.target.value)
        }
        disabled={disabled}
        required={required}
        aria-required={required}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        className={`input min-h-11 text-base sm:text-sm ${field.kind === 'date' ? '[color-scheme:dark]' : ''} ${error ? 'border-danger focus:border-danger' : ''}`}
      />
      {errorLine}
    </div>
  );
}
