import {
  API_KEY_MAX_MONTHLY_CAP,
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_SCOPES,
  type ApiKeyCreated,
  type ApiKeyScope,
  type ApiKeySummary,
  messages,
} from '@footprint/domain';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { CopyButton } from '../../components/CopyButton.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Modal } from '../../components/Modal.tsx';
import { PageSpinner, Spinner } from '../../components/Spinner.tsx';
import { formatDate, formatDateTime, localDay } from '../../lib/datetime.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../lib/field-errors.ts';
import { useCreateApiKey } from './api/createApiKey.ts';
import { useApiKeys } from './api/listApiKeys.ts';
import { useRevokeApiKey } from './api/revokeApiKey.ts';

const t = messages.apiKeys;

function Section({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="card p-5 sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-text">
        {title}
      </h2>
      {lead && <p className="mt-1 text-sm text-muted">{lead}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The day after today in the user's time zone: the earliest expiry the form offers. */
function tomorrow(): string {
  const date = new Date();
  date.setDate(date.getDate() + 1);
  return localDay(date);
}

type Errors = Partial<Record<'name' | 'scopes' | 'expires_at' | 'monthly_credit_cap' | 'form', string>>;

function CreateForm({ onCreated }: { onCreated: (created: ApiKeyCreated) => void }) {
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
        <button type="submit" className="btn-primary" disabled={create.isPending || !name.trim()}>
          {create.isPending && <Spinner size="sm" decorative />}
          {t.create}
        </button>
      </form>
    </Section>
  );
}

/** The new key, shown once with a Copy button and the notice that it will not be shown again. */
function CreatedDialog({ created, onClose }: { created: ApiKeyCreated; onClose: () => void }) {
  const done = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title={t.shownOnceTitle}
      description={created.name}
      onClose={onClose}
      initialFocus={done}
      hideFooterClose
      actions={
        <button ref={done} type="button" className="btn-primary" onClick={onClose}>
          {t.done}
        </button>
      }
    >
      <div className="flex items-start gap-2 rounded-lg border border-line bg-night px-3 py-2">
        <code
          className="min-w-0 flex-1 font-mono text-sm break-all text-text select-all"
          data-testid="new-api-key"
        >
          {created.key}
        </code>
        <CopyButton text={created.key} label={t.copyKey} className="shrink-0" />
      </div>
      <p
        role="note"
        className="mt-3 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-sm text-text"
      >
        {t.shownOnce}
      </p>
    </Modal>
  );
}

function RevokeDialog({ apiKey, onClose }: { apiKey: ApiKeySummary; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  const cancel = useRef<HTMLButtonElement>(null);
  const onRevoke = async () => {
    try {
      await revoke.mutateAsync(apiKey.id);
      toast.success(t.revoked);
      onClose();
    } catch (failure) {
      if (!isSessionEnd(failure)) toast.error(failureMessage(failure, messages.errors.generic));
    }
  };
  return (
    <Modal
      title={t.revokeTitle}
      description={t.revokeConfirm(apiKey.name)}
      onClose={onClose}
      initialFocus={cancel}
      hideFooterClose
      actions={
        <>
          <button ref={cancel} type="button" className="btn-ghost" onClick={onClose}>
            {t.cancel}
          </button>
          <button
            type="button"
            className="btn bg-danger text-white hover:bg-danger/85"
            disabled={revoke.isPending}
            onClick={() => void onRevoke()}
          >
            {revoke.isPending && <Spinner size="sm" decorative />}
            {t.revoke}
          </button>
        </>
      }
    >
      <p className="font-mono text-sm text-muted">{apiKey.prefix}</p>
    </Modal>
  );
}

const statusOf = (key: ApiKeySummary): 'revoked' | 'expired' | 'active' =>
  key.revoked_at
    ? 'revoked'
    : key.expires_at && Date.parse(key.expires_at) <= Date.now()
      ? 'expired'
      : 'active';

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKeySummary; onRevoke: () => void }) {
  const status = statusOf(apiKey);
  const label =
    status === 'revoked' ? t.statusRevoked : status === 'expired' ? t.statusExpired : t.statusActive;
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-4" data-testid="api-key-row">
      <div className="min-w-0 flex-1 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <p className="truncate font-medium text-text">{apiKey.name}</p>
          <span className={`status-badge ${status === 'active' ? 'status-on' : 'status-off'}`}>{label}</span>
        </div>
        <p className="font-mono text-sm text-muted">{apiKey.prefix}</p>
        <ul className="flex flex-wrap gap-1.5" aria-label={t.scopes}>
          {apiKey.scopes.map((scope) => (
            <li key={scope} className="source-chip chip-sky font-mono">
              {scope}
            </li>
          ))}
        </ul>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-muted">
          <dt>{t.createdOn}</dt>
          <dd className="text-text">{formatDate(apiKey.created_at)}</dd>
          <dt>{t.lastUsed}</dt>
          <dd className="text-text">{apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : t.never}</dd>
          <dt>{t.expires}</dt>
          <dd className="text-text">{apiKey.expires_at ? formatDateTime(apiKey.expires_at) : t.noExpiry}</dd>
          <dt>{t.spentThisMonth}</dt>
          <dd className="text-text tabular-nums">
            {apiKey.monthly_credit_cap === null
              ? `${apiKey.credits_this_month} (${t.noCap.toLowerCase()})`
              : `${apiKey.credits_this_month} / ${apiKey.monthly_credit_cap}`}
          </dd>
        </dl>
      </div>
      {status !== 'revoked' && (
        <button
          type="button"
          className="btn-ghost"
          aria-label={`${t.revoke} ${apiKey.name}`}
          onClick={onRevoke}
        >
          {t.revoke}
        </button>
      )}
    </li>
  );
}

