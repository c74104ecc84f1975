import {
  isLive,
  type LeakFieldType,
  messages,
  WATCH_SCHEDULES,
  type Watch,
  type WatchSchedule,
} from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../config/paths.ts';
import { request } from '../lib/api.ts';
import { useAuth } from '../lib/auth-context.ts';
import { failureMessage, isSessionEnd } from '../lib/field-errors.ts';
import { Modal } from './Modal.tsx';
import { Spinner } from './Spinner.tsx';

const t = messages.watchlist;

/** The search a results page shows, as a watch repeats it. */
export type WatchTarget =
  | { kind: 'tel' | 'email' | 'username'; query: string; caseReference?: string | null }
  | {
      kind: 'leak';
      query: ReadonlyArray<{ type: LeakFieldType; value: string }>;
      caseReference?: string | null;
    };

/**
 * 'Watch' on a results page (live accounts): a small dialog picks daily or weekly and creates the watch
 * (POST /api/watches). Nothing is charged now; each run later is charged like a lookup.
 */
export function WatchButton({
  target,
  className = '',
}: {
  target: WatchTarget | undefined;
  className?: string;
}) {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  if (!target || !isLive(user)) return null;
  return (
    <>
      <button
        type="button"
        className={`btn-ghost px-3 whitespace-nowrap sm:px-4 ${className}`}
        onClick={() => setOpen(true)}
      >
        {t.watch}
      </button>
      {open && <WatchDialog target={target} onClose={() => setOpen(false)} />}
    </>
  );
}

function WatchDialog({ target, onClose }: { target: WatchTarget; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [schedule, setSchedule] = useState<WatchSchedule>('daily');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await request<Watch>('/api/watches', {
        method: 'POST',
        body: {
          kind: target.kind,
          query:
            target.kind === 'leak'
              ? target.query.map((row) => ({ type: row.type, value: row.value }))
              : target.query,
          schedule,
          ...(target.caseReference ? { case_reference: target.caseReference } : {}),
        },
      });
      void queryClient.invalidateQueries({ queryKey: ['watches'] });
      toast.success(
        <span>
          {t.watching}{' '}
          <Link to={paths.watchlist} className="link-inline">
            {t.openWatchlist}
          </Link>
        </span>,
      );
      onClose();
    } catch (err) {
      if (isSessionEnd(err)) return;
      setError(failureMessage(err, t.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={t.watchTitle}
      onClose={onClose}
      actions={
        <button type="button" className="btn-primary" disabled={busy} onClick={() => void create()}>
          {busy && <Spinner size="sm" decorative className="mr-1.5" />}
          {t.watchRun}
        </button>
      }
    >
      <p className="mb-4 text-sm text-muted">{t.watchLead}</p>
      <fieldset aria-describedby={error ? `${id}-error` : undefined}>
        <legend className="label">{t.pickSchedule}</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {WATCH_SCHEDULES.map((value) => (
            <label key={value} className="inline-flex items-center gap-2 text-sm text-text">
              <input
                type="radio"
                name={`${id}-schedule`}
                value={value}
                checked={schedule === value}
                onChange={() => setSchedule(value)}
              />
              {t.schedules[value]}
            </label>
          ))}
        </div>
      </fieldset>
      {error && (
        <p id={`${id}-error`} role="alert" className="field-error">
          {error}
        </p>
      )}
    </Modal>
  );
}
