import {
  LEAK_FIELD_LABELS,
  LEAK_FIELD_TYPES,
  LEAK_INPUT_MAX_LENGTH,
  LEAK_PLACEHOLDERS,
  type LeakFieldType,
  type LeakRow,
  messages,
} from '@footprint/domain';
import { useId } from 'react';
import { Icon } from '../../../components/Icon.tsx';

/** Keyboard and input hints per type, so a phone gets the number pad and nothing autocorrects. */
const inputHints: Record<LeakFieldType, { type: string; inputMode: 'text' | 'email' | 'tel' }> = {
  name: { type: 'text', inputMode: 'text' },
  email: { type: 'email', inputMode: 'email' },
  phone: { type: 'tel', inputMode: 'tel' },
  username: { type: 'text', inputMode: 'text' },
};

export interface LeakRowsEditorProps {
  rows: LeakRow[];
  disabled?: boolean;
  onTypeChange: (id: LeakRow['id'], type: LeakFieldType) => void;
  onValueChange: (id: LeakRow['id'], value: string) => void;
  onAdd: () => void;
  onRemove: (id: LeakRow['id']) => void;
  /** Lets the page focus a row's input (after adding a row, or on the first invalid row). */
  inputRef: (id: LeakRow['id'], element: HTMLInputElement | null) => void;
}

/**
 * The search rows of spec §2.6: a type selector and a text input each; the first row carries the add
 * button, the others a remove button. Each row's message (spec §5) sits under it and is tied to the
 * input with aria-describedby.
 */
export function LeakRowsEditor({
  rows,
  disabled = false,
  onTypeChange,
  onValueChange,
  onAdd,
  onRemove,
  inputRef,
}: LeakRowsEditorProps) {
  const base = useId();
  return (
    <ol className="space-y-3">
      {rows.map((row, index) => {
        const n = index + 1;
        const id = `${base}-${row.id}`;
        const errorId = `${id}-error`;
        const hints = inputHints[row.type];
        return (
          <li key={row.id} className="leak-row">
            <div className="flex items-stretch gap-2">
              <label htmlFor={`${id}-type`} className="sr-only">
                {messages.leaks.rowType(n)}
              </label>
              <select
                id={`${id}-type`}
                value={row.type}
                disabled={disabled}
                onChange={(event) => onTypeChange(row.id, event.target.value as LeakFieldType)}
                className="input leak-type"
              >
                {LEAK_FIELD_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {LEAK_FIELD_LABELS[type]}
                  </option>
                ))}
              </select>
              <label htmlFor={`${id}-value`} className="sr-only">
                {messages.leaks.rowValue(n)}
              </label>
              <input
                ref={(element) => inputRef(row.id, element)}
                id={`${id}-value`}
                type={hints.type}
                inputMode={hints.inputMode}
                autoComplete="off"
                autoCapitalize={row.type === 'name' ? 'words' : 'none'}
                spellCheck={false}
                maxLength={LEAK_INPUT_MAX_LENGTH}
                placeholder={LEAK_PLACEHOLDERS[row.type]}
                value={row.value}
                disabled={disabled}
                aria-invalid={row.error ? true : undefined}
                aria-describedby={row.error ? errorId : undefined}
                onChange={(event) => onValueChange(row.id, event.target.value)}
                className={`input min-h-11 min-w-0 flex-1 text-base sm:text-sm ${row.error ? 'border-danger' : ''}`}
              />
              {index === 0 ? (
                <button
                  type="button"
                  className="leak-row-button"
                  aria-label={messages.leaks.addRow}
                  title={messages.leaks.addRow}
                  onClick={onAdd}
                  disabled={disabled}
                >
                  <Icon d="M12 5v14M5 12h14" strokeWidth={2} />
                </button>
              ) : (
                <button
                  type="button"
                  className="leak-row-button hover:border-danger hover:text-danger"
                  aria-label={messages.leaks.removeRow(n)}
                  title={messages.leaks.removeRow(n)}
                  onClick={() => onRemove(row.id)}
                  disabled={disabled}
                >
                  <Icon d="M6 12h12" strokeWidth={2} />
                </button>
              )}
            </div>
            {row.error && (
              <p id={errorId} className="field-error">
                {row.error}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
