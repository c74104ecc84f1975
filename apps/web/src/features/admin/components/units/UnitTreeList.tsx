import { messages, type Unit } from '@footprint/domain';
import { canAddBelow, canDelete, moveTargets, type UnitTree } from '../../units-tree.ts';
import type { UnitAction } from './UnitDialogs.tsx';

const t = messages.units.admin;

interface Props {
  tree: UnitTree;
  levels: number;
  selected: string | undefined;
  editable: boolean;
  onSelect: (unit: Unit) => void;
  onAction: (action: UnitAction) => void;
}

/** One unit: its name (choosing it shows its members), level, member count, and the actions it allows. */
function UnitItem({ unit, ...props }: Props & { unit: Unit }) {
  const { tree, levels, selected, editable, onSelect, onAction } = props;
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
