import { messages, type UnitMember, type UnitPool, unitCreditsBody } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { LoadError, LoadingBlock } from '../../../../components/LoadError.tsx';
import { Pagination } from '../../../../components/Pagination.tsx';
import { Spinner } from '../../../../components/Spinner.tsx';
import { StatementTable } from '../../../../components/StatementTable.tsx';
import { isApiError } from '../../../../lib/api.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../../lib/field-errors.ts';
import { POOL_PAGE_SIZE, useChangePool, useUnitPool } from '../../api/pool.ts';
import { typedWhole } from '../../format.ts';
import { FormBox } from './FormBox.tsx';

const t = messages.pools;

/** The first message per field of a request schema's refusal. */
function issuesOf(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }) {
  const found: Record<string, string> = {};
  for (const issue of error.issues) found[String(issue.path[0] ?? 'amount')] ??= issue.message;
  return found;
}

/** Admins: top up (a positive amount) or deduct (a negative one), with a reason; refusals under the fields. */
function PoolChangeForm({ unitId, unitName }: { unitId: string; unitName: string }) {
  const id = useId();
  const change = useChangePool(unitId);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const refuse = (found: Record<string, string>) => {
    setErrors(found);
    document.getElementById(`${id}-${found.amount || !found.reason ? 'amount' : 'reason'}`)?.focus();
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (change.isPending) return;
    const typed = typedWhole(amount);
    if (Number.isNaN(typed)) return refuse({ amount: t.amountNotNumber });
    const checked = unitCreditsBody.safeParse({ amount: typed, reason });
    if (!checked.success) return refuse(issuesOf(checked.error));
    try {
      const pool = await change.mutateAsync(checked.data);
      toast.success(t.changed(unitName, pool.balance));
      setAmount('');
      setReason('');
      setErrors({});
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const fields = fieldErrorsOf(failure);
      refuse(
        fields.amount || fields.reason ? fields : { form: failureMessage(failure, messages.errors.generic) },
      );
    }
  };
  const field = (name: 'amount' | 'reason') => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  const errorOf = (name: string) =>
    errors[name] && (
      <p id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    );

  const after = (
    <>
      {errorOf('amount')}
      {errorOf('reason')}
      {errors.form && (
        <p role="alert" className="field-error">
          {errors.form}
        </p>
      )}
    </>
  );
  return (
    <FormBox id={id} title={t.changeTitle} lead={t.changeLead} onSubmit={onSubmit} after={after}>
      <div className="w-32">
        <label htmlFor={`${id}-amount`} className="label">
          {t.amountLabel}
        </label>
        <input
          {...field('amount')}
          className="input min-h-10 tabular-nums"
          inputMode="numeric"
          autoComplete="off"
          value={amount}
          onChange={(event) => {
            setAmount(event.target.value);
            setErrors(({ amount: _a, form: _f, ...rest }) => rest);
          }}
        />
      </div>
      <div className="min-w-0 flex-1 basis-56">
        <label htmlFor={`${id}-reason`} className="label">
          {t.reasonLabel}
        </label>
        <input
          {...field('reason')}
          className="input min-h-10"
          autoComplete="off"
          maxLength={200}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setErrors(({ reason: _r, form: _f, ...rest }) => rest);
          }}
        />
      </div>
      <div className="self-end">
        <button type="submit" className="btn-primary min-h-10" aria-disabled={change.isPending || undefined}>
          {change.isPending && <Spinner size="sm" decorative />}
          {change.isPending ? t.applying : t.apply}
        </button>
      </div>
    </FormBox>
  );
}

/** The member filter of the statement: everyone, or one member's rows. */
function MemberFilter({
  members,
  value,
  onChange,
}: {
  members: UnitMember[];
  value: string | undefined;
  onChange: (userId: string | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-muted">
        {t.memberFilter}
      </label>
      <select
        id={id}
        className="input min-h-9 w-auto max-w-64 cursor-pointer py-1.5"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">{t.allMembers}</option>
        {members.map((member) => (
          <option key={member.user_id} value={member.user_id}>
            {member.name} ({member.email})
          </option>
        ))}
      </select>
    </div>
  );
}

/** The pool's statement, newest first, a page at a time, whole or one member's. */
function PoolStatement({
  pool,
  member,
  busy,
  onMember,
  onPage,
}: {
  pool: UnitPool;
  member: string | undefined;
  busy: boolean;
  onMember: (userId: string | undefined) => void;
  onPage: (page: number) => void;
}) {
  const id = useId();
  const chosen = pool.members.find((m) => m.user_id === member);
  const totalPages = Math.max(1, Math.ceil(pool.total / (pool.per_page || POOL_PAGE_SIZE)));
  return (
    <section aria-labelledby={`${id}-title`} className="mt-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`${id}-title`} className="text-sm font-semibold text-text">
          {t.statementTitle}
        </h3>
        <MemberFilter members={pool.members} value={member} onChange={onMember} />
      </div>
      {chosen && (
        <p className="mt-2 text-xs break-words text-muted">
          {t.statementFor(`${chosen.name} (${chosen.email})`)}
        </p>
      )}
      <div className="mt-2">
        {pool.data.length === 0 ? (
          <p className="rounded-lg border border-line px-3 py-6 text-center text-sm text-muted">
            {t.statementEmpty}
          </p>
        ) : (
          <StatementTable entries={pool.data} label={t.statementTitle} busy={busy} ofPool />
        )}
      </div>
      <Pagination
        className="mt-3"
        page={pool.page}
        totalPages={totalPages}
        onPageChange={onPage}
        label={messages.history.pagesOf(t.statementTitle)}
        disabled={busy}
      />
    </section>
  );
}

/**
 * The credit pool of the chosen unit: its balance, the admins' top-up and deduction, and its statement.
 * Nothing is shown to whoever may not read it (the server answers 404: investigators).
 */
export function PoolPanel({ unitId }: { unitId: string }) {
  const id = useId();
  const [page, setPage] = useState(1);
  const [member, setMember] = useState<string | undefined>(undefined);
  const pool = useUnitPool(unitId, page, member);
  if (pool.isError && isApiError(pool.error) && pool.error.status === 404) return null;
  const data = pool.data;
  return (
    <section aria-labelledby={`${id}-title`} className="card min-w-0 px-4 py-4 sm:px-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
            {t.title}
          </h2>
          <p className="mt-1 text-sm text-muted">{t.lead}</p>
        </div>
        {data && (
          <p className="inline-flex items-baseline gap-2 rounded-xl border border-accent/30 bg-accent-soft/30 px-4 py-2">
            <span className="text-xs font-semibold tracking-wide text-muted uppercase">{t.balance}</span>
            <span className="text-xl font-bold text-accent tabular-nums" data-testid="pool-balance">
              {data.balance.toLocaleString('en-US')}
            </span>
          </p>
        )}
      </div>
      {pool.isPending ? (
        <LoadingBlock />
      ) : !data ? (
        <LoadError
          message={failureMessage(pool.error, t.loadFailed)}
          retryLabel={messages.admin.retry}
          onRetry={() => void pool.refetch()}
          retrying={pool.isFetching}
        />
      ) : (
        <>
          {data.tops_up && <PoolChangeForm unitId={unitId} unitName={data.unit.name} />}
          <PoolStatement
            pool={data}
            member={member}
            busy={pool.isPlaceholderData || pool.isFetching}
            onMember={(next) => {
              setMember(next);
              setPage(1);
            }}
            onPage={setPage}
          />
        </>
      )}
    </section>
  );
}
