import type { Unit } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import {
  buildTree,
  canAddBelow,
  canDelete,
  deepestLevel,
  inTreeOrder,
  moveTargets,
} from '../src/features/admin/units-tree.ts';

const unit = (id: string, parent: string | null, level: number, extra: Partial<Unit> = {}): Unit => ({
  id,
  parent_id: parent,
  name: id,
  level,
  level_name: `L${level}`,
  is_default: false,
  member_count: 0,
  retention_days: null,
  created_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

// state → range → district → station; a default unit at the top with members.
const units = [
  unit('default', null, 0, { is_default: true, member_count: 3 }),
  unit('state', null, 0),
  unit('range', 'state', 1),
  unit('district', 'range', 2),
  unit('station', 'district', 3),
];
const tree = buildTree(units);

describe('the tree of /admin/units', () => {
  it('lists the units depth first and knows the deepest level', () => {
    expect(inTreeOrder(tree).map((u) => u.id)).toEqual(['default', 'state', 'range', 'district', 'station']);
    expect(deepestLevel(units)).toBe(3);
    expect(deepestLevel([])).toBe(-1);
  });

  it('offers "Add below" only above the last level', () => {
    expect(canAddBelow(tree.byId.get('district')!, 4)).toBe(true);
    expect(canAddBelow(tree.byId.get('station')!, 4)).toBe(false);
  });

  it('moves a unit only where it and the units below it still fit, never under itself', () => {
    const ids = (list: Array<Unit | null>) => list.map((u) => (u === null ? 'top' : u.id));
    // The state's subtree spans four levels: it fits nowhere but where it is.
    expect(ids(moveTargets(tree, tree.byId.get('state')!, 4))).toEqual([]);
    // The district (two levels) may go to the top, under the default unit, the state; not under its range again.
    expect(ids(moveTargets(tree, tree.byId.get('district')!, 4))).toEqual(['top', 'default', 'state']);
    expect(ids(moveTargets(tree, tree.byId.get('station')!, 4))).toEqual([
      'top',
      'default',
      'state',
      'range',
    ]);
  });

  it('deletes only an empty unit other than the default one', () => {
    expect(canDelete(tree, tree.byId.get('station')!)).toBe(true);
    expect(canDelete(tree, tree.byId.get('district')!)).toBe(false);
    expect(canDelete(tree, tree.byId.get('default')!)).toBe(false);
    expect(canDelete(tree, { ...tree.byId.get('station')!, member_count: 1 })).toBe(false);
  });
});
