import { messages } from '@footprint/domain';
import { useId } from 'react';
import type { HistoryScope } from '../api/listHistory.ts';

const t = messages.units.history;

/** Mine / My units: a supervisor's choice between their own searches and those of their units. */
export function ScopeSwitch({
  value,
  onChange,
}: {
  value: HistoryScope;
  onChange: (scope: HistoryScope) => void;
}) {
  const id = useId();
  const options = [
    { value: 'mine', label: t.mine },
    { value: 'unit', label: t.unit },
  ] as const;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-2">
      <fieldset
        className="flex items-center gap-3"
        aria-describedby={value === 'unit' ? `${id}-lead` : undefined}
      >
        <legend className="float-left mr-3 text-sm font-medium whitespace-nowrap text-muted">
          {t.scopeLabel}
        </legend>
        <div className="search-toggle min-w-56">
          {options.map((option) => (
            <label key={option.value} className="search-toggle-option py-1.5">
              <input
                type="radio"
                name={`${id}-scope`}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                className="peer sr-only"
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {value === 'unit' && (
        <p id={`${id}-lead`} className="text-sm text-muted">
          {t.unitLead}
        </p>
      )}
    </div>
  );
}
