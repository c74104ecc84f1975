import { messages, PASSKEY_NAME_MAX_LENGTH, type SecurityOverview } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { useAuth } from '../../../lib/auth-context.ts';
import { fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { useAddPasskey } from '../api/passkeys.ts';
import { PasskeyRow } from './PasskeyRow.tsx';
import { Section } from './Section.tsx';

const t = messages.security;

export function PasskeysSection({
  data,
  onCodes,
}: {
  data: SecurityOverview;
  onCodes: (codes: string[]) => void;
}) {
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
