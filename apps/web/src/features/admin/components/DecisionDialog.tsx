import { type AdminUser, messages, REJECT_REASON_MAX_LENGTH } from '@footprint/domain';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { ActionDialog } from '../../../components/ActionDialog.tsx';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { useDecideUser } from '../api/decideUser.ts';
import { SignupProfile } from './SignupProfile.tsx';

const t = messages.admin.user;

/**
 * The confirmation of an admin's decision on a self-registered account: approve, or reject with an
 * optional reason that goes into the user's e-mail. Closes itself once the server has answered 200.
 */
export function DecisionDialog({
  user,
  kind,
  onClose,
}: {
  user: Pick<AdminUser, 'id' | 'email' | 'organisation' | 'designation' | 'identity_reference'>;
  kind: 'approve' | 'reject';
  onClose: () => void;
}) {
  const id = useId();
  const decide = useDecideUser();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const approve = kind === 'approve';

  const confirm = async () => {
    if (decide.isPending) return;
    try {
      const trimmed = reason.trim();
      const answer = await decide.mutateAsync({
        id: user.id,
        decision: approve ? { kind: 'approve' } : { kind: 'reject', ...(trimmed ? { reason: trimmed } : {}) },
      });
      if (answer.notified) toast.success(approve ? t.approved(user.email) : t.rejected(user.email));
      else toast.warning(t.notNotified(user.email));
      onClose();
    } catch (error) {
      if (isSessionEnd(error)) return;
      const fields = fieldErrorsOf(error);
      if (fields.reason) setReasonError(fields.reason);
      else toast.error(failureMessage(error, messages.errors.generic));
    }
  };

  const busy = decide.isPending;
  return (
    <ActionDialog
      title={approve ? t.approveTitle : t.rejectTitle}
      onClose={onClose}
      cancel={t.cancel}
      label={approve ? t.approve : t.reject}
      busy={busy}
      tone={approve ? 'primary' : 'danger'}
      onConfirm={() => void confirm()}
    >
      <p className="text-sm break-words text-text">
        {approve ? t.approveConfirm(user.email) : t.rejectConfirm(user.email)}
      </p>
      <div className="mt-4 rounded-lg border border-line bg-surface-2/60 p-3">
        <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase">{t.profileTitle}</h3>
        <SignupProfile user={user} />
      </div>
      {!approve && (
        <div className="mt-4">
          <label htmlFor={`${id}-reason`} className="label">
            {t.rejectReason}
          </label>
          <textarea
            id={`${id}-reason`}
            className="input min-h-20"
            rows={3}
            maxLength={REJECT_REASON_MAX_LENGTH}
            placeholder={t.rejectReasonPlaceholder}
            value={reason}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${id}-reason-error` : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              setReasonError(null);
            }}
          />
          {reasonError && (
            <p id={`${id}-reason-error`} className="field-error">
              {reasonError}
            </p>
          )}
        </div>
      )}
    </ActionDialog>
  );
}
