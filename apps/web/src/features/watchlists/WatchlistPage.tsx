import {
  type HistoryDetail,
  messages,
  WATCH_SCHEDULES,
  type Watch,
  type WatchEvent,
  type WatchSchedule,
} from '@footprint/domain';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { QueryView } from '../../components/LoadError.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { failureMessage, isSessionEnd, serverMessage } from '../../lib/field-errors.ts';
import { usePaidAnswer } from '../../lib/paid-answer.ts';
import { isStoredLeakResult, resultsStateOf, StoredLeakPage, useOpenHistoryEntry } from '../history/index.ts';
import { useDeleteWatch } from './api/deleteWatch.ts';
import { useWatches } from './api/listWatches.ts';
import { useRunWatch } from './api/runWatch.ts';
import { useUpdateWatch } from './api/updateWatch.ts';
import { useWatchEvents } from './api/watchEvents.ts';

/**
 * /watchlist (beyond the spec): the live user's watched searches. Each runs again on its schedule,
 * charged like a lookup; a run that finds a change is listed under its watch and e-mailed. A watch
 * stopped because credits ran out says so and resumes after a top-up.
 */

const t = messages.watchlist;

/** A watched phone number is kept as dial code and digits: shown as it is dialled. */
const shownQuery = (watch: Watch) => (watch.kind === 'tel' ? `+${watch.query_typed}` : watch.query_typed);

const statusTone: Record<string, string> = {
  active: 'status-on',
  paused: 'status-off',
  stopped_no_credits: 'status-conflict',
};

export default function WatchlistPage() {
  const watches = useWatches();
  const [selected, setSelected] = useState<string | null>(null);
  const list = watches.data ?? [];
  const shown = list.find((watch) => watch.id === selected) ?? list[0] ?? null;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <p className="eyebrow">{t.eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <section aria-label={t.title} className="min-w-0">
          <QueryView
            query={watches}
            failed={messages.history.loadFailed}
            retryLabel={messages.history.retry}
            empty={t.empty}
            isEmpty={(data) => data.length === 0}
          >
            {(data) => (
              <ul className="flex flex-col gap-3">
                {data.map((watch) => (
                  <WatchCard
                    key={watch.id}
                    watch={watch}
                    selected={shown?.id === watch.id}
                    onSelect={() => setSelected(watch.id)}
                  />
                ))}
              </ul>
            )}
          </QueryView>
        </section>
        {shown && <EventsPanel watch={shown} />}
      </div>
    </div>
  );
}

function WatchCard({ watch, selected, onSelect }: { watch: Watch; selected: boolean; onSelect: () => void }) {
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

function EventsPanel({ watch }: { watch: Watch }) {
  const id = useId();
  const events = useWatchEvents(watch.id);
  return (
    <section aria-labelledby={`${id}-title`} className="card h-fit px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.events}
      </h2>
      <p className="mt-1 text-xs break-all text-muted">
        {t.kinds[watch.kind]} · <span className="font-mono">{shownQuery(watch)}</span>
      </p>
      <div className="mt-3">
        <QueryView
          query={events}
          failed={messages.history.loadFailed}
          retryLabel={messages.history.retry}
          empty={t.noEvents}
          isEmpty={(data) => data.length === 0}
        >
          {(data) => (
            <ol className="flex flex-col divide-y divide-line/70">
              {data.map((event) => (
                <EventItem key={event.id} event={event} />
              ))}
            </ol>
          )}
        </QueryView>
      </div>
    </section>
  );
}

function EventItem({ event }: { event: WatchEvent }) {
  const navigate = useNavigate();
  const open = useOpenHistoryEntry();
  const [stored, setStored] = useState<HistoryDetail | null>(null);

  // As the history page reopens a lookup: phone and e-mail go back to /results, a leak page shows here.
  const reopen = async () => {
    if (!event.lookup_id || open.isPending) return;
    try {
      const detail = await open.mutateAsync(event.lookup_id);
      const state = resultsStateOf(detail);
      if (state) await navigate(paths.results, { state });
      else setStored(detail);
    } catch (error) {
      if (isSessionEnd(error)) return;
      toast.error(serverMessage(error, messages.history.openFailed));
    }
  };

  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <time dateTime={event.run_at} className="text-sm font-medium text-text">
          {formatDateTime(event.run_at)}
        </time>
        {event.lookup_id && (
          <button type="button" className="btn-chip" disabled={open.isPending} onClick={() => void reopen()}>
            {open.isPending && <Spinner size="sm" decorative className="mr-1" />}
            {t.openResult}
          </button>
        )}
      </div>
      <ul className="mt-2 flex flex-col gap-1 text-sm">
        {event.changes.items.map((item) => (
          <li
            key={`${item.change}-${item.type}-${item.value}`}
            className="flex flex-wrap items-baseline gap-2"
          >
            <span className={`source-chip ${item.change === 'added' ? 'chip-emerald' : 'chip-rose'}`}>
              {item.change === 'added' ? t.added : t.removed}
            </span>
            <span className="text-muted">{t.factTypes[item.type] ?? item.type}</span>
            <span className="break-all text-text">{item.label ?? item.value}</span>
          </li>
        ))}
        {event.changes.total && (
          <li className="text-muted">
            {t.totalMoved(event.changes.total.before, event.changes.total.after)}
          </li>
        )}
      </ul>
      {stored && (
        <Modal
          title={t.openResult}
          description={formatDateTime(stored.created_at)}
          onClose={() => setStored(null)}
          size="xl"
        >
          {isStoredLeakResult(stored.result) ? (
            <StoredLeakPage query={stored.query} result={stored.result} />
          ) : (
            <p className="text-sm text-muted">{messages.history.nothingStored}</p>
          )}
        </Modal>
      )}
    </li>
  );
}