/** A curl line for this deployment's own origin, with a placeholder for the key. */
function HowToCall() {
  const origin = window.location.origin;
  const example = `curl -H "Authorization: Bearer fp_…" \\\n  "${origin}/api/tel?number=919876543210"`;
  return (
    <Section title={t.howToCall} lead={t.howToCallLead}>
      <div className="flex items-start gap-2 rounded-lg border border-line bg-night px-3 py-2">
        <pre
          className="min-w-0 flex-1 font-mono text-sm break-all whitespace-pre-wrap text-text"
          data-testid="curl-example"
        >
          {example}
        </pre>
        <CopyButton text={example.replace(' \\\n ', '')} label={t.howToCall} className="shrink-0" />
      </div>
      <p className="mt-3 text-sm text-muted">
        <a className="text-accent underline-offset-2 hover:underline" href="/api/docs">
          /api/docs
        </a>
        {' · '}
        <a className="text-accent underline-offset-2 hover:underline" href="/api/openapi.json">
          /api/openapi.json
        </a>
      </p>
    </Section>
  );
}

/**
 * /api-keys (beyond the spec; docs/api.md): a live account makes named, scoped keys for its scripts,
 * sees each once, and revokes them. Every search a key makes is charged to the account and audited
 * under the key's name.
 */
export default function ApiKeysPage() {
  const keys = useApiKeys();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const data = keys.data;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>
      <div className="mt-6 space-y-5">
        <CreateForm
          onCreated={(key) => {
            toast.success(t.created);
            setCreated(key);
          }}
        />
        <Section title={t.listHeading}>
          {keys.isPending ? (
            <PageSpinner />
          ) : !data ? (
            <LoadError
              message={t.loadFailed}
              retryLabel={messages.admin.retry}
              onRetry={() => void keys.refetch()}
            />
          ) : data.api_keys.length === 0 ? (
            <p className="text-sm text-muted">{t.empty}</p>
          ) : (
            <ul className="divide-y divide-line">
              {data.api_keys.map((key) => (
                <KeyRow key={key.id} apiKey={key} onRevoke={() => setRevoking(key)} />
              ))}
            </ul>
          )}
        </Section>
        <HowToCall />
      </div>
      {created && <CreatedDialog created={created} onClose={() => setCreated(null)} />}
      {revoking && <RevokeDialog apiKey={revoking} onClose={() => setRevoking(null)} />}
    </div>
  );
}
