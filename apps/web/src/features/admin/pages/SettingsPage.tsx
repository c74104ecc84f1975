import {
  type AdminSettings,
  type AdminSettingsPatch,
  APPROVAL_HOURS_DEFAULT,
  adminSettingsPatch,
  messages,
  REGISTRATION_MODES,
  type RegistrationMode,
  SIGNUP_FIELD_SETTINGS,
  SIGNUP_FIELDS,
  type SignupField,
} from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { LoadError, LoadingBlock } from '../../../components/LoadError.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { useSettings, useUpdateSettings } from '../api/settings.ts';
import {
  ApprovalBulkRowsField,
  ApprovalHoursField,
  ApprovalKindsField,
} from '../components/ApprovalSettings.tsx';
import { ScreenHeader } from '../components/ScreenHeader.tsx';

const t = messages.admin;
const s = t.settings;

function Switch({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start justify-between gap-4 py-4">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-semibold text-text">
          {label}
        </label>
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-muted">
          {hint}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={checked}
        aria-describedby={`${id}-hint`}
        className="switch"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}

/** Open, approval or closed: one choice, each with a line saying what it does. */
function RegistrationModeField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: RegistrationMode;
  onChange: (mode: RegistrationMode) => void;
}) {
  return (
    <fieldset className="py-4" aria-describedby={`${id}-hint`}>
      <legend className="float-left w-full text-sm font-semibold text-text">{s.registrationMode}</legend>
      <p id={`${id}-hint`} className="clear-left pt-0.5 text-xs text-muted">
        {s.registrationModeHint}
      </p>
      <div className="mt-3 grid gap-2 sm:grid-cols-3">
        {REGISTRATION_MODES.map((mode) => (
          <label
            key={mode}
            className={`flex cursor-pointer flex-col gap-1 rounded-lg border p-3 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${
              value === mode ? 'border-accent bg-accent/10' : 'border-line hover:border-muted'
            }`}
          >
            <span className="flex items-center gap-2 text-sm font-semibold text-text">
              <input
                type="radio"
                name={`${id}-mode`}
                value={mode}
                checked={value === mode}
                onChange={() => onChange(mode)}
                aria-labelledby={`${id}-${mode}-name`}
                aria-describedby={`${id}-${mode}-hint`}
                className="accent-accent"
              />
              <span id={`${id}-${mode}-name`}>{s.registrationModes[mode]}</span>
            </span>
            <span id={`${id}-${mode}-hint`} className="text-xs text-muted">
              {s.registrationModeHints[mode]}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Which sign-up profile fields /register requires: one checkbox each. */
function SignupFieldsField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: Record<SignupField, boolean>;
  onChange: (field: SignupField, required: boolean) => void;
}) {
  return (
    <fieldset className="py-4" aria-describedby={`${id}-hint`}>
      <legend className="float-left w-full text-sm font-semibold text-text">{s.signupFields}</legend>
      <p id={`${id}-hint`} className="clear-left pt-0.5 text-xs text-muted">
        {s.signupFieldsHint}
      </p>
      <div className="mt-3 grid gap-2 sm:grid-cols-3">
        {SIGNUP_FIELDS.map((field) => (
          <label
            key={field}
            className={`flex cursor-pointer items-center gap-2 rounded-lg border p-3 text-sm font-semibold text-text transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${
              value[field] ? 'border-accent bg-accent/10' : 'border-line hover:border-muted'
            }`}
          >
            <input
              type="checkbox"
              checked={value[field]}
              onChange={(event) => onChange(field, event.target.checked)}
              className="accent-accent"
            />
            {s.signupFieldRequired(messages.signupFields.labels[field])}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const requiredOf = (current: AdminSettings): Record<SignupField, boolean> => ({
  organisation: current[SIGNUP_FIELD_SETTINGS.organisation] === true,
  designation: current[SIGNUP_FIELD_SETTINGS.designation] === true,
  identity_reference: current[SIGNUP_FIELD_SETTINGS.identity_reference] === true,
});

function SettingsForm({ current }: { current: AdminSettings }) {
  const id = useId();
  const save = useUpdateSettings();
  const initialDays =
    typeof current.lookup_retention_days === 'number' ? String(current.lookup_retention_days) : '';
  const initialShare =
    typeof current.review_share_percent === 'number' ? String(current.review_share_percent) : '0';
  const initialHours = String(current.approval_hours ?? APPROVAL_HOURS_DEFAULT);
  const initialKinds = current.approval_kinds ?? [];
  const initialBulkRows = String(current.approval_bulk_rows ?? 0);
  const currentMode: RegistrationMode =
    current.registration_mode ?? (current.registration_enabled === false ? 'closed' : 'open');
  const [draft, setDraft] = useState({
    registration_mode: currentMode,
    case_reference_required: current.case_reference_required === true,
    second_factor_required: current.second_factor_required === true,
    legal_basis_required: current.legal_basis_required === true,
    lookup_retention_days: initialDays,
    signup_required: requiredOf(current),
    review_share_percent: initialShare,
    approval_kinds: initialKinds,
    approval_hours: initialHours,
    approval_bulk_rows: initialBulkRows,
  });
  const [retentionError, setRetentionError] = useState<string | null>(null);
  const [shareError, setShareError] = useState<string | null>(null);
  const [hoursError, setHoursError] = useState<string | null>(null);
  const [bulkRowsError, setBulkRowsError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const patch: AdminSettingsPatch = {};
    if (draft.registration_mode !== currentMode) patch.registration_mode = draft.registration_mode;
    if (draft.case_reference_required !== (current.case_reference_required === true))
      patch.case_reference_required = draft.case_reference_required;
    if (draft.second_factor_required !== (current.second_factor_required === true))
      patch.second_factor_required = draft.second_factor_required;
    if (draft.legal_basis_required !== (current.legal_basis_required === true))
      patch.legal_basis_required = draft.legal_basis_required;
    const stored = requiredOf(current);
    for (const field of SIGNUP_FIELDS) {
      if (draft.signup_required[field] !== stored[field]) {
        patch[SIGNUP_FIELD_SETTINGS[field]] = draft.signup_required[field];
      }
    }
    const days = draft.lookup_retention_days.trim();
    if (days !== initialDays) patch.lookup_retention_days = days === '' ? Number.NaN : Number(days);
    const share = draft.review_share_percent.trim();
    if (share !== initialShare) patch.review_share_percent = share === '' ? Number.NaN : Number(share);
    const kindsChanged =
      draft.approval_kinds.length !== initialKinds.length ||
      draft.approval_kinds.some((kind) => !initialKinds.includes(kind));
    if (kindsChanged) patch.approval_kinds = draft.approval_kinds;
    const hours = draft.approval_hours.trim();
    if (hours !== initialHours) patch.approval_hours = hours === '' ? Number.NaN : Number(hours);
    const bulkRows = draft.approval_bulk_rows.trim();
    if (bulkRows !== initialBulkRows)
      patch.approval_bulk_rows = bulkRows === '' ? Number.NaN : Number(bulkRows);
    const checked = adminSettingsPatch.safeParse(patch);
    if (!checked.success) {
      // Each refused field says why under itself; the first of them takes the focus.
      const byField = new Map<string, string>();
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (!byField.has(field)) byField.set(field, issue.message);
      }
      const retention = byField.get('lookup_retention_days') ?? null;
      const shareMessage = byField.get('review_share_percent') ?? null;
      const hoursMessage = byField.get('approval_hours') ?? null;
      const bulkRowsMessage = byField.get('approval_bulk_rows') ?? null;
      setRetentionError(
        retention ??
          (shareMessage || hoursMessage || bulkRowsMessage
            ? null
            : (checked.error.issues[0]?.message ?? messages.errors.validation)),
      );
      setShareError(shareMessage);
      setHoursError(hoursMessage);
      setBulkRowsError(bulkRowsMessage);
      const first = retention
        ? 'retention'
        : shareMessage
          ? 'share'
          : hoursMessage
            ? 'hours'
            : bulkRowsMessage
              ? 'bulk-rows'
              : 'retention';
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setRetentionError(null);
    setShareError(null);
    setHoursError(null);
    setBulkRowsError(null);
    if (Object.keys(patch).length === 0) {
      toast.success(t.saved);
      return;
    }
    try {
      await save.mutateAsync(patch);
      toast.success(t.saved);
    } catch (error) {
      if (isSessionEnd(error)) return;
      const fields = fieldErrorsOf(error);
      if (
        fields.lookup_retention_days ||
        fields.review_share_percent ||
        fields.approval_hours ||
        fields.approval_bulk_rows
      ) {
        setRetentionError(fields.lookup_retention_days ?? null);
        setShareError(fields.review_share_percent ?? null);
        setHoursError(fields.approval_hours ?? null);
        setBulkRowsError(fields.approval_bulk_rows ?? null);
      } else toast.error(failureMessage(error, messages.errors.generic));
    }
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="card max-w-3xl px-5 py-2">
      <div className="divide-y divide-line">
        <RegistrationModeField
          id={`${id}-registration`}
          value={draft.registration_mode}
          onChange={(value) => setDraft((d) => ({ ...d, registration_mode: value }))}
        />
        <SignupFieldsField
          id={`${id}-signup-fields`}
          value={draft.signup_required}
          onChange={(field, required) =>
            setDraft((d) => ({ ...d, signup_required: { ...d.signup_required, [field]: required } }))
          }
        />
        <Switch
          id={`${id}-case-reference`}
          label={s.caseReferenceRequired}
          hint={s.caseReferenceHint}
          checked={draft.case_reference_required}
          onChange={(value) => setDraft((d) => ({ ...d, case_reference_required: value }))}
        />
        <Switch
          id={`${id}-second-factor`}
          label={s.secondFactorRequired}
          hint={s.secondFactorHint}
          checked={draft.second_factor_required}
          onChange={(value) => setDraft((d) => ({ ...d, second_factor_required: value }))}
        />
        <Switch
          id={`${id}-legal-basis`}
          label={s.legalBasisRequired}
          hint={s.legalBasisHint}
          checked={draft.legal_basis_required}
          onChange={(value) => setDraft((d) => ({ ...d, legal_basis_required: value }))}
        />
        <div className="flex flex-wrap items-start justify-between gap-4 py-4">
          <div className="min-w-0 flex-1 basis-64">
            <label htmlFor={`${id}-retention`} className="text-sm font-semibold text-text">
              {s.retention}
            </label>
            <p id={`${id}-retention-hint`} className="mt-0.5 text-xs text-muted">
              {s.retentionHint}
            </p>
          </div>
          <div className="w-32">
            <input
              id={`${id}-retention`}
              type="number"
              inputMode="numeric"
              min={1}
              max={3650}
              step={1}
              className="input min-h-10 text-right tabular-nums"
              value={draft.lookup_retention_days}
              aria-invalid={retentionError ? true : undefined}
              aria-describedby={
                retentionError ? `${id}-retention-error ${id}-retention-hint` : `${id}-retention-hint`
              }
              onChange={(event) => {
                setDraft((d) => ({ ...d, lookup_retention_days: event.target.value }));
                setRetentionError(null);
              }}
            />
          </div>
          {retentionError && (
            <p id={`${id}-retention-error`} className="field-error w-full text-right">
              {retentionError}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-start justify-between gap-4 py-4">
          <div className="min-w-0 flex-1 basis-64">
            <label htmlFor={`${id}-share`} className="text-sm font-semibold text-text">
              {s.reviewShare}
            </label>
            <p id={`${id}-share-hint`} className="mt-0.5 text-xs text-muted">
              {s.reviewShareHint}
            </p>
          </div>
          <div className="w-32">
            <input
              id={`${id}-share`}
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              step="any"
              className="input min-h-10 text-right tabular-nums"
              value={draft.review_share_percent}
              aria-invalid={shareError ? true : undefined}
              aria-describedby={shareError ? `${id}-share-error ${id}-share-hint` : `${id}-share-hint`}
              onChange={(event) => {
                setDraft((d) => ({ ...d, review_share_percent: event.target.value }));
                setShareError(null);
              }}
            />
          </div>
          {shareError && (
            <p id={`${id}-share-error`} className="field-error w-full text-right">
              {shareError}
            </p>
          )}
        </div>
        <ApprovalKindsField
          id={`${id}-approval-kinds`}
          value={draft.approval_kinds}
          onChange={(kind, held) =>
            setDraft((d) => ({
              ...d,
              approval_kinds: held
                ? [...d.approval_kinds.filter((item) => item !== kind), kind]
                : d.approval_kinds.filter((item) => item !== kind),
            }))
          }
        />
        <ApprovalHoursField
          id={`${id}-hours`}
          value={draft.approval_hours}
          error={hoursError}
          onChange={(value) => {
            setDraft((d) => ({ ...d, approval_hours: value }));
            setHoursError(null);
          }}
        />
        <ApprovalBulkRowsField
          id={`${id}-bulk-rows`}
          value={draft.approval_bulk_rows}
          error={bulkRowsError}
          onChange={(value) => {
            setDraft((d) => ({ ...d, approval_bulk_rows: value }));
            setBulkRowsError(null);
          }}
        />
      </div>
      <div className="flex justify-end border-t border-line py-4">
        <button type="submit" className="btn-primary" disabled={save.isPending}>
          {save.isPending && <Spinner size="sm" decorative />}
          {save.isPending ? s.saving : s.save}
        </button>
      </div>
    </form>
  );
}

/**
 * /admin/settings: the registration mode (open, approval, closed), whether a case reference is required,
 * result retention, the share of searches drawn for sampled review, and the search kinds that wait for
 * a supervisor's approval with how long such a request waits, and above how many rows a bulk lookup waits.
 */
export default function SettingsPage() {
  const settings = useSettings();
  return (
    <div className="space-y-5">
      <ScreenHeader title={t.nav.settings} lead={s.lead} />
      {settings.isPending ? (
        <LoadingBlock />
      ) : settings.isError ? (
        <LoadError
          message={t.loadFailed}
          retryLabel={t.retry}
          onRetry={() => void settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : (
        <SettingsForm current={settings.data} />
      )}
    </div>
  );
}
