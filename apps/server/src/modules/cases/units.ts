/**
 * The units a case is shared with: listed on the case, shared and unshared by its owner, a supervisor
 * of the owner, or an admin (access policy `sharesCase`). Members of the unit, and of the units below
 * it, then see the case (`casesSeenBy`).
 */
import { unitsMessages } from '@footprint/domain';
import { and, asc, eq } from 'drizzle-orm';
import { sharesCase } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseUnits, type UserRow, units } from '../../db/schema.ts';
import { forbidden, notFound, unitConflict, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { UUID, visibleCase } from './access.ts';
import { auditCase, type CasesContext, touchCase } from './context.ts';

export async function unitsOf(db: Database, caseId: string) {
  const rows = await db
    .select({ unitId: caseUnits.unitId, unitName: units.name, sharedAt: caseUnits.sharedAt })
    .from(caseUnits)
    .innerJoin(units, eq(units.id, caseUnits.unitId))
    .where(eq(caseUnits.caseId, caseId))
    .orderBy(asc(caseUnits.sharedAt));
  return rows.map((row) => ({
    unit_id: row.unitId,
    unit_name: row.unitName,
    shared_at: row.sharedAt.toISOString(),
  }));
}

export async function shareWithUnit(
  ctx: CasesContext,
  user: UserRow,
  id: string,
  unitId: string,
  client: ClientContext,
) {
  const { db, now } = ctx;
  const { row, role } = await visibleCase(db, user, id);
  if (!sharesCase(role)) throw forbidden(unitsMessages.shareNotAllowed);
  const [unit] = await db
    .select({ id: units.id, name: units.name, isDefault: units.isDefault })
    .from(units)
    .where(eq(units.id, unitId));
  if (!unit) throw validationError({ unit_id: [unitsMessages.notFound] });
  if (unit.isDefault) throw validationError({ unit_id: [unitsMessages.shareDefault] });
  const sharedAt = now();
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(caseUnits)
      .values({ caseId: row.id, unitId: unit.id, sharedBy: user.id, sharedAt })
      .onConflictDoNothing()
      .returning({ unitId: caseUnits.unitId });
    if (added.length === 0) throw unitConflict(unitsMessages.shareAlready, 'unit_id');
    await touchCase(ctx, tx, row.id);
    await auditCase(tx, user, client, 'case.unit.share', row, { unit_id: unit.id, unit_name: unit.name });
  });
  return { unit_id: unit.id, unit_name: unit.name, shared_at: sharedAt.toISOString() };
}

export async function unshareWithUnit(
  ctx: CasesContext,
  user: UserRow,
  id: string,
  unitId: string,
  client: ClientContext,
): Promise<void> {
  const { db } = ctx;
  const { row, role } = await visibleCase(db, user, id);
  if (!sharesCase(role)) throw forbidden(unitsMessages.shareNotAllowed);
  if (!UUID.test(unitId)) throw notFound(unitsMessages.shareNotFound);
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(caseUnits)
      .where(and(eq(caseUnits.caseId, row.id), eq(caseUnits.unitId, unitId)))
      .returning({ unitId: caseUnits.unitId });
    if (removed.length === 0) throw notFound(unitsMessages.shareNotFound);
    await touchCase(ctx, tx, row.id);
    await auditCase(tx, user, client, 'case.unit.unshare', row, { unit_id: unitId });
  });
}
