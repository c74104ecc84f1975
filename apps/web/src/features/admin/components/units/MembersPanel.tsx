import {
  addUnitMemberBody,
  messages,
  UNIT_ROLE_LABELS,
  UNIT_ROLES,
  type UnitMember,
  type UnitRole,
} from '@footprint/domain';
import { type FormEvent, type RefObject, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { QueryView } from '../../../../components/LoadError.tsx';
import { Spinner } from '../../../../components/Spinner.tsx';
import { TableScroller } from '../../../../components/TableScroller.tsx';
import { useAuth } from '../../../../lib/auth-context.ts';
import { formatDate, formatDateTime } from '../../../../lib/datetime.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../../lib/field-errors.ts';
import { useUnitPool } from '../../api/pool.ts';
import {
  useAddUnitMember,
  useChangeUnitMember,
  useRemoveUnitMember,
  useUnitMembers,
} from '../../api/units.ts';
import { AllowanceCell } from './AllowanceCell.tsx';
import { FormBox } from './FormBox.tsx';

const t = messages.units.admin;
const poolTexts = messages.pools;

function RoleSelect({
  id,
  value,
  onChange,
  label,
  disabled,
  invalid,
  describedBy,
}: {
  id?: string;
  value: UnitRole;
  onChange: (role: UnitRole) => void;
  label?: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
}) {
  return (
    <select
      id={id}
      className="input min-h-9 w-auto min-w-36 cursor-pointer py-1.5"
      value={value}
      aria-label={label}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as UnitRole)}
    >
      {UNIT_ROLES.map((role) => (
        <option key={role} value={role}>
          {UNIT_ROLE_LABELS[role]}
        </option>
      ))}
    </select>
  );
}

/**
 * One member: the role select applies at once; Remove takes them out of the unit. Their monthly
 * allowance from the pool is a field where `setsAllowance`, and what they drew this month beside it.
 * `manages` is false on a unit admin's own row (the server never lets them change their own membership);
 * the actions' column stays, empty.
 */
function MemberRow({
  unitId,
  member,
  manages,
  setsAllowance,
  actionsColumn,
}: {
  unitId: string;
  member: UnitMember;
  manages: boolean;
  setsAllowance: boolean;
  actionsColumn: boolean;
}) {
  const change = useChangeUnitMember(unitId);
  const remove = useRemoveUnitMember(unitId);
  const busy = change.isPending || remove.isPending;
  const onRole = async (role: UnitRole) => {
    try {
      await change.mutateAsync({ userId: member.user_id, role });
      toast.success(t.roleChanged(member.name, UNIT_ROLE_LABELS[role]));
    } catch (failure) {
      if (!isSessionEnd(failure)) toast.error(failureMessage(failure, messages.errors.generic));
    }
  };
  const onRemove = async () => {
    try {
      await remove.mutateAsync(member.user_id);
      toast.success(t.removed(member.name));
    } catch (failure) {
      if (!isSessionEnd(failure)) toast.error(failureMessage(failure, messages.errors.generic));
    }
  };
  return (
    <tr>
      <td className="min-w-36 font-medium break-words text-text">{member.name}</td>
      <td>
        <span className="cell-clip" title={member.email}>
          {member.email}
        </span>
      </td>
      <td>
        {manages ? (
          <RoleSelect
            value={member.role}
            label={t.roleOf(member.name)}
            disabled={busy}
            onChange={(role) => void onRole(role)}
          />
        ) : (
          <span className="whitespace-nowrap">{UNIT_ROLE_LABELS[member.role]}</span>
        )}
      </td>
      <td className="whitespace-nowrap tabular-nums">
        {setsAllowance ? (
          <AllowanceCell unitId={unitId} member={member} />
        ) : (
          member.monthly_allowance.toLocaleString('en-US')
        )}
      </td>
      <td className="text-right whitespace-nowrap tabular-nums">
        {member.used_this_month.toLocaleString('en-US')}
      </td>
      <td className="whitespace-nowrap text-muted">
        <time dateTime={member.added_at} title={formatDateTime(member.added_at)}>
          {formatDate(member.added_at)}
        </time>
      </td>
      {actionsColumn && !manages && <td />}
      {manages && (
        <td className="text-right">
          <button
            type="button"
            className="unit-action unit-action-danger"
            aria-label={t.removeLabel(member.name)}
            aria-disabled={busy || undefined}
            onClick={() => {
              if (!busy) void onRemove();
            }}
          >
            {remove.isPending && <Spinner size="sm" decorative className="mr-1.5" />}
            {t.remove}
          </button>
        </td>
      )}
    </tr>
  );
}

