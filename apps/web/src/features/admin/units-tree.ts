import type { Unit } from '@footprint/domain';

/**
 * The tree of /admin/units read from GET /api/units' flat list (parents before children): the children
 * of each unit, and what the tree allows, so that a button is shown only where its action can succeed
 * (the server checks every change again).
 */

export interface UnitTree {
  roots: Unit[];
  children: ReadonlyMap<string, Unit[]>;
  byId: ReadonlyMap<string, Unit>;
}

export function buildTree(units: readonly Unit[]): UnitTree {
  const byId = new Map(units.map((unit) => [unit.id, unit]));
  const children = new Map<string, Unit[]>();
  const roots: Unit[] = [];
  for (const unit of units) {
    // A unit whose parent the caller cannot see stands at the top of what they see.
    if (unit.parent_id && byId.has(unit.parent_id)) {
      const list = children.get(unit.parent_id) ?? [];
      list.push(unit);
      children.set(unit.parent_id, list);
    } else {
      roots.push(unit);
    }
  }
  return { roots, children, byId };
}

/** The unit's own id and the ids of every unit below it. */
export function subtreeIds(tree: UnitTree, id: string): Set<string> {
  const found = new Set<string>([id]);
  const stack = [id];
  while (stack.length > 0) {
    for (const child of tree.children.get(stack.pop()!) ?? []) {
      if (!found.has(child.id)) {
        found.add(child.id);
        stack.push(child.id);
      }
    }
  }
  return found;
}

/** How many levels the unit's subtree spans below it (0 for a unit without children). */
export function depthBelow(tree: UnitTree, id: string): number {
  const kids = tree.children.get(id) ?? [];
  return kids.length === 0 ? 0 : 1 + Math.max(...kids.map((kid) => depthBelow(tree, kid.id)));
}

/** The deepest level in use (0-based), or -1 for an empty tree: the levels may not be fewer. */
export const deepestLevel = (units: readonly Unit[]): number =>
  units.reduce((deepest, unit) => Math.max(deepest, unit.level), -1);

/** Whether a unit may be added below `unit` with `levels` named levels. */
export const canAddBelow = (unit: Unit, levels: number): boolean => unit.level + 1 < levels;

/**
 * Where `unit` may move: every unit outside its own subtree whose level leaves room for the subtree
 * below it, other than its present parent; `null` (the top of the tree) when it is not at the top.
 */
export function moveTargets(tree: UnitTree, unit: Unit, levels: number): Array<Unit | null> {
  const inside = subtreeIds(tree, unit.id);
  const below = depthBelow(tree, unit.id);
  const targets: Array<Unit | null> = [];
  if (unit.parent_id !== null && below < levels) targets.push(null);
  for (const candidate of tree.byId.values()) {
    if (inside.has(candidate.id) || candidate.id === unit.parent_id) continue;
    if (candidate.level + 1 + below < levels) targets.push(candidate);
  }
  return targets;
}

/** Whether the server would delete it: not the default unit, no members, no units below. */
export const canDelete = (tree: UnitTree, unit: Unit): boolean =>
  !unit.is_default && unit.member_count === 0 && (tree.children.get(unit.id)?.length ?? 0) === 0;

/** The units in tree order (depth first, as listed), for selects. */
export function inTreeOrder(tree: UnitTree): Unit[] {
  const out: Unit[] = [];
  const walk = (list: readonly Unit[]) => {
    for (const unit of list) {
      out.push(unit);
      walk(tree.children.get(unit.id) ?? []);
    }
  };
  walk(tree.roots);
  return out;
}
