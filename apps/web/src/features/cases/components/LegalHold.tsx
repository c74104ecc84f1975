import { type CaseDetail, legalHoldBody, messages } from '@footprint/domain';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { ActionDialog } from '../../../components/ActionDialog.tsx';
import { Icon } from '../../../components/Icon.tsx';
import { ReasonDialog } from '../../../components/ReasonDialog.tsx';
import { formatDate } from '../../../lib/datetime.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { usePlaceHold, useReleaseHold } from '../api/hold.ts';

const t = messages.cases;
/** A padlock: the results are locked against the purge. */
const lock = 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4';

/**
 * The case's legal hold, under its legal basis: since when, by whom and why, and that the results are
 * kept until it is released. Whoever answers for the case (`detail.shares`: the owner, a supervisor of
 * the owner, an admin) releases it after a confirmation.
 */
export function LegalHoldBanner({ detail }: { detail: CaseDetail }) {
  const id = useId();
  const [releasing, setReleasing] = useState(false);
  const hold = detail.legal_hold;
  if (!hold) return null;
  return (
    <section aria-labelledby={`${id}-title`} className="legal-hold-banner">
      <Icon d={lock} className="mt-0.5 size-5 shrink-0 text-amber-300" strokeWidth={2} />
      <div className="legal-hold-banner-text">
        <p>
          <strong id={`${id}-title`} className="font-semibold text-amber-200">
            {t.holdTitle}
          </strong>{' '}
          <span title={hold.at}>{t.holdSince(formatDate(hold.at), hold.by?.name ?? null, hold.reason)}</span>
        </p>
        <p className="mt-0.5 text-xs text-muted">{t.holdKept}</p>
      </div>
      {detail.shares && (
        <button
          type="button"
          className="unit-action unit-action-danger shrink-0"
          onClick={() => setReleasing(true)}
        >
          {t.releaseHold}
        </button>
      )}
      {releasing && <ReleaseHoldDialog caseId={detail.id} onClose={() => setReleasing(false)} />}
    </section>
  );
}

/** 'Place legal hold', beside the legal basis's link, for whoever answers for a case not held. */
export function PlaceHoldButton({ detail }: { detail: CaseDetail }) {
  const [placing, setPlacing] = useState(false);
  if (detail.legal_hold || !detail.shares) return null;
  return (
    <>
      <button type="button" className="link-accent text-sm" onClick={() => setPlacing(true)}>
        {t.placeHold}
      </button>
      {placing && <PlaceHoldDialog caseId={detail.id} onClose={() => setPlacing(false)} />}
    </>
  );
}

/** 'Place a legal hold': the reason is required, and said under its field when missing. */
function PlaceHoldDialog({ caseId, onClose }: { caseId: string; onClose: () => void }) {
  const place = usePlaceHold(caseId);
  return (
    <ReasonDialog
      title={t.placeHoldTitle}
      lead={<p className="mb-3 text-sm text-muted">{t.placeHoldLead}</p>}
      label={t.holdReason}
      hint={t.holdReasonHint}
      cancel={t.cancel}
      submitLabel={t.holdSubmit}
      busyLabel={t.holdPlacing}
      maxLength={500}
      schema={legalHoldBody}
      invalid={messages.errors.validation}
      saveFailed={t.saveFailed}
      success={t.holdPlaced}
      busy={place.isPending}
      submit={(reason) => place.mutateAsync(reason)}
      onClose={onClose}
    />
  );
}

/** 'Release the legal hold?': the results follow the retention period again. */
function ReleaseHoldDialog({ caseId, onClose }: { caseId: string; onClose: () => void }) {
  const release = useReleaseHold(caseId);
  const confirm = async () => {
    if (release.isPending) return;
    try {
      await release.mutateAsync();
      toast.success(t.holdReleased);
      onClose();
    } catch (failure) {
      if (!isSessionEnd(failure)) toast.error(failureMessage(failure, t.saveFailed));
    }
  };
  return (
    <ActionDialog
      title={t.releaseHoldTitle}
      onClose={onClose}
      cancel={t.cancel}
      label={t.releaseHoldSubmit}
      busyLabel={t.holdReleasing}
      busy={release.isPending}
      tone="danger"
      onConfirm={() => void confirm()}
    >
      <p className="text-sm text-text">{t.releaseHoldConfirm}</p>
    </ActionDialog>
  );
}
