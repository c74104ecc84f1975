/**
 * Who belongs to a unit, and as what. Admins and the unit admins of a unit or a unit above it manage
 * its members (access policy `managesUnit`); its supervisors (and those above) may read them
 * (`readsUnit`); anyone else is answered as if the unit did not exist. A unit admin places only
 * people already in the units they manage, and never changes their own membership (the policy's
 * `placesMember`). Every account keeps at least one unit.
 */
import { type UnitMember, type UnitMembersResponse, type UnitRole, unitsMessages } from '@footprint/domain';
import { asc, eq, sql } from 'drizzle-orm';
import {
  administers,
  managesUnit,
  membershipRow,
  membershipsOf,
  placesMember,
  readsUnit,
} from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { unitMembers, users } from '../../db/schema.ts';
import { forbidden, notFound, unitConflict, validationError } from '../../errors.ts';
import { recordAudit } from '../audit/service.ts';
import { UUID, unitById, unitNotFound } from './tree.ts';
import { auditUnit, type Who } from './who.ts';

export const memberNotFound = () => notFound(unitsMessages.memberNotFound);

/** A unit's members with their roles and allowances, by name. */
export async function membersOf(db: Database, unitId: string): Promise<UnitMember[]> {
  const rows = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: unitMembers.role,
      addedAt: unitMembers.addedAt,
      allowance: unitMembers.monthlyAllowance,
      // A month other than this one counts for nothing: the allowance starts again each month (UTC).
      used: sql<number>`case when ${unitMembers.allowanceMonth} = date_trunc('month', now() at time zone 'UTC')::date
        then ${unitMembers.allowanceUsed} else 0 end`,
    })
    .from(unitMembers)
    .innerJoin(users, eq(users.id, unitMembers.userId))
    .where(eq(unitMembers.unitId, unitId))
    .orderBy(asc(users.name), asc(users.email));
  return rows.map((row) => ({
    user_id: row.userId,
    name: row.name,
    email: row.email,
    role: row.role as UnitRole,
    added_at: row.addedAt.toISOString(),
    monthly_allowance: row.allowance,
    used_this_month: Number(row.used),
  }));
}

/** Whether the caller may manage the unit's members; a caller who may not even read it gets 404. */
export async function access(db: Database, who: Who, unitId: string): Promise<{ manages: boolean }> {
  if (!UUID.test(unitId)) throw unitNotFound();
  if (!who.actor) return { manages: true };
  if (await managesUnit(db, who.actor, unitId)) return { manages: true };
  if (await readsUnit(db, who.actor, unitId)) return { manages: false };
  throw unitNotFound();
}

export async function mustManage(db: Database, who: Who, unitId: string): Promise<void> {
  const { manages } = await access(db, who, unitId);
  if (!manages) throw forbidden(unitsMessages.forbidden);
}

export async function readUnitMembers(db: Database, who: Who, unitId: string): Promise<UnitMembersResponse> {
  const { manages } = await access(db, who, unitId);
  const [unit, members] = await Promise.all([unitById(db, unitId), membersOf(db, unitId)]);
  return { unit, members, manages };
}

/** A unit admin (not an admin) changes only others' memberships, of people already in their units. */
export async function mustPlace(db: Database, who: Who, userId: string): Promise<void> {
  if (!who.actor) return;
  const placed = await placesMember(db, who.actor, userId);
  if (placed === 'self') throw forbidden(unitsMessages.ownMembership);
  if (placed === 'outside') throw forbidden(unitsMessages.outsideUnits);
}

/**
 * A member of a unit the caller manages is someone they may place, except themself: a unit admin
 * does not change their own membership (an admin or a unit admin above does).
 */
export function mustNotBeSelf(who: Who, userId: string): void {
  if (who.actor && !administers(who.actor) && who.actor.id === userId) {
    throw forbidden(unitsMessages.ownMembership);
  }
}

/** Adds a user (by e-mail) to the unit with a role, or changes the role they hold there. */
export async function addUnitMember(
  db: Database,
  who: Who,
  unitId: string,
  input: { email: string; role: UnitRole },
): Promise<UnitMember> {
  await mustManage(db, who, unitId);
  const [user] = await db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`);
  if (user?.status !== 'active') throw validationError({ email: [unitsMessages.memberUnknown] });
  await mustPlace(db, who, user.id);
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ role: unitMembers.role })
      .from(unitMembers)
      .where(membershipRow(unitId, user.id))
      .for('update');
    await tx
      .insert(unitMembers)
      .values({ unitId, userId: user.id, role: input.role, addedBy: who.actor?.id ?? null })
      .onConflictDoUpdate({ target: [unitMembers.unitId, unitMembers.userId], set: { role: input.role } });
    await recordAudit(
      tx,
      auditUnit(who, before ? 'unit.member.role' : 'unit.member.add', unitId, {
        member_id: user.id,
        member_email: input.email,
        role: input.role,
        ...(before ? { from: before.role } : {}),
      }),
    );
  });
  const member = (await membersOf(db, unitId)).find((m) => m.user_id === user.id);
  if (!member) throw memberNotFound();
  return member;
}

export async function changeUnitMember(
  db: Database,
  who: Who,
  unitId: string,
  userId: string,
  role: UnitRole,
): Promise<UnitMember> {
  await mustManage(db, who, unitId);
  if (!UUID.test(userId)) throw memberNotFound();
  mustNotBeSelf(who, userId);
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ role: unitMembers.role })
      .from(unitMembers)
      .where(membershipRow(unitId, userId))
      .for('update');
    if (!before) throw memberNotFound();
    await tx.update(unitMembers).set({ role }).where(membershipRow(unitId, userId));
    await recordAudit(
      tx,
      auditUnit(who, 'unit.member.role', unitId, { member_id: userId, role, from: before.role }),
    );
  });
  const member = (await membersOf(db, unitId)).find((m) => m.user_id === userId);
  if (!member) throw memberNotFound();
  return member;
}

export async function removeUnitMember(
  db: Database,
  who: Who,
  unitId: string,
  userId: string,
): Promise<void> {
  await mustManage(db, who, unitId);
  if (!UUID.test(userId)) throw memberNotFound();
  mustNotBeSelf(who, userId);
  await db.transaction(async (tx) => {
    // The user's memberships, locked: two removals at once cannot both leave them with none.
    const held = await tx
      .select({ unitId: unitMembers.unitId, role: unitMembers.role })
      .from(unitMembers)
      .where(membershipsOf(userId))
      .for('update');
    const here = held.find((m) => m.unitId === unitId);
    if (!here) throw memberNotFound();
    if (held.length === 1) throw unitConflict(unitsMessages.lastUnit);
    await tx.delete(unitMembers).where(membershipRow(unitId, userId));
    await recordAudit(
      tx,
      auditUnit(who, 'unit.member.remove', unitId, { member_id: userId, role: here.role }),
    );
  });
}
