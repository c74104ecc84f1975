import { type CaseDetail, messages } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { failureMessage, fieldFailure, isSessionEnd } from '../../../lib/field-errors.ts';
import { useAddMember, useRemoveMember } from '../api/members.ts';

const t = messages.cases;

export function Members({ detail, manage }: { detail: CaseDetail; manage: boolean }) {
  const id = useId();
  const { user } = useAuth();
  const navigate = useNavigate();
  const add = useAddMember(detail.id);
  const remove = useRemoveMember(detail.id);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    try {
      await add.mutateAsync(email);
      setEmail('');
      setError(null);
      toast.success(t.memberAdded);
    } catch (err) {
      if (isSessionEnd(err)) return;
      setError(fieldFailure(err, 'email', t.saveFailed));
    }
  };
  const onRemove = async (memberId: string) => {
    try {
      await remove.mutateAsync(memberId);
      if (memberId === user?.id && !manage) await navigate(paths.cases);
      else toast.success(t.memberRemoved);
    } catch (err) {
      if (!isSessionEnd(err)) toast.error(failureMessage(err, t.saveFailed));
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.membersTitle}
      </h2>
      <p className="mt-1 text-sm text-muted">{t.membersLead}</p>
      <ul className="mt-2 divide-y divide-line/70">
        <li className="flex items-center justify-between gap-2 py-2 text-sm">
          <span className="min-w-0 break-words text-text">
            {detail.owner.name} <span className="text-muted">({detail.owner.email})</span>
          </span>
          <span className="status-badge chip-indigo">{t.ownerBadge}</span>
        </li>
        {detail.members.map((member) => (
          <li key={member.id} className="flex items-center justify-between gap-2 py-2 text-sm">
            <span className="min-w-0 break-words text-text">
              {member.name} <span className="text-muted">({member.email})</span>
            </span>
            {(manage || member.id === user?.id) && (
              <button
                type="button"
                className="btn-chip"
                aria-label={member.id === user?.id ? t.leave : t.removeLabel(member.name)}
                disabled={remove.isPending}
                onClick={() => void onRemove(member.id)}
              >
                {member.id === user?.id ? t.leave : t.remove}
              </button>
            )}
          </li>
        ))}
      </ul>
      {manage && (
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-3 flex flex-col gap-2">
          <label htmlFor={`${id}-email`} className="label">
            {t.memberEmail}
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            className="input"
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-email-error` : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
          {error && (
            <p id={`${id}-email-error`} className="field-error">
              {error}
            </p>
          )}
          <button type="submit" className="btn-primary self-start" disabled={add.isPending}>
            {t.addMember}
          </button>
        </form>
      )}
    </section>
  );
}
