import { memberAllowanceBody, messages, type UnitMember } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../../components/Spinner.tsx';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../../lib/field-errors.ts';
import { useSetAllowance } from '../../api/pool.ts';
import { typedWhole } from '../../format.ts';

const t = messages.pools;

/**
 * A member's monthly allowance from the unit's pool, for whoever sets allowances (`sets_allowances`,
 * never on their own row unless an admin: the server refuses it): a number field and Set; a refusal is
 * said under the field.
 */
export function AllowanceCell({ unitId, member }: { unitId: string; member: UnitMember }) {
  const id = useId();
  const save = useSetAllowance(unitId);
  const [value, setValue] = useState(String(member.monthly_allowance));
  const [error, setError] = useState<string | null>(null);

  const refuse = (message: string) => {
    setError(message);
    document.getElementById(`${id}-allowance`)?.focus();
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const typed = typedWhole(value);
    if (Number.isNaN(typed)) return refuse(t.allowanceNotNumber);
    const checked = memberAllowanceBody.safeParse({ monthly_allowance: typed });
    if (!checked.success) return refuse(checked.error.issues[0]?.message ?? messages.errors.validation);
    try {
      const saved = await save.mutateAsync({ userId: member.user_id, ...checked.data });
      setValue(String(saved.monthly_allowance));
      setError(null);
      toast.success(t.allowanceSaved(member.name, saved.monthly_allowance));
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      refuse(fieldErrorsOf(failure).monthly_allowance ?? failureMessage(failure, messages.errors.generic));
    }
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="min-w-36">
      <div className="flex items-center gap-1.5">
        <input
          id={`${id}-allowance`}
          className="input min-h-9 w-20 py-1.5 tabular-nums"
          inputMode="numeric"
          autoComplete="off"
          aria-label={t.allowanceOf(member.name)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-allowance-error` : undefined}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
        />
        <button
          type="submit"
          className="unit-action"
          aria-label={t.saveAllowanceOf(member.name)}
          aria-disabled={save.isPending || undefined}
        >
          {save.isPending && <Spinner size="sm" decorative className="mr-1.5" />}
          {t.saveAllowance}
        </button>
      </div>
      {error && (
        <p id={`${id}-allowance-error`} className="field-error max-w-64 whitespace-normal">
          {error}
        </p>
      )}
    </form>
  );
}
