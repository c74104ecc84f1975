import { messages } from '@footprint/domain';
import { useId } from 'react';

const t = messages.results;

/** The filter box: narrows every section of the page (its label and placeholder the page's own, when given). */
export function FilterBox({
  value,
  onChange,
  label = t.filterLabel,
  placeholder = t.filterPlaceholder,
}: {
  value: string;
  onChange: (value: string) => void;
  label?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="filter-box">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
        focusable="false"
        className="size-4 shrink-0 text-muted"
      >
        <path d="M3 5h18l-7 8v6l-4 2v-8z" />
      </svg>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        autoComplete="off"
        className="min-w-0 flex-1 bg-transparent text-sm text-text outline-none placeholder:text-muted"
      />
      {value && (
        <button type="button" className="btn-chip" onClick={() => onChange('')}>
          {t.clearFilter}
        </button>
      )}
    </div>
  );
}
