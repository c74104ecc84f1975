import { APPROVAL_NOTE_MAX_LENGTH, approvalsMessages, type SearchApproval } from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { approvalTexts as t } from '../../../lib/approval-texts.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { useDecideApproval } from '../api/approvals.ts';
import type { RequestTexts } from '../request.ts';

export type Decision = 'approve' | 'reject';

/**
 * Approve (with an optional note) or reject (with a required reason) one request. The server's
 * refusals are said where they belong: a note refused under the field, anything else (403 one's own
 * request, 409 already decided or expired) in the dialog with the server's words.
 */
export function DecideDialog({
  item,
  texts,
  query,
  decision,
  onClose,
  onDecided,
}: {
  item: SearchApproval;
  /** Its words: a search's, or a bulk job's (request.ts). */
  texts: RequestTexts;
  query: string;
  decision: Decision;
  onClose: () => void;
  onDecided: (answer: SearchApproval) => void;
}) {
  const id = useId();
  const decide = useDecideApproval();
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const noteField = useRef<HTMLTextAreaElement>(null);
  const rejecting = decision === 'reject';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (decide.isPending) return;
    const trimmed = note.trim();
    if (rejecting && trimmed === '') {
      setNoteError(approvalsMessages.reasonRequired);
      noteField.current?.focus();
      return;
    }
    setRefusal(null);
    try {
      const answer = await decide.mutateAsync({
        id: item.id,
        decision,
        ...(trimmed ? { note: trimmed } : {}),
      });
      toast.success(rejecting ? t.rejected : answer.status === 'failed' ? t.approvedFailed : texts.approved);
      onDecided(answer);
    } catch (error) {
      if (isSessionEnd(error)) return;
      const fields = fieldErrorsOf(error);
      if (fields.note) {
        setNoteError(fields.note);
        noteField.current?.focus();
      } else setRefusal(failureMessage(error, t.saveFailed));
    }
  };

  const formId = `${id}-form`;
  const hintId = `${id}-hint`;
  return (
    <Modal
      title={rejecting ? texts.rejectTitle(query) : texts.approveTitle(query)}
      description={rejecting ? texts.rejectLead(query) : texts.approveLead(query, t.credits(item.cost))}
      onClose={onClose}
      initialFocus={noteField}
      actions={
        <button type="submit" form={formId} className="btn-primary" disabled={decide.isPending}>
          {decide.isPending && <Spinner size="sm" decorative />}
          {decide.isPending ? t.saving : rejecting ? t.rejectSend : t.approveSend}
        </button>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)}>
        {!rejecting && texts.approveBody && <p className="mb-3 text-sm text-text">{texts.approveBody}</p>}
        <label htmlFor={`${id}-note`} className="label">
          {rejecting ? t.reasonLabel : t.approveNoteLabel}
        </label>
        {rejecting && (
          <p id={hintId} className="mb-2 text-xs text-muted">
            {t.reasonHint}
          </p>
        )}
        <textarea
          id={`${id}-note`}
          ref={noteField}
          rows={3}
          maxLength={APPROVAL_NOTE_MAX_LENGTH}
          className="input"
          value={note}
          aria-invalid={noteError ? true : undefined}
          aria-describedby={
            [noteError ? `${id}-error` : '', rejecting ? hintId : ''].filter(Boolean).join(' ') || undefined
          }
          onChange={(event) => {
            setNote(event.target.value);
            setNoteError(null);
          }}
        />
        {noteError && (
          <p id={`${id}-error`} className="field-error">
            {noteError}
          </p>
        )}
        {refusal && (
          <p role="alert" className="field-error mt-3">
            {refusal}
          </p>
        )}
      </form>
    </Modal>
  );
}
