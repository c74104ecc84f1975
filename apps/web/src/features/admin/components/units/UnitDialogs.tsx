import { createUnitBody, messages, type Unit, updateUnitBody } from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { ActionDialog } from '../../../../components/ActionDialog.tsx';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../../lib/field-errors.ts';
import { useCreateUnit, useDeleteUnit, useUpdateUnit } from '../../api/units.ts';
import { moveTargets, type UnitTree } from '../../units-tree.ts';

const t = messages.units.admin;

/**
 * What the tree asked for: a new unit (under `parent`, or at the top), a rename, a move, a delete, or
 * the unit's retention period.
 */
export type UnitAction =
  | { kind: 'add'; parent: Unit | null }
  | { kind: 'rename'; unit: Unit }
  | { kind: 'move'; unit: Unit }
  | { kind: 'delete'; unit: Unit }
  | { kind: 'retention'; unit: Unit };

/** The first message per field of a request schema's refusal. */
function issuesOf(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }) {
  const found: Record<string, string> = {};
  for (const issue of error.issues) found[String(issue.path[0] ?? 'name')] ??= issue.message;
  return found;
}

/** 'New District under …' or 'Rename …': one name field, checked with the domain's schema first. */
function NameDialog({
  action,
  levels,
  onClose,
  onCreated,
}: {
  action: Extract<UnitAction, { kind: 'add' | 'rename' }>;
  levels: readonly string[];
  onClose: () => void;
  onCreated: (unit: Unit) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const create = useCreateUnit();
  const update = useUpdateUnit();
  const adding = action.kind === 'add';
  const [name, setName] = useState(adding ? '' : action.unit.name);
  const [error, setError] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;
  const level = adding ? (levels[action.parent ? action.parent.level + 1 : 0] ?? '') : '';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const body = adding ? { name, parent_id: action.parent?.id ?? null } : { name };
    const checked = (adding ? createUnitBody : updateUnitBody).safeParse(body);
    if (!checked.success) {
      setError(Object.values(issuesOf(checked.error))[0] ?? messages.errors.validation);
      input.current?.focus();
      return;
    }
    try {
      if (adding) {
        const unit = await create.mutateAsync({ name: name.trim(), parent_id: action.parent?.id ?? null });
        toast.success(t.created(unit.name));
        onCreated(unit);
      } else {
        if (name.trim() !== action.unit.name)
          await update.mutateAsync({ id: action.unit.id, name: name.trim() });
        toast.success(t.renamed);
      }
      onClose();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const fields = fieldErrorsOf(failure);
      if (fields.name) {
        setError(fields.name);
        input.current?.focus();
      } else toast.error(failureMessage(failure, messages.errors.generic));
    }
  };

  return (
    <ActionDialog
      title={adding ? t.addTitle(action.parent?.name ?? null, level) : t.renameTitle(action.unit.name)}
      onClose={onClose}
      initialFocus={input}
      cancel={t.cancel}
      label={adding ? t.create : t.saveName}
      busyLabel={adding ? t.creating : t.saving}
      busy={busy}
      form={`${id}-form`}
    >
      <form id={`${id}-form`} noValidate onSubmit={(event) => void onSubmit(event)}>
        <label htmlFor={`${id}-name`} className="label">
          {t.nameLabel}
        </label>
        <input
          ref={input}
          id={`${id}-name`}
          className="input min-h-10"
          autoComplete="off"
          value={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-name-error` : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${id}-name-error`} className="field-error">
            {error}
          </p>
        )}
      </form>
    </ActionDialog>
  );
}

