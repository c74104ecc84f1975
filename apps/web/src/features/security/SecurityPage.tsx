import {
  messages,
  PASSKEY_NAME_MAX_LENGTH,
  type PasskeySummary,
  type SecurityOverview,
} from '@footprint/domain';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { LoadError } from '../../components/LoadError.tsx';
import { Modal } from '../../components/Modal.tsx';
import { PageSpinner, Spinner } from '../../components/Spinner.tsx';
import { useAuth } from '../../lib/auth-context.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../lib/field-errors.ts';
import { useSecurity } from './api/getSecurity.ts';
import { useAddPasskey, useRemovePasskey, useRenamePasskey } from './api/passkeys.ts';
import { useRegenerateRecoveryCodes } from './api/recoveryCodes.ts';
import { useSignOutEverywhere } from './api/signOutEverywhere.ts';
import { useConfirmTotp, useRemoveTotp, useStartTotp } from './api/totp.ts';

const t = messages.security;

function Section({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="card p-5 sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-text">
        {title}
      </h2>
      <p className="mt-1 text-sm text-muted">{lead}</p>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The first message of a failure for `field`, else its message. */
const messageOf = (error: unknown, field: string) =>
  fieldErrorsOf(error)[field] ?? failureMessage(error, messages.errors.generic);

/** Asks for the password before a change that weakens the account; `run` gets it. */
function PasswordPrompt({
  title,
  action,
  onClose,
  run,
}: {
  title: string;
  action: string;
  onClose: () => void;
  run: (password: string) => Promise<void>;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    try {
      await run(password);
      onClose();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      setError(messageOf(failure, 'password'));
      field.current?.focus();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={title}
      description={t.password.prompt}
      onClose={onClose}
      initialFocus={field}
      actions={
        <button type="submit" form={`${id}-form`} className="btn-primary" disabled={busy || !password}>
          {busy && <Spinner size="sm" decorative />}
          {action}
        </button>
      }
    >
      <form id={`${id}-form`} noValidate onSubmit={(event) => void submit(event)}>
        <label htmlFor={`${id}-password`} className="label">
          {t.password.label}
        </label>
        <input
          ref={field}
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          className="input"
          value={password}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setPassword(event.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="field-error">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

/** New recovery codes, shown once. */
function CodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const done = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title={t.recovery.heading}
      description={t.recovery.showOnce}
      onClose={onClose}
      initialFocus={done}
      hideFooterClose
      actions={
        <button ref={done} type="button" className="btn-primary" onClick={onClose}>
          {t.recovery.done}
        </button>
      }
    >
      <ul aria-label={t.recovery.heading} className="grid grid-cols-2 gap-2 font-mono text-sm text-text">
        {codes.map((code) => (
          <li
            key={code}
            className="rounded-lg border border-line bg-night px-3 py-2 text-center tabular-nums"
          >
            {code}
          </li>
        ))}
      </ul>
    </Modal>
  );
}

function TotpSection({ data, onCodes }: { data: SecurityOverview; onCodes: (codes: string[]) => void }) {
  const id = useId();
  const auth = useAuth();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const remove = useRemoveTotp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const codeField = useRef<HTMLInputElement>(null);
  const setup = start.data;

  const onStart = async () => {
    try {
      await start.mutateAsync();
      setCode('');
      setError(null);
      setTimeout(() => codeField.current?.focus(), 0);
    } catch (failure) {
      if (!isSessionEnd(failure)) toast.error(messageOf(failure, 'code'));
    }
  };

  const onConfirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      const answer = await confirm.mutateAsync(code);
      start.reset();
      toast.success(t.totp.confirmed);
      if (answer.recovery_codes.length > 0) onCodes(answer.recovery_codes);
      await auth.refetch();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      setError(messageOf(failure, 'code'));
      codeField.current?.focus();
    }
  };

  return (
    <Section title={t.totp.heading} lead={t.totp.lead}>
      {data.totp.enabled ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm font-medium text-success">
            {t.totp.enabledSince(formatDateTime(data.totp.enabled_at))}
          </p>
          <button type="button" className="btn-ghost" onClick={() => setRemoving(true)}>
            {t.totp.remove}
          </button>
        </div>
      ) : setup ? (
        <div className="grid gap-5 sm:grid-cols-[auto_1fr] sm:items-start">
          <img
            src={setup.qr_code}
            alt={t.totp.qrAlt}
            width={200}
            height={200}
            className="rounded-lg bg-white p-2"
          />
          <form noValidate onSubmit={(event) => void onConfirm(event)} className="min-w-0 space-y-3">
            <p className="text-sm text-text">{t.totp.scan}</p>
            <p className="text-xs text-muted">
              {t.totp.manual}{' '}
              <code className="font-mono text-sm break-all text-text select-all" data-testid="totp-secret">
                {setup.secret}
              </code>
            </p>
            <div>
              <label htmlFor={`${id}-code`} className="label">
                {t.totp.code}
              </label>
              <input
                ref={codeField}
                id={`${id}-code`}
                className="input max-w-48 tabular-nums"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => {
                  setCode(event.target.value.replace(/\D/g, ''));
                  setError(null);
                }}
              />
              {error && (
                <p id={`${id}-error`} role="alert" className="field-error">
                  {error}
                </p>
              )}
            </div>
            <div className="flex flex-wrap gap-2">
              <button type="submit" className="btn-primary" disabled={confirm.isPending || code.length !== 6}>
                {confirm.isPending && <Spinner size="sm" decorative />}
                {t.totp.confirm}
              </button>
              <button type="button" className="btn-ghost" onClick={() => start.reset()}>
                {t.totp.cancel}
              </button>
            </div>
          </form>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-muted">{t.totp.disabled}</p>
          <button
            type="button"
            className="btn-primary"
            onClick={() => void onStart()}
            disabled={start.isPending}
          >
            {start.isPending && <Spinner size="sm" decorative />}
            {t.totp.start}
          </button>
        </div>
      )}
      {removing && (
        <PasswordPrompt
          title={t.totp.remove}
          action={t.totp.remove}
          onClose={() => setRemoving(false)}
          run={async (password) => {
            await remove.mutateAsync(password);
            toast.success(t.totp.removed);
            await auth.refetch();
          }}
        />
      )}
    </Section>
  );
}

