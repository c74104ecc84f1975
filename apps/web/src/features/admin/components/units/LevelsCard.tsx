import { messages, UNIT_LEVELS_MAX, unitLevelsBody } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../../components/Spinner.tsx';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../../lib/field-errors.ts';
import { useSaveLevels } from '../../api/units.ts';

const t = messages.units.admin;

/**
 * The names of the tree's levels, top first: rename any, add one below the last, remove the last while
 * no unit stands at it (`deepest` is the deepest level in use, 0-based). Save sends the whole list.
 */
export function LevelsCard({ levels, deepest }: { levels: readonly string[]; deepest: number }) {
  const id = useId();
  const save = useSaveLevels();
  const [draft, setDraft] = useState<string[]>([...levels]);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [listError, setListError] = useState<string | null>(null);

  const focusLevel = (index: number) =>
    requestAnimationFrame(() => document.getElementById(`${id}-level-${index}`)?.focus());

  const setLevel = (index: number, value: string) => {
    setDraft((current) => current.map((name, i) => (i === index ? value : name)));
    setErrors(({ [index]: _removed, ...rest }) => rest);
    setListError(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const checked = unitLevelsBody.safeParse({ levels: draft });
    if (!checked.success) {
      const found: Record<number, string> = {};
      let general: string | null = null;
      for (const issue of checked.error.issues) {
        const index = issue.path[1];
        if (typeof index === 'number') found[index] ??= issue.message;
        else general ??= issue.message;
      }
      setErrors(found);
      setListError(general);
      const first = Object.keys(found).map(Number)[0];
      if (first !== undefined) focusLevel(first);
      return;
    }
    try {
      const answer = await save.mutateAsync(checked.data.levels);
      setDraft([...answer.levels]);
      setErrors({});
      setListError(null);
      toast.success(t.levelsSaved);
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const fields = fieldErrorsOf(failure);
      setListError(fields.levels ?? failureMessage(failure, messages.errors.generic));
    }
  };

  const last = draft.length - 1;
  const removable = draft.length > 1 && last > deepest;

  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4 sm:px-5">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.levelsTitle}
      </h2>
      <p id={`${id}-lead`} className="mt-1 text-sm text-muted">
        {t.levelsLead}
      </p>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-3">
        <ol className="grid gap-3 sm:grid-cols-2">
          {draft.map((name, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a level is its position in the list.
            <li key={index}>
              <label htmlFor={`${id}-level-${index}`} className="label">
                {t.levelLabel(index + 1)}
              </label>
              <div className="flex items-center gap-2">
                <input
                  id={`${id}-level-${index}`}
                  className="input min-h-10"
                  autoComplete="off"
                  value={name}
                  aria-invalid={errors[index] ? true : undefined}
                  aria-describedby={errors[index] ? `${id}-level-${index}-error` : undefined}
                  onChange={(event) => setLevel(index, event.target.value)}
                />
                {index === last && removable && (
                  <button
                    type="button"
                    className="btn-ghost min-h-10 shrink-0 px-3"
                    aria-label={t.removeLevelLabel(index + 1, name.trim())}
                    onClick={() => {
                      setDraft((current) => current.slice(0, -1));
                      setErrors(({ [index]: _removed, ...rest }) => rest);
                      focusLevel(index - 1);
                    }}
                  >
                    {t.removeLevel}
                  </button>
                )}
              </div>
              {errors[index] && (
                <p id={`${id}-level-${index}-error`} className="field-error">
                  {errors[index]}
                </p>
              )}
            </li>
          ))}
        </ol>
        {listError && (
          <p role="alert" className="field-error mt-3 text-sm">
            {listError}
          </p>
        )}
        <div className="mt-4 flex flex-wrap items-center justify-end gap-2">
          {draft.length < UNIT_LEVELS_MAX && (
            <button
              type="button"
              className="btn-ghost min-h-10"
              onClick={() => {
                setDraft((current) => [...current, '']);
                focusLevel(draft.length);
              }}
            >
              {t.addLevel}
            </button>
          )}
          <button type="submit" className="btn-primary min-h-10" aria-disabled={save.isPending || undefined}>
            {save.isPending && <Spinner size="sm" decorative />}
            {save.isPending ? t.savingLevels : t.saveLevels}
          </button>
        </div>
      </form>
    </section>
  );
}