/** 'Move …': a new parent among the units where the unit and everything below it still fit. */
function MoveDialog({
  unit,
  tree,
  levels,
  onClose,
}: {
  unit: Unit;
  tree: UnitTree;
  levels: readonly string[];
  onClose: () => void;
}) {
  const id = useId();
  const select = useRef<HTMLSelectElement>(null);
  const update = useUpdateUnit();
  const targets = moveTargets(tree, unit, levels.length);
  const [parent, setParent] = useState<string>(targets[0] === null ? '' : (targets[0]?.id ?? ''));
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    try {
      await update.mutateAsync({ id: unit.id, parent_id: parent === '' ? null : parent });
      toast.success(t.moved);
      onClose();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const fields = fieldErrorsOf(failure);
      const message = fields.parent_id ?? fields.name ?? failureMessage(failure, messages.errors.generic);
      setError(message);
      select.current?.focus();
    }
  };

  return (
    <ActionDialog
      title={t.moveTitle(unit.name)}
      onClose={onClose}
      initialFocus={select}
      cancel={t.cancel}
      label={t.moveSubmit}
      busyLabel={t.moving}
      busy={update.isPending}
      form={`${id}-form`}
    >
      <form id={`${id}-form`} noValidate onSubmit={(event) => void onSubmit(event)}>
        <p id={`${id}-lead`} className="mb-3 text-sm text-muted">
          {t.moveLead}
        </p>
        <label htmlFor={`${id}-parent`} className="label">
          {t.parentLabel}
        </label>
        <select
          ref={select}
          id={`${id}-parent`}
          className="input min-h-10 cursor-pointer"
          value={parent}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-parent-error ${id}-lead` : `${id}-lead`}
          onChange={(event) => {
            setParent(event.target.value);
            setError(null);
          }}
        >
          {targets.map((target) =>
            target === null ? (
              <option key="top" value="">
                {t.topOfTree}
              </option>
            ) : (
              <option key={target.id} value={target.id}>
                {'\u00a0\u00a0'.repeat(target.level)}
                {t.parentOption(target.name, target.level_name)}
              </option>
            ),
          )}
        </select>
        {error && (
          <p id={`${id}-parent-error`} className="field-error">
            {error}
          </p>
        )}
      </form>
    </ActionDialog>
  );
}

/** 'Delete …?': offered only for an empty unit other than the default one. */
function DeleteDialog({
  unit,
  onClose,
  onDeleted,
}: {
  unit: Unit;
  onClose: () => void;
  onDeleted: (unit: Unit) => void;
}) {
  const remove = useDeleteUnit();
  const confirm = async () => {
    if (remove.isPending) return;
    try {
      await remove.mutateAsync(unit.id);
      toast.success(t.deleted(unit.name));
      onDeleted(unit);
      onClose();
    } catch (failure) {
      if (!isSessionEnd(failure)) toast.error(failureMessage(failure, messages.errors.generic));
    }
  };
  return (
    <ActionDialog
      title={t.deleteTitle(unit.name)}
      onClose={onClose}
      cancel={t.cancel}
      label={t.delete}
      busyLabel={t.deleting}
      busy={remove.isPending}
      tone="danger"
      onConfirm={() => void confirm()}
    >
      <p className="text-sm text-text">{t.deleteConfirm}</p>
    </ActionDialog>
  );
}

/**
 * 'Retention of …': how many days the results of its members' searches are kept (1 to 3,650), or empty
 * to follow the deployment's period. The deployment's period is the ceiling: a longer one is allowed
 * (it takes effect if the deployment's is raised) but said to have no effect beyond it.
 */
function RetentionDialog({
  unit,
  ceiling,
  onClose,
}: {
  unit: Unit;
  ceiling: number | null;
  onClose: () => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const update = useUpdateUnit();
  const [days, setDays] = useState(unit.retention_days === null ? '' : String(unit.retention_days));
  const [error, setError] = useState<string | null>(null);
  const typed = days.trim();
  const value = typed === '' ? null : Number(typed);
  const above = ceiling !== null && value !== null && Number.isInteger(value) && value > ceiling;

  const save = async (next: number | null) => {
    if (update.isPending) return;
    const checked = updateUnitBody.safeParse({ retention_days: next });
    if (!checked.success) {
      setError(issuesOf(checked.error).retention_days ?? messages.errors.validation);
      input.current?.focus();
      return;
    }
    try {
      if (next !== unit.retention_days) await update.mutateAsync({ id: unit.id, retention_days: next });
      toast.success(next === null ? t.retentionCleared(unit.name) : t.retentionSaved(unit.name, next));
      onClose();
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      const fields = fieldErrorsOf(failure);
      if (fields.retention_days) {
        setError(fields.retention_days);
        input.current?.focus();
      } else toast.error(failureMessage(failure, messages.errors.generic));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save(value);
  };

  const describedBy = [error ? `${id}-days-error` : '', above ? `${id}-days-warning` : '', `${id}-days-hint`]
    .filter(Boolean)
    .join(' ');

  return (
    <ActionDialog
      title={t.retentionTitle(unit.name)}
      onClose={onClose}
      initialFocus={input}
      cancel={t.cancel}
      label={t.retentionSave}
      busyLabel={t.saving}
      busy={update.isPending}
      form={`${id}-form`}
      extraActions={
        unit.retention_days !== null && (
          <button
            type="button"
            className="btn-ghost"
            aria-disabled={update.isPending || undefined}
            onClick={() => void save(null)}
          >
            {t.retentionClear}
          </button>
        )
      }
    >
      <form id={`${id}-form`} noValidate onSubmit={onSubmit}>
        <p className="mb-3 text-sm text-muted">{t.retentionLead}</p>
        <label htmlFor={`${id}-days`} className="label">
          {t.retentionDaysLabel}
        </label>
        <input
          ref={input}
          id={`${id}-days`}
          className="input min-h-10 max-w-40 tabular-nums"
          inputMode="numeric"
          autoComplete="off"
          value={days}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setDays(event.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${id}-days-error`} className="field-error">
            {error}
          </p>
        )}
        {above && ceiling !== null && value !== null && (
          <p id={`${id}-days-warning`} role="status" className="unit-retention-warning">
            {t.retentionWarning(value, ceiling)}
          </p>
        )}
        <p id={`${id}-days-hint`} className="mt-2 text-xs text-muted">
          {t.retentionHint(ceiling)}
        </p>
      </form>
    </ActionDialog>
  );
}

/** The dialog of one tree action. */
export function UnitActionDialog({
  action,
  tree,
  levels,
  ceiling,
  onClose,
  onCreated,
  onDeleted,
}: {
  action: UnitAction;
  tree: UnitTree;
  levels: readonly string[];
  /** The deployment's retention period, once read (null until then, or when it cannot be read). */
  ceiling: number | null;
  onClose: () => void;
  onCreated: (unit: Unit) => void;
  onDeleted: (unit: Unit) => void;
}) {
  switch (action.kind) {
    case 'add':
    case 'rename':
      return <NameDialog action={action} levels={levels} onClose={onClose} onCreated={onCreated} />;
    case 'move':
      return <MoveDialog unit={action.unit} tree={tree} levels={levels} onClose={onClose} />;
    case 'delete':
      return <DeleteDialog unit={action.unit} onClose={onClose} onDeleted={onDeleted} />;
    case 'retention':
      return <RetentionDialog unit={action.unit} ceiling={ceiling} onClose={onClose} />;
  }
}
