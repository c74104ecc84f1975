import { type HistoryDetail, messages, type WatchEvent } from '@footprint/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { isSessionEnd, serverMessage } from '../../../lib/field-errors.ts';
import {
  isStoredLeakResult,
  resultsStateOf,
  StoredLeakPage,
  useOpenHistoryEntry,
} from '../../history/index.ts';

const t = messages.watchlist;

export function EventItem({ event }: { event: WatchEvent }) {
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