function RecoverySection({ data, onCodes }: { data: SecurityOverview; onCodes: (codes: string[]) => void }) {
  const regenerate = useRegenerateRecoveryCodes();
  const [asking, setAsking] = useState(false);
  const enrolled = data.totp.enabled || data.passkeys.length > 0;
  return (
    <Section title={t.recovery.heading} lead={t.recovery.lead}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-text">
          {enrolled ? t.recovery.left(data.recovery_codes_left) : t.recovery.none}
        </p>
        {enrolled && (
          <button type="button" className="btn-ghost" onClick={() => setAsking(true)}>
            {t.recovery.regenerate}
          </button>
        )}
      </div>
      {asking && (
        <PasswordPrompt
          title={t.recovery.regenerate}
          action={t.recovery.regenerate}
          onClose={() => setAsking(false)}
          run={async (password) => {
            const answer = await regenerate.mutateAsync(password);
            toast.success(t.recovery.regenerated);
            onCodes(answer.recovery_codes);
          }}
        />
      )}
    </Section>
  );
}

function PasskeyRow({ passkey }: { passkey: PasskeySummary }) {
  const id = useId();
  const auth = useAuth();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);

  const onRename = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      await rename.mutateAsync({ id: passkey.id, name });
      toast.success(t.passkeys.renamed);
      setEditing(false);
    } catch (failure) {
      if (!isSessionEnd(failure)) setError(messageOf(failure, 'name'));
    }
  };

  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      {editing ? (
        <form
          noValidate
          onSubmit={(event) => void onRename(event)}
          className="flex flex-1 flex-wrap items-start gap-2"
        >
          <div className="min-w-48 flex-1">
            <label htmlFor={`${id}-name`} className="sr-only">
              {t.passkeys.name}
            </label>
            <input
              id={`${id}-name`}
              className="input"
              maxLength={PASSKEY_NAME_MAX_LENGTH}
              value={name}
              // biome-ignore lint/a11y/noAutofocus: the field the user just asked to edit
              autoFocus
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => {
                setName(event.target.value);
                setError(null);
              }}
            />
            {error && (
              <p id={`${id}-error`} role="alert" className="field-error">
                {error}
              </p>
            )}
          </div>
          <button type="submit" className="btn-primary" disabled={rename.isPending}>
            {t.passkeys.save}
          </button>
          <button type="button" className="btn-ghost" onClick={() => setEditing(false)}>
            {t.totp.cancel}
          </button>
        </form>
      ) : (
        <>
          <div className="min-w-0">
            <p className="truncate font-medium text-text">{passkey.name}</p>
            <p className="text-xs text-muted">
              {t.passkeys.created(formatDateTime(passkey.created_at))}
              {passkey.last_used_at ? `, ${t.passkeys.lastUsed(formatDateTime(passkey.last_used_at))}` : ''}
            </p>
          </div>
          <div className="flex gap-2">
            <button
              type="button"
              className="btn-ghost"
              aria-label={`${t.passkeys.rename} ${passkey.name}`}
              onClick={() => {
                setName(passkey.name);
                setEditing(true);
              }}
            >
              {t.passkeys.rename}
            </button>
            <button
              type="button"
              className="btn-ghost"
              aria-label={`${t.passkeys.remove} ${passkey.name}`}
              onClick={() => setRemoving(true)}
            >
              {t.passkeys.remove}
            </button>
          </div>
        </>
      )}
      {removing && (
        <PasswordPrompt
          title={`${t.passkeys.remove} ${passkey.name}`}
          action={t.passkeys.remove}
          onClose={() => setRemoving(false)}
          run={async (password) => {
            await remove.mutateAsync({ id: passkey.id, password });
            toast.success(t.passkeys.removed);
            await auth.refetch();
          }}
        />
      )}
    </li>
  );
}

