import { BULK_RESULT_FORMATS, type BulkJob, messages } from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { saveBulkResults } from '../api/bulkResults.ts';
import { useJobAction } from '../api/jobAction.ts';
import { bulkKey, useUpdateJobInList } from '../api/listBulkJobs.ts';
import { type BulkAction, isFinal, jobActions, percentDone, statusTone } from '../list.ts';
import { watchBulkJob } from '../watch.ts';
import { RowsPanel } from './RowsPanel.tsx';

const t = messages.bulkPage;
const actionLabels: Record<BulkAction, string> = { pause: t.pause, resume: t.resume, cancel: t.cancel };

/** The header's balance is read again at most this often while a job spends credits. */
const BALANCE_REFRESH_MS = 3_000;

/**
 * While a job can still change, follows it (its event stream, else a poll every 2 s) and puts each
 * state into the list. While it spends credits the header's balance is read again now and then, and
 * once more when it ends, when the list is read again too.
 */
function useFollowJob(job: BulkJob): boolean {
  const update = useUpdateJobInList();
  const queryClient = useQueryClient();
  const { refetch } = useAuth();
  const [polling, setPolling] = useState(false);
  const final = isFinal(job.status);
  const { id } = job;
  const balance = useRef({ spent: job.credits_spent, at: 0 });

  // biome-ignore lint/correctness/useExhaustiveDependencies: one watch per job until it ends; the list's updater and the user's refetch are stable in what they do.
  useEffect(() => {
    if (final) return;
    const controller = new AbortController();
    const onJob = (next: BulkJob) => {
      update(next);
      const now = Date.now();
      if (next.credits_spent !== balance.current.spent && now - balance.current.at >= BALANCE_REFRESH_MS) {
        balance.current = { spent: next.credits_spent, at: now };
        void refetch();
      }
    };
    watchBulkJob(id, onJob, controller.signal, () => setPolling(true))
      .then((last) => {
        if (controller.signal.aborted || !last || !isFinal(last.status)) return;
        void queryClient.invalidateQueries({ queryKey: bulkKey });
        void refetch();
      })
      .catch(() => {
        // The job is gone or the session ended (handled app-wide): the list's next read says so.
      });
    return () => controller.abort();
  }, [id, final]);

  return polling && !final;
}

