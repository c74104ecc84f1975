import { messages, type Unit } from '@footprint/domain';
import { canAddBelow, canDelete, moveTargets, type UnitTree } from '../../units-tree.ts';
import type { UnitAction } from './UnitDialogs.tsx';

const t = messages.units.admin;

interface Props {
  tree: UnitTree;
  levels: number;
  selected: string | undefined;
  editable: boolean;
  /** The deployment's retention period (the admin's view only): a unit's above it is said to be capped. */
  ceiling: number | null;
  onSelect: (unit: Unit) => void;
  onAction: (action: UnitAction) => void;
}

/**
 * One unit: its name (choosing it shows its members), level, member count, retention period, and the
 * actions it allows.
 */
function UnitItem({ unit, ...props }: Props & { unit: Unit }) {
  const { tree, levels, selected, editable, ceiling, onSelect, onAction } = props;
  const children = tree.children.get(unit.id) ?? [];
  const isSelected = selected === unit.id;
  const metaId = `unit-${unit.id}-meta`;
  const actions = editable
    ? [
        canAddBelow(unit, levels) && {
          key: 'add',
          text: t.addBelow,
          label: t.addBelowLabel(unit.name),
          run: () => onAction({ kind: 'add', parent: unit }),
        },
        {
          key: 'rename',
          text: t.rename,
          label: t.renameLabel(unit.name),
          run: () => onAction({ kind: 'rename', unit }),
        },
        moveTargets(tree, unit, levels).length > 0 && {
          key: 'move',
          text: t.move,
          label: t.moveLabel(unit.name),
          run: () => onAction({ kind: 'move', unit }),
        },
        {
          key: 'retention',
          text: t.retention,
          label: t.retentionLabel(unit.name),
          run: () => onAction({ kind: 'retention', unit }),
        },
        canDelete(tree, unit) && {
          key: 'delete',
          text: t.delete,
          label: t.deleteLabel(unit.name),
          run: () => onAction({ kind: 'delete', unit }),
        },
      ].filter((action) => action !== false)
    : [];

  return (
    <li>
      <div className={`unit-row ${isSelected ? 'unit-row-selected' : ''}`}>
        <div className="min-w-0 flex-1 basis-52">
          <button
            type="button"
            className="unit-name"
            aria-pressed={isSelected}
            aria-describedby={metaId}
            onClick={() => onSelect(unit)}
          >
            {unit.name}
          </button>
          <p id={metaId} className="mt-0.5 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-muted">
            <span>{unit.level_name}</span>
            <span className="whitespace-nowrap tabular-nums">
              <span aria-hidden="true">· </span>
              {t.members(unit.member_count)}
            </span>
            {/* On a phone the period takes a line of its own, without the separator. */}
            <span
              className={`basis-full tabular-nums sm:basis-auto sm:whitespace-nowrap ${unit.retention_days === null ? '' : 'text-text'}`}
            >
              <span aria-hidden="true" className="hidden sm:inline">
                ·{' '}
              </span>
              {unit.retention_days === null ? t.retentionFollows : t.retentionDays(unit.retention_days)}
            </span>
            {unit.retention_days !== null && ceiling !== null && unit.retention_days > ceiling && (
              <span className="status-badge chip-amber">{t.retentionAboveCeiling(ceiling)}</span>
            )}
            {unit.is_default && (
              <span className="status-badge chip-indigo" title={t.defaultHint}>
                {t.defaultBadge}
              </span>
            )}
          </p>
        </div>
        {actions.length > 0 && (
          // biome-ignore lint/a11y/useSemanticElements: a group of buttons, not a form's fieldset.
          <div role="group" aria-label={t.actionsLabel(unit.name)} className="unit-actions">
            {actions.map((action) => (
              <button
                key={action.key}
                type="button"
                className={action.key === 'delete' ? 'unit-action unit-action-danger' : 'unit-action'}
                aria-label={action.label}
                onClick={action.run}
              >
                {action.text}
              </button>
            ))}
          </div>
        )}
      </div>
      {children.length > 0 && (
        <ul className="unit-children">
          {children.map((child) => (
            <UnitItem key={child.id} unit={child} {...props} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The tree as nested lists, indented by level: every control a native button, reached with Tab. */
export function UnitTreeList(props: Props) {
  return (
    <ul className="unit-tree">
      {props.tree.roots.map((unit) => (
        <UnitItem key={unit.id} unit={unit} {...props} />
      ))}
    </ul>
  );
}
