import {
  type AdminUpdateUserRequest,
  type AdminUser,
  fieldMessages,
  messages,
  SIGNUP_FIELDS,
} from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { failureMessage, hasStatus, isSessionEnd } from '../../../lib/field-errors.ts';
import { useUpdateUser } from '../api/updateUser.ts';
import { BackLink } from './BackLink.tsx';
import { ModeBadge, RoleBadge, StatusBadge } from './Badges.tsx';
import { CreditsForm } from './CreditsForm.tsx';
import { DecisionDialog } from './DecisionDialog.tsx';
import { Segmented } from './Segmented.tsx';
import { SignupProfile } from './SignupProfile.tsx';

const t = messages.admin;

type Pending = 'disable' | 'revoke' | null;

export function UserDetails({ user }: { user: AdminUser }) {
  const id = useId();
  const { user: me } = useAuth();
  const update = useUpdateUser(user.id);
  const [name, setName] = useState(user.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Pending>(null);
  const [deciding, setDeciding] = useState<'approve' | 'reject' | null>(null);
  const isMe = me?.id === user.id;
  const awaitsDecision = user.status === 'pending' || user.status === 'rejected';

  const apply = async (patch: AdminUpdateUserRequest, done: string) => {
    try {
      await update.mutateAsync(patch);
      toast.success(done);
      return true;
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, messages.errors.generic));
      return false;
    }
  };

  const saveName = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(fieldMessages.required('name'));
      return;
    }
    setNameError(null);
    try {
      await update.mutateAsync({ name: trimmed });
      toast.success(t.user.nameSaved);
    } catch (error) {
      if (isSessionEnd(error)) return;
      if (hasStatus(error, 422)) setNameError(failureMessage(error, messages.errors.generic));
      else toast.error(failureMessage(error, messages.errors.generic));
    }
  };

  const confirm = async () => {
    if (confirming === 'disable') {
      if (await apply({ status: 'disabled' }, t.user.disabled)) setConfirming(null);
    } else if (confirming === 'revoke') {
      if (await apply({ revoke_sessions: true }, t.user.revoked)) setConfirming(null);
    }
  };

  const busy = update.isPending;
  // A choice shows at once (set in the same event as the click) while it is saved, and falls back to
  // the stored value once the server has answered, whether it took the change or refused it.
  const [choice, setChoice] = useState<{ role?: AdminUser['role']; app_mode?: AdminUser['app_mode'] }>({});
  const role = choice.role ?? user.role;
  const mode = choice.app_mode ?? user.app_mode;
  const choose = (
    patch: { role?: AdminUser['role'] } | { app_mode?: AdminUser['app_mode'] },
    done: string,
  ) => {
    setChoice((current) => ({ ...current, ...patch }));
    void apply(patch, done).finally(() =>
      setChoice((current) => {
        const next = { ...current };
        for (const key of Object.keys(patch)) delete next[key as keyof typeof next];
        return next;
      }),
    );
  };

  return (
    <div className="space-y-6">
      <BackLink />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h1 className="min-w-0 text-2xl font-bold tracking-tight break-words text-text sm:text-3xl">
          {user.name} {isMe && <span className="text-base font-medium text-muted">{t.user.you}</span>}
        </h1>
        <div className="flex flex-wrap gap-1.5">
          <RoleBadge role={user.role} />
          <ModeBadge mode={user.app_mode} />
          <StatusBadge status={user.status} />
        </div>
      </div>
      <p className="-mt-4 text-sm break-all text-muted">{user.email}</p>

      {awaitsDecision && (
        <section
          aria-label={t.user.approveTitle}
          className="flex flex-col gap-3 rounded-xl border border-warning/40 bg-warning/10 p-4 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="min-w-0 space-y-3">
            <p className="text-sm text-text">
              {user.status === 'pending' ? t.user.pendingLead : t.user.rejectedLead}
            </p>
            <div>
              <h2 className="mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase">
                {t.user.profileTitle}
              </h2>
              <SignupProfile user={user} />
            </div>
          </div>
          <div className="flex shrink-0 gap-2">
            <button type="button" className="btn-primary" onClick={() => setDeciding('approve')}>
              {t.user.approve}
            </button>
            {user.status === 'pending' && (
              <button
                type="button"
                className="btn-ghost hover:border-danger hover:text-danger"
                onClick={() => setDeciding('reject')}
              >
                {t.user.reject}
              </button>
            )}
          </div>
        </section>
      )}

      <div className="grid items-start gap-5 lg:grid-cols-2">
        <section aria-labelledby={`${id}-account`} className="card space-y-5 p-5">
          <h2 id={`${id}-account`} className="section-title">
            {t.user.details}
          </h2>
          <form noValidate onSubmit={(event) => void saveName(event)}>
            <label htmlFor={`${id}-name`} className="label">
              {t.users.name}
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id={`${id}-name`}
                className="input min-h-10 flex-1"
                autoComplete="off"
                value={name}
                maxLength={255}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? `${id}-name-error` : undefined}
                onChange={(event) => {
                  setName(event.target.value);
                  setNameError(null);
                }}
              />
              <button type="submit" className="btn-ghost" disabled={busy || name.trim() === user.name}>
                {t.user.saveName}
              </button>
            </div>
            {nameError && (
              <p id={`${id}-name-error`} className="field-error">
                {nameError}
              </p>
            )}
          </form>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">{t.users.email}</dt>
            <dd className="break-all text-text">{user.email}</dd>
            {!awaitsDecision &&
              SIGNUP_FIELDS.map((field) => (
                <div key={field} className="contents">
                  <dt className="text-muted">{messages.signupFields.labels[field]}</dt>
                  <dd className="break-words text-text">{user[field] ?? t.none}</dd>
                </div>
              ))}
            <dt className="text-muted">{t.user.userId}</dt>
            <dd className="font-mono text-xs break-all text-text">{user.id}</dd>
            <dt className="text-muted">{t.users.created}</dt>
            <dd className="text-text">{formatDateTime(user.created_at)}</dd>
            <dt className="text-muted">{t.users.lastLogin}</dt>
            <dd className="text-text">{user.last_login_at ? formatDateTime(user.last_login_at) : t.never}</dd>
            <dt className="text-muted">{t.user.emailVerified}</dt>
            <dd className="text-text">
              {user.email_verified_at ? formatDateTime(user.email_verified_at) : t.none}
            </dd>
          </dl>
          <Link
            to={`${paths.adminAudit}?user=${encodeURIComponent(user.email)}`}
            className="link-accent inline-block text-sm"
          >
            {t.user.viewAudit}
          </Link>
        </section>

        <div className="space-y-5">
          <section aria-labelledby={`${id}-access`} className="card space-y-5 p-5">
            <h2 id={`${id}-access`} className="section-title">
              {t.user.access}
            </h2>
            <div className="grid gap-4 sm:grid-cols-2">
              <Segmented
                legend={t.users.role}
                name={`${id}-role`}
                value={role}
                options={[
                  { value: 'user', label: t.roles.user! },
                  { value: 'admin', label: t.roles.admin! },
                ]}
                onChange={(next) => choose({ role: next }, t.user.roleSaved)}
              />
              <Segmented
                legend={t.users.mode}
                name={`${id}-mode`}
                value={mode}
                options={[
                  { value: 'trial', label: t.modes.trial! },
                  { value: 'live', label: t.modes.live! },
                ]}
                onChange={(next) => choose({ app_mode: next }, t.user.modeSaved)}
              />
            </div>
            <div className="flex flex-wrap gap-2 border-t border-line pt-4">
              {awaitsDecision ? null : user.status === 'active' ? (
                <button
                  type="button"
                  className="btn-ghost hover:border-danger hover:text-danger"
                  disabled={busy}
                  onClick={() => setConfirming('disable')}
                >
                  {t.user.disable}
                </button>
              ) : (
                <button
                  type="button"
                  className="btn-ghost"
                  disabled={busy}
                  onClick={() => void apply({ status: 'active' }, t.user.enabled)}
                >
                  {t.user.enable}
                </button>
              )}
              <button
                type="button"
                className="btn-ghost"
                disabled={busy}
                onClick={() => setConfirming('revoke')}
              >
                {t.user.revoke}
              </button>
            </div>
          </section>

          <CreditsForm user={user} />
        </div>
      </div>

      {deciding && <DecisionDialog user={user} kind={deciding} onClose={() => setDeciding(null)} />}
      {confirming && (
        <Modal
          title={confirming === 'disable' ? t.user.disable : t.user.revoke}
          onClose={() => setConfirming(null)}
          hideFooterClose
          actions={
            <>
              <button type="button" className="btn-ghost" onClick={() => setConfirming(null)}>
                {t.user.cancel}
              </button>
              <button
                type="button"
                className={
                  confirming === 'disable' ? 'btn bg-danger text-white hover:bg-danger/85' : 'btn-primary'
                }
                disabled={busy}
                onClick={() => void confirm()}
              >
                {busy && <Spinner size="sm" decorative />}
                {confirming === 'disable' ? t.user.disable : t.user.revoke}
              </button>
            </>
          }
        >
          <p className="text-sm text-text">
            {confirming === 'disable' ? t.user.disableConfirm(user.email) : t.user.revokeConfirm(user.email)}
          </p>
        </Modal>
      )}
    </div>
  );
}
