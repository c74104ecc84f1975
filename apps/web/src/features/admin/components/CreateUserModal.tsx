import { type AdminCreateUserResponse, adminCreateUserRequest, messages } from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { useCreateUser } from '../api/createUser.ts';

const t = messages.admin;

interface Draft {
  name: string;
  email: string;
  password: string;
  role: 'user' | 'admin';
  app_mode: 'live' | 'trial';
  credits: string;
}

const blank: Draft = { name: '', email: '', password: '', role: 'user', app_mode: 'trial', credits: '' };

/** The request as the server reads it; empty optional fields are left out. */
function requestOf(draft: Draft) {
  const credits = draft.credits.trim();
  return {
    name: draft.name,
    email: draft.email.trim(),
    ...(draft.password ? { password: draft.password } : {}),
    role: draft.role,
    app_mode: draft.app_mode,
    ...(credits ? { credits: Number(credits) } : {}),
  };
}

/**
 * 'New user': name, e-mail, role, mode, starting credits and an optional password, checked with the
 * domain's schema before sending (the server checks again). Without a password the server makes a
 * temporary one, shown here once with a copy button.
 */
export function CreateUserModal({ onClose }: { onClose: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const create = useCreateUser();
  const [draft, setDraft] = useState<Draft>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<AdminCreateUserResponse | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors((current) => {
      const { [key]: _removed, ...rest } = current;
      return rest;
    });
  };

  const focusField = (field: string | undefined) => {
    if (!field) return;
    document.getElementById(`${id}-${field}`)?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const body = requestOf(draft);
    const checked = adminCreateUserRequest.safeParse(body);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? 'name');
        found[field] ??= issue.message;
      }
      setErrors(found);
      focusField(Object.keys(found)[0]);
      return;
    }
    try {
      const answer = await create.mutateAsync(body);
      toast.success(t.users.createdToast(answer.user.email));
      if (answer.temporary_password) setCreated(answer);
      else {
        onClose();
        await navigate(paths.adminUser(answer.user.id));
      }
    } catch (error) {
      if (isSessionEnd(error)) return;
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      if (Object.keys(fields).length > 0) focusField(Object.keys(fields)[0]);
      else toast.error(failureMessage(error, messages.errors.generic));
    }
  };

  if (created) {
    return (
      <Modal
        title={t.users.temporaryPasswordTitle}
        description={created.user.email}
        onClose={onClose}
        actions={
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              onClose();
              void navigate(paths.adminUser(created.user.id));
            }}
          >
            {t.users.manage(created.user.name)}
          </button>
        }
      >
        <p className="text-sm text-muted">{t.users.temporaryPasswordLead(created.user.email)}</p>
        <div className="mt-4 flex items-center gap-3 rounded-lg border border-line bg-night px-4 py-3">
          <code className="flex-1 font-mono text-base break-all text-text">{created.temporary_password}</code>
          <CopyButton text={created.temporary_password ?? ''} label={t.users.copyPassword} />
        </div>
      </Modal>
    );
  }

  const field = (name: keyof Draft) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  const fieldError = (name: keyof Draft) =>
    errors[name] ? (
      <p id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;

  return (
    <Modal
      title={t.users.createTitle}
      onClose={onClose}
      initialFocus={nameInput}
      size="lg"
      actions={
        <button type="submit" form={`${id}-form`} className="btn-primary" disabled={create.isPending}>
          {create.isPending && <Spinner size="sm" decorative />}
          {create.isPending ? t.users.creating : t.users.create}
        </button>
      }
    >
      <form
        id={`${id}-form`}
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="grid gap-4 sm:grid-cols-2"
      >
        <div>
          <label htmlFor={`${id}-name`} className="label">
            {t.users.name}
          </label>
          <input
            ref={nameInput}
            {...field('name')}
            className="input min-h-10"
            autoComplete="off"
            value={draft.name}
            onChange={(event) => set('name', event.target.value)}
          />
          {fieldError('name')}
        </div>
        <div>
          <label htmlFor={`${id}-email`} className="label">
            {t.users.email}
          </label>
          <input
            {...field('email')}
            type="email"
            className="input min-h-10"
            autoComplete="off"
            spellCheck={false}
            value={draft.email}
            onChange={(event) => set('email', event.target.value)}
          />
          {fieldError('email')}
        </div>
        <div>
          <label htmlFor={`${id}-role`} className="label">
            {t.users.role}
          </label>
          <select
            {...field('role')}
            className="input min-h-10 cursor-pointer"
            value={draft.role}
            onChange={(event) => set('role', event.target.value as Draft['role'])}
          >
            <option value="user">{t.roles.user}</option>
            <option value="admin">{t.roles.admin}</option>
          </select>
          {fieldError('role')}
        </div>
        <fieldset>
          <legend className="label">{t.users.mode}</legend>
          <div className="flex gap-2">
            {(['trial', 'live'] as const).map((mode) => (
              <label key={mode} className="radio-pill flex-1 justify-center">
                <input
                  type="radio"
                  name={`${id}-mode`}
                  value={mode}
                  checked={draft.app_mode === mode}
                  onChange={() => set('app_mode', mode)}
                  className="accent-accent"
                />
                {t.modes[mode]}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor={`${id}-credits`} className="label">
            {t.users.initialCredits}
          </label>
          <input
            {...field('credits')}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            className="input min-h-10 tabular-nums"
            placeholder="0"
            value={draft.credits}
            onChange={(event) => set('credits', event.target.value)}
          />
          {fieldError('credits')}
        </div>
        <div>
          <label htmlFor={`${id}-password`} className="label">
            {t.users.password}
          </label>
          <input
            {...field('password')}
            type="password"
            className="input min-h-10"
            autoComplete="new-password"
            aria-describedby={
              errors.password ? `${id}-password-error ${id}-password-hint` : `${id}-password-hint`
            }
            value={draft.password}
            onChange={(event) => set('password', event.target.value)}
          />
          {fieldError('password')}
          <p id={`${id}-password-hint`} className="mt-1 text-xs text-muted">
            {t.users.passwordHint}
          </p>
        </div>
      </form>
    </Modal>
  );
}
