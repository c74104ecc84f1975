import { messages, type SecurityOverview } from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { fieldFailure, isSessionEnd } from '../../../lib/field-errors.ts';
import { useConfirmTotp, useRemoveTotp, useStartTotp } from '../api/totp.ts';
import { PasswordPrompt } from './PasswordPrompt.tsx';
import { Section } from './Section.tsx';

const t = messages.security;

export function TotpSection({
  data,
  onCodes,
}: {
  data: SecurityOverview;
  onCodes: (codes: string[]) => void;
}) {
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
      if (!isSessionEnd(failure)) toast.error(fieldFailure(failure, 'code', messages.errors.generic));
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
      setError(fieldFailure(failure, 'code', messages.errors.generic));
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
