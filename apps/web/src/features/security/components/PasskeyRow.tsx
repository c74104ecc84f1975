import { messages, PASSKEY_NAME_MAX_LENGTH, type PasskeySummary } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { fieldFailure, isSessionEnd } from '../../../lib/field-errors.ts';
import { useRemovePasskey, useRenamePasskey } from '../api/passkeys.ts';
import { PasswordPrompt } from './PasswordPrompt.tsx';

const t = messages.security;

export function PasskeyRow({ passkey }: { passkey: PasskeySummary }) {
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
      if (!isSessionEnd(failure)) setError(fieldFailure(failure, 'name', messages.errors.generic));
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
