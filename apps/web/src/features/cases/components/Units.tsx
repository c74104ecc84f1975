import { type CaseDetail, fieldMessages, messages } from '@footprint/domain';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDateTime } from '../../../lib/datetime.ts';
import { failureMessage, fieldFailure, isSessionEnd } from '../../../lib/field-errors.ts';
import { unitPath, useUnits } from '../../../lib/units.ts';
import { useShareCase, useStopSharing } from '../api/units.ts';

const t = messages.units.caseShare;

/**
 * The units the case is shared with (their members, and those of the units below, see it). Whoever may
 * share it (`detail.shares`: the owner, a supervisor of the owner, an admin) shares it with another unit
 * they can see, or stops sharing it.
 */
export function Units({ detail }: { detail: CaseDetail }) {
  const id = useId();
  const shares = detail.shares;
  const units = useUnits({ enabled: shares });
  const share = useShareCase(detail.id);
  const stop = useStopSharing(detail.id);
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string | null>(null);

  const choices = useMemo(() => {
    const all = units.data?.units ?? [];
    const byId = new Map(all.map((unit) => [unit.id, unit]));
    const taken = new Set(detail.units.map((unit) => unit.unit_id));
    // Never the default unit: it holds every account not yet placed (the server refuses it too).
    return all
      .filter((unit) => !taken.has(unit.id) && !unit.is_default)
      .map((unit) => ({ id: unit.id, label: unitPath(unit, byId), level: unit.level_name }));
  }, [units.data, detail.units]);

  const onShare = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (share.isPending) return;
    if (!chosen) {
      setError(fieldMessages.required('unit'));
      return;
    }
    try {
      const answer = await share.mutateAsync(chosen);
      toast.success(t.shared(answer.unit_name));
      setChosen('');
      setError(null);
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      setError(fieldFailure(failure, 'unit_id', messages.cases.saveFailed));
    }
  };

  const onStop = async (unitId: string, name: string) => {
    try {
      await stop.mutateAsync(unitId);
      toast.success(t.stopped(name));
    } catch (failure) {
      if (!isSessionEnd(failure)) toast.error(failureMessage(failure, messages.cases.saveFailed));
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.title}
      </h2>
      <p className="mt-1 text-sm text-muted">{t.lead}</p>
      {detail.units.length === 0 ? (
        <p className="mt-2 py-2 text-sm text-muted">{t.empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-line/70">
          {detail.units.map((unit) => (
            <li key={unit.unit_id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="min-w-0">
                <span className="block font-medium break-words text-text">{unit.unit_name}</span>
                <span className="block text-xs text-muted">
                  <time dateTime={unit.shared_at} title={unit.shared_at}>
                    {t.sharedAt(formatDateTime(unit.shared_at))}
                  </time>
                </span>
              </span>
              {shares && (
                <button
                  type="button"
                  className="unit-action unit-action-danger"
                  aria-label={t.stopLabel(unit.unit_name)}
                  aria-disabled={stop.isPending || undefined}
                  onClick={() => {
                    if (!stop.isPending) void onStop(unit.unit_id, unit.unit_name);
                  }}
                >
                  {t.stop}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {shares &&
        (units.isPending ? (
          <div className="mt-3 flex justify-center py-2">
            <Spinner size="sm" />
          </div>
        ) : units.isError ? (
          <p role="alert" className="mt-3 text-sm text-muted">
            {t.unitsFailed}{' '}
            <button type="button" className="link-accent" onClick={() => void units.refetch()}>
              {messages.admin.retry}
            </button>
          </p>
        ) : choices.length === 0 ? (
          <p className="mt-3 text-xs text-muted">{t.noMoreUnits}</p>
        ) : (
          <form noValidate onSubmit={(event) => void onShare(event)} className="mt-3 flex flex-col gap-2">
            <label htmlFor={`${id}-unit`} className="label">
              {t.unitLabel}
            </label>
            <div className="flex flex-wrap items-start gap-2">
              <select
                id={`${id}-unit`}
                className="input min-h-10 min-w-0 flex-1 basis-48 cursor-pointer"
                value={chosen}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-unit-error` : undefined}
                onChange={(event) => {
                  setChosen(event.target.value);
                  setError(null);
                }}
              >
                <option value="">{t.choose}</option>
                {choices.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {t.option(choice.label, choice.level)}
                  </option>
                ))}
              </select>
              <button
                type="submit"
                className="btn-primary min-h-10"
                aria-disabled={share.isPending || undefined}
              >
                {share.isPending && <Spinner size="sm" decorative />}
                {share.isPending ? t.sharing : t.share}
              </button>
            </div>
            {error && (
              <p id={`${id}-unit-error`} className="field-error">
                {error}
              </p>
            )}
          </form>
        ))}
    </section>
  );
}
