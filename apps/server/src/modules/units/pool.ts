/**
 * A unit's credit pool (issue 34): the unit holds credits, each member may draw up to a monthly
 * allowance from them, and the ledger says which pool paid (modules/credits, footprint_charge_lookups).
 * Admins top up or deduct a pool; admins and the unit admins of the unit or a unit above set the
 * allowances (never their own); those and its supervisors read the pool's statement, whole or one
 * member's. Every change is audited.
 */
import { type UnitMember, type UnitPool, unitsMessages } from '@footprint/domain';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { administers, heldBy, membershipRow } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { creditEntries, unitMembers, units, users } from '../../db/schema.ts';
import { forbidden, unitConflict } from '../../errors.ts';
import { recordAudit } from '../audit/service.ts';
import { presentLedgerEntry } from '../credits/present.ts';
import { applyPoolChange, PoolTooSmallError, setMonthlyAllowance } from '../credits/service.ts';
import { peopleByIds } from '../users/people.ts';
import { access, memberNotFound, membersOf, mustManage, mustPlace } from './members.ts';
import { UUID, unitById } from './tree.ts';
import { auditUnit, type Who } from './who.ts';

const tops = (who: Who) => !who.actor || administers(who.actor);

/** The pool's balance, its members' allowances and its ledger, newest first (or one member's rows). */
export async function readUnitPool(
  db: Database,
  who: Who,
  unitId: string,
  query: { page: number; per_page: number; user?: string | undefined },
): Promise<UnitPool> {
  const { manages } = await access(db, who, unitId);
  let rows: SQL = eq(creditEntries.unitId, unitId);
  if (query.user !== undefined) {
    if (!UUID.test(query.user)) throw memberNotFound();
    rows = and(rows, heldBy(creditEntries, query.user)) as SQL;
  }
  const [unit, members, entries, [counted], [pool]] = await Promise.all([
    unitById(db, unitId),
    membersOf(db, unitId),
    db
      .select()
      .from(creditEntries)
      .where(rows)
      .orderBy(desc(creditEntries.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db.select({ n: count() }).from(creditEntries).where(rows),
    db.select({ credits: units.credits }).from(units).where(eq(units.id, unitId)),
  ]);
  // Whose search each row charged or refunded (a top-up names nobody).
  const people = await peopleByIds(
    db,
    entries.flatMap((entry) => (entry.userId ? [entry.userId] : [])),
  );
  return {
    unit,
    balance: pool?.credits ?? 0,
    members,
    tops_up: tops(who),
    sets_allowances: manages,
    data: entries.map((entry) => {
      const person = entry.userId ? people.get(entry.userId) : undefined;
      return { ...presentLedgerEntry(entry, unit.name), ...(person ? { user: person } : {}) };
    }),
    total: Number(counted?.n ?? 0),
    page: query.page,
    per_page: query.per_page,
  };
}

/** Tops up (amount > 0) or deducts (amount < 0) the pool, with its ledger row and audit row (admins). */
export async function changeUnitPool(
  db: Database,
  who: Who,
  unitId: string,
  input: { amount: number; reason: string },
): Promise<UnitPool> {
  await access(db, who, unitId);
  if (!tops(who)) throw forbidden(unitsMessages.poolAdminOnly);
  await db.transaction(async (tx) => {
    const grant = input.amount > 0;
    let balance: number;
    try {
      balance = await applyPoolChange(tx, {
        unitId,
        delta: input.amount,
        kind: grant ? 'grant' : 'adjustment',
        reason: input.reason,
        actorId: who.actor?.id ?? null,
      });
    } catch (error) {
      if (error instanceof PoolTooSmallError)
        throw unitConflict(unitsMessages.poolTooSmall(error.balance), 'amount');
      throw error;
    }
    await recordAudit(
      tx,
      auditUnit(who, grant ? 'unit.credits.grant' : 'unit.credits.deduct', unitId, {
        amount: input.amount,
        reason: input.reason,
        balance_after: balance,
      }),
    );
  });
  return readUnitPool(db, who, unitId, { page: 1, per_page: 20 });
}

/** Sets what a member may draw from the pool a month (admins, unit admins; never one's own). */
export async function setMemberAllowance(
  db: Database,
  who: Who,
  unitId: string,
  userId: string,
  allowance: number,
): Promise<UnitMember> {
  await mustManage(db, who, unitId);
  if (!UUID.test(userId)) throw memberNotFound();
  if (who.actor && !administers(who.actor) && who.actor.id === userId) {
    throw forbidden(unitsMessages.ownAllowance);
  }
  await mustPlace(db, who, userId);
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ allowance: unitMembers.monthlyAllowance, email: users.email })
      .from(unitMembers)
      .innerJoin(users, eq(users.id, unitMembers.userId))
      .where(membershipRow(unitId, userId))
      .for('update', { of: unitMembers });
    if (!before) throw memberNotFound();
    await setMonthlyAllowance(tx, unitId, userId, allowance);
    await recordAudit(
      tx,
      auditUnit(who, 'unit.member.allowance', unitId, {
        member_id: userId,
        member_email: before.email,
        monthly_allowance: allowance,
        from: before.allowance,
      }),
    );
  });
  const member = (await membersOf(db, unitId)).find((m) => m.user_id === userId);
  if (!member) throw memberNotFound();
  return member;
}
