import { messages, WATCH_SCHEDULES, type Watch, type WatchSchedule } from '@footprint/domain';
import { useId } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { usePaidAnswer } from '../../../lib/paid-answer.ts';
import { useDeleteWatch } from '../api/deleteWatch.ts';
import { useRunWatch } from '../api/runWatch.ts';
import { useUpdateWatch } from '../api/updateWatch.ts';
import { shownQuery, statusTone } from '../format.ts';

const t = messages.watchlist;

export function WatchCard({
  watch,
  selected,
  onSelect,
}: {
  watch: Watch;
  selected: boolean;
  onSelect: () => void;
}) {
  const id = useId();
  const { refetch } = useAuth();
  const update = useUpdateWatch();
  const remove = useDeleteWatch();
  const run = useRunWatch();
  const paidAnswer = usePaidAnswer();
  const busy = update.isPending || remove.isPending || run.isPending;

  const change = async (patch: { schedule?: WatchSchedule; status?: 'active' | 'paused' }) => {
    try {
      await update.mutateAsync({ id: watch.id, ...patch });
      toast.success(t.updated);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.failed));
    }
  };

  const runNow = async () => {
    onSelect();
    try {
      const result = await run.mutateAsync(watch.id);
      void refetch();
      const message = t.outcomes[result.outcome] ?? t.outcomes.unchanged;
      if (result.outcome === 'failed' || result.outcome === 'stopped_no_credits') toast.warning(message);
      else toast.success(message);
    } catch (error) {
      // A run is a paid search: its refusal is said the paid-answer way (a 402 warned).
      paidAnswer.failed(error, { failed: t.failed, refusal: () => failureMessage(error, t.failed) });
    }
  };

  const del = async () => {
    if (!window.confirm(t.removeConfirm)) return;
    try {
      await remove.mutateAsync(watch.id);
      toast.success(t.deleted);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.failed));
    }
  };

  return (
    <li
      className={`card px-4 py-3 ${selected ? 'ring-1 ring-accent/60' : ''}`}
      aria-labelledby={`${id}-query`}
      data-testid="watch"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <button
          type="button"
          id={`${id}-query`}
          className="link-accent min-w-0 text-left text-base font-semibold break-all"
          aria-pressed={selected}
          onClick={onSelect}
        >
          <span className="source-chip chip-sky mr-2 align-middle">{t.kinds[watch.kind]}</span>
          <span className="font-mono">{shownQuery(watch)}</span>
        </button>
        <span className={`status-badge ${statusTone[watch.status] ?? 'status-off'}`}>
          {t.statuses[watch.status]}
        </span>
      </div>
      {watch.status === 'stopped_no_credits' && (
        <p role="note" className="mt-1 text-xs text-warning">
          {t.stoppedNotice}
        </p>
      )}
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-4">
        <div>
          <dt className="text-muted">{t.lastRun}</dt>
          <dd className="text-text">{watch.last_run_at ? formatDateTime(watch.last_run_at) : t.never}</dd>
        </div>
        <div>
          <dt className="text-muted">{t.nextRun}</dt>
          <dd className="text-text">{watch.status === 'active' ? formatDateTime(watch.next_run_at) : '—'}</dd>
        </div>
        <div>
          <dt className="text-muted">{t.changes}</dt>
          <dd className="text-text tabular-nums">{watch.changes_count}</dd>
        </div>
        {watch.case_reference && (
          <div>
            <dt className="text-muted">{messages.caseReference.label}</dt>
            <dd className="text-text">{watch.case_reference}</dd>
          </div>
        )}
      </dl>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-schedule`} className="sr-only">
          {t.schedule}
        </label>
        <select
          id={`${id}-schedule`}
          className="input w-auto py-1 text-sm"
          value={watch.schedule}
          disabled={busy}
          onChange={(event) => void change({ schedule: event.target.value as WatchSchedule })}
        >
          {WATCH_SCHEDULES.map((schedule) => (
            <option key={schedule} value={schedule}>
              {t.schedules[schedule]}
            </option>
          ))}
        </select>
        {watch.status === 'active' ? (
          <button
            type="button"
            className="btn-ghost px-3 py-1 text-sm"
            disabled={busy}
            onClick={() => void change({ status: 'paused' })}
          >
            {t.pause}
          </button>
        ) : (
          <button
            type="button"
            className="btn-ghost px-3 py-1 text-sm"
            disabled={busy}
            onClick={() => void change({ status: 'active' })}
          >
            {t.resume}
          </button>
        )}
        <button
          type="button"
          className="btn-ghost px-3 py-1 text-sm"
          disabled={busy}
          onClick={() => void runNow()}
        >
          {run.isPending && <Spinner size="sm" decorative className="mr-1.5" />}
          {t.runNow}
        </button>
        <button
          type="button"
          className="btn-ghost px-3 py-1 text-sm text-danger"
          disabled={busy}
          onClick={() => void del()}
        >
          {t.remove}
        </button>
      </div>
    </li>
  );
}