function PasskeysSection({ data, onCodes }: { data: SecurityOverview; onCodes: (codes: string[]) => void }) {
  const id = useId();
  const auth = useAuth();
  const add = useAddPasskey();
  const [name, setName] = useState<string>(t.passkeys.defaultName);
  const [error, setError] = useState<string | null>(null);
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;

  const onAdd = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await add.mutateAsync(name.trim());
      toast.success(t.passkeys.added);
      setName(t.passkeys.defaultName);
      if (answer.recovery_codes.length > 0) onCodes(answer.recovery_codes);
      await auth.refetch();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const cancelled = (failure as { name?: string } | null)?.name === 'NotAllowedError';
      setError(
        cancelled
          ? t.passkeys.cancelled
          : (fieldErrorsOf(failure).name ?? fieldErrorsOf(failure).response ?? t.passkeys.failed),
      );
    }
  };

  return (
    <Section title={t.passkeys.heading} lead={t.passkeys.lead}>
      {data.passkeys.length === 0 ? (
        <p className="text-sm text-muted">{t.passkeys.none}</p>
      ) : (
        <ul aria-label={t.passkeys.heading} className="divide-y divide-line">
          {data.passkeys.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      {supported ? (
        <form
          noValidate
          onSubmit={(event) => void onAdd(event)}
          className="mt-4 flex flex-wrap items-end gap-2"
        >
          <div className="min-w-48 flex-1">
            <label htmlFor={`${id}-name`} className="label">
              {t.passkeys.name}
            </label>
            <input
              id={`${id}-name`}
              className="input"
              maxLength={PASSKEY_NAME_MAX_LENGTH}
              value={name}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => {
                setName(event.target.value);
                setError(null);
              }}
            />
          </div>
          <button type="submit" className="btn-primary" disabled={add.isPending || name.trim() === ''}>
            {add.isPending && <Spinner size="sm" decorative />}
            {t.passkeys.add}
          </button>
          {error && (
            <p id={`${id}-error`} role="alert" className="field-error w-full">
              {error}
            </p>
          )}
        </form>
      ) : (
        <p className="mt-4 text-sm text-muted">{t.passkeys.unsupported}</p>
      )}
    </Section>
  );
}

function DevicesSection({ data }: { data: SecurityOverview }) {
  const auth = useAuth();
  const everywhere = useSignOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Section title={t.devices.heading} lead={t.devices.lead}>
        {data.trusted_devices.length === 0 ? (
          <p className="text-sm text-muted">{t.devices.none}</p>
        ) : (
          <ul aria-label={t.devices.heading} className="divide-y divide-line">
            {data.trusted_devices.map((device) => (
              <li key={device.id} className="py-3">
                <p className="text-sm font-medium break-words text-text">
                  {device.user_agent ?? t.devices.unknownBrowser}
                  {device.current && (
                    <span className="ml-2 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent">
                      {t.devices.current}
                    </span>
                  )}
                </p>
                <p className="text-xs text-muted">
                  {t.devices.lastSeen(formatDateTime(device.last_seen_at))}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={t.everywhere.heading} lead={t.everywhere.lead}>
        <button
          type="button"
          className="btn-ghost border-danger/60 text-danger"
          onClick={() => setConfirming(true)}
        >
          {t.everywhere.action}
        </button>
      </Section>
      {confirming && (
        <Modal
          title={t.everywhere.heading}
          description={t.everywhere.confirm}
          onClose={() => setConfirming(false)}
          initialFocus={confirmButton}
          actions={
            <button
              ref={confirmButton}
              type="button"
              className="btn-primary"
              disabled={everywhere.isPending}
              onClick={async () => {
                try {
                  await everywhere.mutateAsync();
                  toast.success(t.everywhere.done);
                  await auth.logout();
                } catch (failure) {
                  if (!isSessionEnd(failure)) toast.error(failureMessage(failure, messages.errors.generic));
                }
              }}
            >
              {everywhere.isPending && <Spinner size="sm" decorative />}
              {t.everywhere.action}
            </button>
          }
        >
          {null}
        </Modal>
      )}
    </>
  );
}

/**
 * /security (beyond the spec): the authenticator app, recovery codes, passkeys, trusted devices and
 * "Sign out everywhere". While the deployment requires a second factor the account lacks, this is
 * the only page the app shows.
 */
export default function SecurityPage() {
  const security = useSecurity();
  const [codes, setCodes] = useState<string[] | null>(null);
  const data = security.data;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>
      {data?.setup_required && (
        <div
          role="alert"
          className="mt-5 rounded-lg border border-warning/50 bg-warning/10 px-4 py-3 text-sm text-text"
        >
          {t.setupRequiredBanner}
        </div>
      )}
      {security.isPending ? (
        <PageSpinner />
      ) : !data ? (
        <LoadError
          message={t.loadFailed}
          retryLabel={messages.admin.retry}
          onRetry={() => void security.refetch()}
        />
      ) : (
        <div className="mt-6 space-y-5">
          <TotpSection data={data} onCodes={setCodes} />
          <PasskeysSection data={data} onCodes={setCodes} />
          <RecoverySection data={data} onCodes={setCodes} />
          <DevicesSection data={data} />
        </div>
      )}
      {codes && <CodesDialog codes={codes} onClose={() => setCodes(null)} />}
    </div>
  );
}