/** One job of the list: its progress, the changes its status allows, and, once finished, its results. */
export function JobCard({ job }: { job: BulkJob }) {
  const id = useId();
  const polling = useFollowJob(job);
  const action = useJobAction();
  const [saving, setSaving] = useState<string | null>(null);
  const [showRows, setShowRows] = useState(false);
  // Cancelling cannot be undone, so it asks first.
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const final = isFinal(job.status);
  const percent = percentDone(job.done, job.total);
  // A job held for a supervisor's approval has not started (and, not approved, never will).
  const held = job.status === 'awaiting_approval' || job.status === 'not_approved';

  const change = async (next: BulkAction) => {
    try {
      await action.mutateAsync({ id: job.id, action: next });
    } catch (error) {
      // A 409 carries the reason (the job changed meanwhile); the list is read again either way.
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.actionFailed));
    }
  };

  const save = async (format: (typeof BULK_RESULT_FORMATS)[number]) => {
    setSaving(format);
    try {
      await saveBulkResults(job, format);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.downloadFailed));
    } finally {
      setSaving(null);
    }
  };

  return (
    <li className="card px-4 py-4" aria-labelledby={`${id}-name`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h3 id={`${id}-name`} className="truncate text-base font-semibold text-text" title={job.name}>
            {job.name}
          </h3>
          <p className="mt-0.5 text-xs text-muted">
            {t.typeShort[job.type] ?? job.type}
            {' · '}
            {held ? t.requested : t.created}{' '}
            <time dateTime={job.created_at} title={job.created_at}>
              {formatDateTime(job.created_at)}
            </time>
            {job.case_reference && (
              <>
                {' · '}
                <span className="font-mono text-text">{job.case_reference}</span>
              </>
            )}
          </p>
        </div>
        {/* A change of status (done, stopped) is announced; the moving counts are not. */}
        <span aria-live="polite" className={`status-badge mt-1 shrink-0 ${statusTone(job.status)}`}>
          {t.statuses[job.status] ?? job.status}
        </span>
      </div>

      {held ? (
        // Nothing ran (yet): no progress to show, only the list's size.
        <p className="mt-3 text-xs font-semibold text-text tabular-nums">{t.rowsCount(job.total)}</p>
      ) : (
        <div className="mt-3">
          <div
            role="progressbar"
            aria-label={t.progressLabel(job.name)}
            aria-valuemin={0}
            aria-valuemax={job.total}
            aria-valuenow={job.done}
            aria-valuetext={t.progress(job.done, job.total)}
            className="relative h-2.5 w-full overflow-hidden rounded-full bg-surface-2"
          >
            <span
              className={`absolute inset-y-0 left-0 rounded-full transition-[width] duration-500 motion-reduce:transition-none ${
                job.status === 'stopped' ? 'bg-danger' : job.status === 'paused' ? 'bg-warning' : 'bg-accent'
              }`}
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className="mt-1.5 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted tabular-nums">
            <span className="font-semibold text-text">{t.progress(job.done, job.total)}</span>
            <span>{t.charged(job.charged)}</span>
            <span className={job.failed > 0 ? 'text-rose-300' : ''}>{t.failed(job.failed)}</span>
            <span>{t.spent(job.credits_spent)}</span>
            {job.finished_at && (
              <span>
                {t.finished}{' '}
                <time dateTime={job.finished_at} title={job.finished_at}>
                  {formatDateTime(job.finished_at)}
                </time>
              </span>
            )}
          </p>
          {polling && <p className="mt-1 text-xs text-muted">{t.liveLost}</p>}
        </div>
      )}

      {job.status === 'stopped' && job.stop_reason && (
        <p className="mt-2 text-sm text-rose-200">
          <span className="font-semibold">{t.stopReason}</span> {job.stop_reason}
        </p>
      )}

      {job.status === 'awaiting_approval' && (
        <p className="mt-3 rounded-lg border border-amber-400/30 bg-amber-400/10 px-3 py-2 text-sm text-amber-100">
          {t.awaitingApproval}{' '}
          <Link to={paths.approvalsMine} className="link-inline font-semibold whitespace-nowrap">
            {t.awaitingApprovalLink}
          </Link>
        </p>
      )}
      {job.status === 'not_approved' && (
        <p className="mt-3 text-sm text-muted">
          {t.notApproved}{' '}
          <Link to={paths.approvalsMine} className="link-inline font-semibold whitespace-nowrap">
            {t.notApprovedLink}
          </Link>
        </p>
      )}

      {(jobActions(job.status).length > 0 || final) && (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {jobActions(job.status).map((next) => (
            <button
              key={next}
              type="button"
              className={
                next === 'cancel'
                  ? 'btn-ghost min-h-10 hover:border-danger hover:text-danger'
                  : 'btn-ghost min-h-10'
              }
              aria-label={t.actionLabel(actionLabels[next], job.name)}
              disabled={action.isPending}
              onClick={() => (next === 'cancel' ? setConfirmingCancel(true) : void change(next))}
            >
              {action.isPending && action.variables?.action === next && <Spinner size="sm" decorative />}
              {actionLabels[next]}
            </button>
          ))}
          {final && (
            <>
              <fieldset className="flex flex-wrap items-center gap-2">
                <legend className="sr-only">{t.download}</legend>
                {BULK_RESULT_FORMATS.map((format) => (
                  <button
                    key={format}
                    type="button"
                    className="btn-ghost min-h-10 px-3"
                    aria-label={t.downloadLabel(format, job.name)}
                    disabled={saving !== null}
                    onClick={() => void save(format)}
                  >
                    {saving === format && <Spinner size="sm" decorative />}
                    {t.downloadAs(format)}
                  </button>
                ))}
              </fieldset>
              <button
                type="button"
                className="btn-ghost min-h-10 px-3"
                aria-label={showRows ? t.hideRowsLabel(job.name) : t.viewRowsLabel(job.name)}
                aria-expanded={showRows}
                aria-controls={`${id}-rows`}
                onClick={() => setShowRows((open) => !open)}
              >
                {showRows ? t.hideRows : t.viewRows}
              </button>
            </>
          )}
        </div>
      )}

      <div id={`${id}-rows`}>{final && showRows && <RowsPanel job={job} />}</div>

      {confirmingCancel && (
        <Modal
          title={t.cancelTitle(job.name)}
          onClose={() => setConfirmingCancel(false)}
          actions={
            <button
              type="button"
              className="btn bg-danger text-white hover:bg-danger/85"
              disabled={action.isPending}
              onClick={() => {
                setConfirmingCancel(false);
                void change('cancel');
              }}
            >
              {t.cancelConfirm}
            </button>
          }
        >
          <p className="text-sm text-text">{t.cancelBody}</p>
        </Modal>
      )}
    </li>
  );
}