/** Add by e-mail with a role; an existing member gets the role chosen. */
function AddMemberForm({ unitId }: { unitId: string }) {
  const id = useId();
  const add = useAddUnitMember(unitId);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<UnitRole>('investigator');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    const checked = addUnitMemberBody.safeParse({ email: email.trim(), role });
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0] ?? 'email')] ??= issue.message;
      setErrors(found);
      document.getElementById(`${id}-${found.email ? 'email' : 'role'}`)?.focus();
      return;
    }
    try {
      const member = await add.mutateAsync(checked.data);
      toast.success(t.memberSaved(member.email));
      setEmail('');
      setErrors({});
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const fields = fieldErrorsOf(failure);
      if (fields.email || fields.role) {
        setErrors(fields);
        document.getElementById(`${id}-${fields.email ? 'email' : 'role'}`)?.focus();
      } else toast.error(failureMessage(failure, messages.errors.generic));
    }
  };

  return (
    <FormBox id={id} title={t.addMemberTitle} lead={t.addMemberLead} onSubmit={onSubmit}>
      <div className="min-w-0 flex-1 basis-56">
        <label htmlFor={`${id}-email`} className="label">
          {t.emailLabel}
        </label>
        <input
          id={`${id}-email`}
          type="email"
          className="input min-h-10"
          autoComplete="off"
          spellCheck={false}
          value={email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${id}-email-error` : undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            setErrors(({ email: _removed, ...rest }) => rest);
          }}
        />
        {errors.email && (
          <p id={`${id}-email-error`} className="field-error">
            {errors.email}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={`${id}-role`} className="label">
          {t.roleLabel}
        </label>
        <RoleSelect
          id={`${id}-role`}
          value={role}
          invalid={Boolean(errors.role)}
          describedBy={errors.role ? `${id}-role-error` : undefined}
          onChange={(next) => {
            setRole(next);
            setErrors(({ role: _removed, ...rest }) => rest);
          }}
        />
        {errors.role && (
          <p id={`${id}-role-error`} className="field-error">
            {errors.role}
          </p>
        )}
      </div>
      <div className="self-end">
        <button type="submit" className="btn-primary min-h-10" aria-disabled={add.isPending || undefined}>
          {add.isPending && <Spinner size="sm" decorative />}
          {add.isPending ? t.addingMember : t.addMember}
        </button>
      </div>
    </FormBox>
  );
}

/**
 * Whose allowance the caller may set here: anyone's where the pool says `sets_allowances`, but their own
 * only as an admin (the server refuses a unit admin's own). The pool's first page is the pool panel's.
 */
function useSetsAllowance(unitId: string): (userId: string) => boolean {
  const { user } = useAuth();
  const sets = useUnitPool(unitId, 1, undefined).data?.sets_allowances === true;
  return (userId) => sets && (user?.role === 'admin' || user?.id !== userId);
}

/** Whose membership the caller may change where `manages`: anyone's, but their own only as an admin. */
function useManagesRow(manages: boolean): (userId: string) => boolean {
  const { user } = useAuth();
  return (userId) => manages && (user?.role === 'admin' || user?.id !== userId);
}

/** The members of the chosen unit: list, role changes, removal, and the add form for those who manage it. */
export function MembersPanel({
  unitId,
  headingRef,
  onClose,
}: {
  unitId: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onClose: () => void;
}) {
  const id = useId();
  const members = useUnitMembers(unitId);
  const setsAllowance = useSetsAllowance(unitId);
  const managesRow = useManagesRow(members.data?.manages === true);
  const unit = members.data?.unit;
  return (
    <section aria-labelledby={`${id}-title`} className="card min-w-0 px-4 py-4 sm:px-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2
            ref={headingRef}
            id={`${id}-title`}
            tabIndex={-1}
            className="text-lg font-semibold break-words text-text focus-visible:outline-offset-4"
          >
            {unit ? t.membersTitle(unit.name) : t.membersTitle('…')}
          </h2>
          {unit && <p className="mt-1 text-sm text-muted">{t.membersLead(unit.level_name)}</p>}
        </div>
        <button type="button" className="btn-ghost min-h-9 shrink-0 px-3 py-1.5" onClick={onClose}>
          {t.closeMembers}
        </button>
      </div>
      <div className="mt-3">
        <QueryView
          query={members}
          failed={failureMessage(members.error, messages.admin.loadFailed)}
          retryLabel={messages.admin.retry}
        >
          {(data) => (
            <>
              {data.members.length === 0 ? (
                <p className="rounded-lg border border-line px-3 py-6 text-center text-sm text-muted">
                  {t.membersEmpty}
                </p>
              ) : (
                <TableScroller label={t.memberList} stickyEnds scrollHint={t.memberListScroll}>
                  <table className="data-table">
                    <thead>
                      <tr>
                        <th scope="col">{t.memberName}</th>
                        <th scope="col">{t.memberEmail}</th>
                        <th scope="col">{t.memberRole}</th>
                        <th scope="col" className="whitespace-normal">
                          {poolTexts.allowanceColumn}
                        </th>
                        <th scope="col" className="text-right whitespace-normal">
                          {poolTexts.usedColumn}
                        </th>
                        <th scope="col">{t.memberAdded}</th>
                        {data.manages && (
                          <th scope="col">
                            <span className="sr-only">{t.memberActions}</span>
                          </th>
                        )}
                      </tr>
                    </thead>
                    <tbody>
                      {data.members.map((member) => (
                        <MemberRow
                          key={member.user_id}
                          unitId={data.unit.id}
                          member={member}
                          manages={managesRow(member.user_id)}
                          setsAllowance={setsAllowance(member.user_id)}
                          actionsColumn={data.manages}
                        />
                      ))}
                    </tbody>
                  </table>
                </TableScroller>
              )}
              {data.manages ? (
                <AddMemberForm unitId={data.unit.id} />
              ) : (
                <p className="mt-3 text-xs text-muted">{t.readOnly}</p>
              )}
            </>
          )}
        </QueryView>
      </div>
    </section>
  );
}
