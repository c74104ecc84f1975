import {
  APPROVAL_BULK_ROWS_MAX,
  APPROVAL_HOURS_MAX,
  APPROVAL_KINDS,
  messages,
  type SearchKind,
  searchKindLabel,
} from '@footprint/domain';
import { approvalTexts as a } from '../../../lib/approval-texts.ts';

/**
 * The settings of the approval of sensitive searches on /admin/settings: which search kinds wait for a
 * supervisor's approval (approval_kinds), how long such a request waits (approval_hours), and above
 * how many rows a bulk lookup waits too (approval_bulk_rows).
 */

const typeLabels: Record<string, string> = messages.intel.typeLabels;

/** 'upi' → 'UPI Details', 'corporate:credit_report' → 'Corporate · Credit Report'. */
export function approvalKindLabel(kind: SearchKind): string {
  const type = kind.split(':', 2)[1];
  return type ? `${searchKindLabel(kind)} · ${typeLabels[type] ?? type}` : searchKindLabel(kind);
}

// The kinds that can wait for approval (domain APPROVAL_KINDS: all but the leak search).
const groups: ReadonlyArray<{ key: string; label: string; kinds: readonly SearchKind[] }> = [
  {
    key: 'lookups',
    label: a.settingsLookupsGroup,
    kinds: APPROVAL_KINDS.filter((kind) => !kind.includes(':')),
  },
  {
    key: 'corporate',
    label: searchKindLabel('corporate:corporate_gstin'),
    kinds: APPROVAL_KINDS.filter((kind) => kind.startsWith('corporate:')),
  },
  {
    key: 'verification',
    label: searchKindLabel('verification:pan'),
    kinds: APPROVAL_KINDS.filter((kind) => kind.startsWith('verification:')),
  },
];

/** One checkbox per search kind, in three groups; kinds not offered here stay as they were. */
export function ApprovalKindsField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: readonly string[];
  onChange: (kind: SearchKind, held: boolean) => void;
}) {
  return (
    <fieldset className="py-4" aria-describedby={`${id}-hint`}>
      <legend className="float-left w-full text-sm font-semibold text-text">{a.settingsKinds}</legend>
      <p id={`${id}-hint`} className="clear-left pt-0.5 text-xs text-muted">
        {a.settingsKindsHint}
      </p>
      {groups.map((group) => (
        <fieldset key={group.key} className="mt-3">
          <legend className="text-xs font-medium tracking-wide text-muted uppercase">{group.label}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {group.kinds.map((kind) => {
              const checked = value.includes(kind);
              return (
                <label
                  key={kind}
                  className={`flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm text-text transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${
                    checked ? 'border-accent bg-accent/10' : 'border-line hover:border-muted'
                  }`}
                >
                  <input
                    type="checkbox"
                    value={kind}
                    checked={checked}
                    onChange={(event) => onChange(kind, event.target.checked)}
                    className="accent-accent"
                  />
                  <span className="min-w-0 break-words">
                    {group.key === 'lookups'
                      ? approvalKindLabel(kind)
                      : (typeLabels[kind.split(':')[1]!] ?? kind)}
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}
    </fieldset>
  );
}

interface NumberFieldProps {
  id: string;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}

/** Hours before an undecided request expires: a whole number from 1 to APPROVAL_HOURS_MAX. */
export function ApprovalHoursField(props: NumberFieldProps) {
  return (
    <WholeNumberField
      {...props}
      label={a.settingsHours}
      hint={a.settingsHoursHint(APPROVAL_HOURS_MAX)}
      min={1}
      max={APPROVAL_HOURS_MAX}
    />
  );
}

/** Rows above which a bulk lookup waits for approval: a whole number from 0 (none waits) to the max. */
export function ApprovalBulkRowsField(props: NumberFieldProps) {
  const s = messages.admin.settings;
  return (
    <WholeNumberField
      {...props}
      label={s.approvalBulkRows}
      hint={s.approvalBulkRowsHint(APPROVAL_BULK_ROWS_MAX)}
      min={0}
      max={APPROVAL_BULK_ROWS_MAX}
    />
  );
}

/** A labelled whole-number input with its hint, and the refusal (the browser's or the server's) under it. */
function WholeNumberField({
  id,
  value,
  error,
  onChange,
  label,
  hint,
  min,
  max,
}: NumberFieldProps & { label: string; hint: string; min: number; max: number }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4 py-4">
      <div className="min-w-0 flex-1 basis-64">
        <label htmlFor={id} className="text-sm font-semibold text-text">
          {label}
        </label>
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-muted">
          {hint}
        </p>
      </div>
      <div className="w-32">
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          className="input min-h-10 text-right tabular-nums"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error w-full text-right">
          {error}
        </p>
      )}
    </div>
  );
}
