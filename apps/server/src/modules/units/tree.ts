/**
 * The tree of units: read as the caller may see it, and built by admins (create, rename, move,
 * delete, name the levels). The closure table and each unit's depth are kept by the database's
 * triggers (migration 0029); this module checks what the tree's shape allows first, so a refusal
 * comes with its message and changes nothing. Every change writes an audit row.
 */
import {
  DEFAULT_UNIT_LEVELS,
  type Unit,
  type UnitMembership,
  type UnitRole,
  type UnitsResponse,
  unitsMessages,
} from '@footprint/domain';
import { and, asc, count, eq, inArray, max, sql } from 'drizzle-orm';
import { administers, editsUnitTree, membershipsOf } from '../../access/policy.ts';
import type { Database, Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/rows.ts';
import { creditEntries, unitMembers, unitPaths, units } from '../../db/schema.ts';
import { forbidden, notFound, unitConflict, validationError } from '../../errors.ts';
import { recordAudit } from '../audit/service.ts';
import { readSetting, writeSetting } from '../settings/service.ts';
import { auditUnit, type Who } from './who.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const unitNotFound = () => notFound(unitsMessages.notFound);

/** The names of the levels, top first: the admin's, else the defaults. */
export async function levelsOf(db: Executor): Promise<string[]> {
  const stored = await readSetting<unknown>(db, 'unit_levels');
  return Array.isArray(stored) && stored.every((level) => typeof level === 'string') && stored.length > 0
    ? (stored as string[])
    : [...DEFAULT_UNIT_LEVELS];
}

type UnitRow = typeof units.$inferSelect;

/** Parents before their children, siblings by name: the order a tree is read in. */
function preorder<T extends { id: string; parentId: string | null; name: string }>(rows: T[]): T[] {
  const children = new Map<string | null, T[]>();
  const ids = new Set(rows.map((row) => row.id));
  for (const row of rows) {
    // A unit whose parent the caller does not see is shown at the top of what they see.
    const parent = row.parentId !== null && ids.has(row.parentId) ? row.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), row]);
  }
  const out: T[] = [];
  const visit = (parent: string | null) => {
    const kids = (children.get(parent) ?? []).sort((a, b) => a.name.localeCompare(b.name));
    for (const kid of kids) {
      out.push(kid);
      visit(kid.id);
    }
  };
  visit(null);
  return out;
}

export function presentUnit(row: UnitRow, levels: readonly string[], memberCount: number): Unit {
  return {
    id: row.id,
    parent_id: row.parentId,
    name: row.name,
    level: row.depth,
    level_name: levels[row.depth] ?? `Level ${row.depth + 1}`,
    is_default: row.isDefault,
    member_count: memberCount,
    retention_days: row.retentionDays,
    created_at: row.createdAt.toISOString(),
  };
}

const memberCount = sql<number>`(select count(*)::int from ${unitMembers} c where c.unit_id = ${units.id})`;

/** One unit as GET /api/units shows it. */
export async function unitById(db: Executor, id: string): Promise<Unit> {
  if (!UUID.test(id)) throw unitNotFound();
  const [found] = await db.select({ row: units, members: memberCount }).from(units).where(eq(units.id, id));
  if (!found) throw unitNotFound();
  return presentUnit(found.row, await levelsOf(db), Number(found.members));
}

/**
 * The tree as the caller may see it: all of it for an admin and for anyone who supervises or
 * administers a unit (they share cases with other units); else the caller's own units and those
 * above them.
 */
export async function readUnits(db: Database, who: Who): Promise<UnitsResponse> {
  const actor = who.actor;
  const memberships = actor
    ? await db
        .select({ unitId: unitMembers.unitId, unitName: units.name, role: unitMembers.role })
        .from(unitMembers)
        .innerJoin(units, eq(units.id, unitMembers.unitId))
        .where(membershipsOf(actor.id))
        .orderBy(asc(units.name))
    : [];
  const seesAll = !actor || administers(actor) || memberships.some((m) => m.role !== 'investigator');
  const above = seesAll
    ? undefined
    : db
        .select({ id: unitPaths.ancestorId })
        .from(unitPaths)
        .where(
          inArray(
            unitPaths.descendantId,
            memberships.map((m) => m.unitId),
          ),
        );
  const rows = await db
    .select({ row: units, members: memberCount })
    .from(units)
    .where(above ? inArray(units.id, above) : undefined);
  const levels = await levelsOf(db);
  const ordered = preorder(rows.map((r) => ({ ...r.row, members: Number(r.members) })));
  return {
    levels,
    units: ordered.map(({ members, ...row }) => presentUnit(row, levels, members)),
    memberships: memberships.map(
      (m): UnitMembership => ({ unit_id: m.unitId, unit_name: m.unitName, role: m.role as UnitRole }),
    ),
    edits_tree: !actor || editsUnitTree(actor),
  };
}

function mustEditTree(who: Who): void {
  if (who.actor && !editsUnitTree(who.actor)) throw forbidden(unitsMessages.treeAdminOnly);
}

/** How many levels below `id` its subtree reaches (0: no units below it). */
async function heightBelow(db: Executor, id: string): Promise<number> {
  const [row] = await db
    .select({ height: max(unitPaths.distance) })
    .from(unitPaths)
    .where(eq(unitPaths.ancestorId, id));
  return Number(row?.height ?? 0);
}

