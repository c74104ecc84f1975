import {
  API_KEY_MAX_MONTHLY_CAP,
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_SCOPES,
  type ApiKeyCreated,
  type ApiKeyScope,
  messages,
} from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { localDay } from '../../../lib/datetime.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { useCreateApiKey } from '../api/createApiKey.ts';
import { Section } from './Section.tsx';

const t = messages.apiKeys;

/** The day after today in the user's time zone: the earliest expiry the form offers. */
function tomorrow(): string {
  const date = new Date();
  date.setDate(date.getDate() + 1);
  return localDay(date);
}

type Errors = Partial<Record<'name' | 'scopes' | 'expires_at' | 'monthly_credit_cap' | 'form', string>>;

export function CreateForm({ onCreated }: { onCreated: (created: ApiKeyCreated) => void }) {
  const id = useId();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['lookups']);
  const [expiresAt, setExpiresAt] = useState('');
  const [cap, setCap] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const nameField = useRef<HTMLInputElement>(null);

  const toggle = (scope: ApiKeyScope, on: boolean) => {
    setScopes((current) =>
      on
        ? API_KEY_SCOPES.filter((s) => s === scope || current.includes(s))
        : current.filter((s) => s !== scope),
    );
    setErrors((current) => ({ ...current, scopes: undefined }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    if (!name.trim()) {
      setErrors({ name: t.nameRequired });
      nameField.current?.focus();
      return;
    }
    if (scopes.length === 0) {
      setErrors({ scopes: t.scopesRequired });
      return;
    }
    try {
      const created = await create.mutateAsync({
        name,
        scopes,
        ...(expiresAt ? { expires_at: expiresAt } : {}),
        ...(cap.trim() ? { monthly_credit_cap: Number(cap) } : {}),
      });
      setName('');
      setExpiresAt('');
      setCap('');
      setErrors({});
      onCreated(created);
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const fields = fieldErrorsOf(failure);
      const next: Errors = {
        name: fields.name,
        scopes: fields.scopes,
        expires_at: fields.expires_at,
        monthly_credit_cap: fields.monthly_credit_cap,
      };
      if (!Object.values(next).some(Boolean)) next.form = failureMessage(failure, messages.errors.generic);
      setErrors(next);
      nameField.current?.focus();
    }
  };

  const describedBy = (field: keyof Errors, hint?: string) =>
    [errors[field] ? `${id}-${field}-error` : '', hint ?? ''].filter(Boolean).join(' ') || undefined;
  const errorLine = (field: keyof Errors) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} role="alert" className="field-error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <Section title={t.createHeading}>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label={t.createHeading}
      >
        <div>
          <label htmlFor={`${id}-name`} className="label">
            {t.name}
          </label>
          <input
            ref={nameField}
            id={`${id}-name`}
            className="input"
            maxLength={API_KEY_NAME_MAX_LENGTH}
            placeholder={t.namePlaceholder}
            value={name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy('name')}
            onChange={(event) => {
              setName(event.target.value);
              setErrors((current) => ({ ...current, name: undefined, form: undefined }));
            }}
          />
          {errorLine('name')}
        </div>
        <fieldset aria-describedby={describedBy('scopes')}>
          <legend className="label">{t.scopes}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {API_KEY_SCOPES.map((scope) => (
              <label
                key={scope}
                className="flex cursor-pointer items-start gap-2.5 rounded-lg border border-line px-3 py-2 text-sm text-text"
              >
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-accent"
                  checked={scopes.includes(scope)}
                  onChange={(event) => toggle(scope, event.target.checked)}
                />
                <span>
                  <span className="font-mono font-semibold">{scope}</span>
                  <span className="block text-xs text-muted">{t.scopeLabels[scope]}</span>
                </span>
              </label>
            ))}
          </div>
          {errorLine('scopes')}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-expires`} className="label">
              {t.expiresAt}
            </label>
            <input
              id={`${id}-expires`}
              type="date"
              className="input"
              min={tomorrow()}
              value={expiresAt}
              aria-invalid={errors.expires_at ? true : undefined}
              aria-describedby={describedBy('expires_at')}
              onChange={(event) => {
                setExpiresAt(event.target.value);
                setErrors((current) => ({ ...current, expires_at: undefined }));
              }}
            />
            {errorLine('expires_at')}
          </div>
          <div>
            <label htmlFor={`${id}-cap`} className="label">
              {t.monthlyCap}
            </label>
            <input
              id={`${id}-cap`}
              type="number"
              inputMode="numeric"
              min={1}
              max={API_KEY_MAX_MONTHLY_CAP}
              step={1}
              className="input"
              value={cap}
              aria-invalid={errors.monthly_credit_cap ? true : undefined}
              aria-describedby={describedBy('monthly_credit_cap', `${id}-cap-hint`)}
              onChange={(event) => {
                setCap(event.target.value);
                setErrors((current) => ({ ...current, monthly_credit_cap: undefined }));
              }}
            />
            <p id={`${id}-cap-hint`} className="mt-1 text-xs text-muted">
              {t.monthlyCapHint}
            </p>
            {errorLine('monthly_credit_cap')}
          </div>
        </div>
        {errorLine('form')}
        {/* Never disabled: it keeps the focus while the key is made, and the dialog that shows the key
            gives the focus back to it. An empty name is said under the field. */}
        <button type="submit" className="btn-primary" aria-disabled={create.isPending || undefined}>
          {create.isPending && <Spinner size="sm" decorative />}
          {t.create}
        </button>
      </form>
    </Section>
  );
}