async function parentOf(db: Executor, parentId: string | null): Promise<UnitRow | null> {
  if (parentId === null) return null;
  const [parent] = await db.select().from(units).where(eq(units.id, parentId));
  if (!parent) throw validationError({ parent_id: [unitsMessages.notFound] });
  return parent;
}

/** A unit's name clashing with a sibling's is a 409 on `name`. */
async function namingSiblings<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw unitConflict(unitsMessages.nameTaken, 'name');
    throw error;
  }
}

export async function createUnit(
  db: Database,
  who: Who,
  input: { name: string; parent_id: string | null },
): Promise<Unit> {
  mustEditTree(who);
  const parent = await parentOf(db, input.parent_id);
  const levels = await levelsOf(db);
  if ((parent ? parent.depth + 1 : 0) >= levels.length) {
    throw unitConflict(unitsMessages.tooDeep(levels.length), 'parent_id');
  }
  const row = await namingSiblings(() =>
    db.transaction(async (tx) => {
      const [created] = await tx
        .insert(units)
        .values({ name: input.name, parentId: parent?.id ?? null })
        .returning();
      if (!created) throw new Error('insert returned no unit');
      await recordAudit(
        tx,
        auditUnit(who, 'unit.create', created.id, { name: created.name, parent_id: parent?.id ?? null }),
      );
      return created;
    }),
  );
  return presentUnit(row, levels, 0);
}

export async function updateUnit(
  db: Database,
  who: Who,
  id: string,
  patch: {
    name?: string | undefined;
    parent_id?: string | null | undefined;
    retention_days?: number | null | undefined;
  },
): Promise<Unit> {
  mustEditTree(who);
  const before = await unitById(db, id);
  const moving = patch.parent_id !== undefined && patch.parent_id !== before.parent_id;
  if (moving) {
    const parent = await parentOf(db, patch.parent_id ?? null);
    if (parent) {
      const [inside] = await db
        .select({ n: count() })
        .from(unitPaths)
        .where(and(eq(unitPaths.ancestorId, id), eq(unitPaths.descendantId, parent.id)));
      if (Number(inside?.n) > 0) throw unitConflict(unitsMessages.moveIntoItself, 'parent_id');
    }
    const levels = await levelsOf(db);
    if ((parent ? parent.depth + 1 : 0) + (await heightBelow(db, id)) >= levels.length) {
      throw unitConflict(unitsMessages.tooDeep(levels.length), 'parent_id');
    }
  }
  await namingSiblings(() =>
    db.transaction(async (tx) => {
      await tx
        .update(units)
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(moving ? { parentId: patch.parent_id ?? null } : {}),
          ...(patch.retention_days !== undefined ? { retentionDays: patch.retention_days } : {}),
          updatedAt: new Date(),
        })
        .where(eq(units.id, id));
      const changed: Record<string, unknown> = {};
      if (patch.name !== undefined && patch.name !== before.name)
        changed.name = { from: before.name, to: patch.name };
      if (moving) changed.parent_id = { from: before.parent_id, to: patch.parent_id ?? null };
      if (patch.retention_days !== undefined && patch.retention_days !== before.retention_days) {
        changed.retention_days = { from: before.retention_days, to: patch.retention_days };
      }
      await recordAudit(tx, auditUnit(who, 'unit.update', id, { changed }));
    }),
  );
  return unitById(db, id);
}

export async function deleteUnit(db: Database, who: Who, id: string): Promise<void> {
  mustEditTree(who);
  const unit = await unitById(db, id);
  if (unit.is_default) throw unitConflict(unitsMessages.defaultUnit);
  const [below] = await db.select({ n: count() }).from(units).where(eq(units.parentId, id));
  if (unit.member_count > 0 || Number(below?.n) > 0) throw unitConflict(unitsMessages.notEmpty);
  // The ledger keeps every row of a pool: one that has any keeps its unit too.
  const [entry] = await db
    .select({ id: creditEntries.id })
    .from(creditEntries)
    .where(eq(creditEntries.unitId, id))
    .limit(1);
  if (entry) throw unitConflict(unitsMessages.poolInUse);
  await db.transaction(async (tx) => {
    await tx.delete(units).where(eq(units.id, id));
    await recordAudit(tx, auditUnit(who, 'unit.delete', id, { name: unit.name, parent_id: unit.parent_id }));
  });
}

/** Names the levels; there must be at least as many as the tree is deep. */
export async function setLevels(db: Database, who: Who, levels: string[]): Promise<UnitsResponse> {
  mustEditTree(who);
  const [deepest] = await db.select({ depth: max(units.depth) }).from(units);
  const depth = Number(deepest?.depth ?? 0) + 1;
  if (levels.length < depth) throw unitConflict(unitsMessages.levelsInUse(depth), 'levels');
  const before = await levelsOf(db);
  await db.transaction(async (tx) => {
    await writeSetting(tx, 'unit_levels', levels, who.actor?.id);
    await recordAudit(tx, auditUnit(who, 'unit.levels', 'unit_levels', { from: before, to: levels }));
  });
  return readUnits(db, who);
}
