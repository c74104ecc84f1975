/**
 * A legal hold on a case: while it stands, the results of the case's searches (and the originals its
 * free repeats show) outlive every retention period (lookup/retention.ts `heldSql`). Placed and
 * released by the case's owner, a supervisor of the owner, or an admin (access policy `sharesCase`:
 * the same people who answer for the case beyond its owner); each change is audited with its reason.
 */
import { casesMessages } from '@footprint/domain';
import { and, eq, isNotNull } from 'drizzle-orm';
import { sharesCase } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { cases, type UserRow } from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { visibleCase } from './access.ts';
import { auditCase, type CasesContext } from './context.ts';
import { summaryOf } from './read.ts';

export async function placeHold(
  ctx: CasesContext,
  user: UserRow,
  id: string,
  reason: string,
  client: ClientContext,
) {
  const { db, now } = ctx;
  const { row, role } = await visibleCase(db, user, id);
  if (!sharesCase(role)) throw forbidden(casesMessages.holdNotAllowed);
  await db.transaction(async (tx) => {
    await tx
      .update(cases)
      .set({ legalHoldAt: now(), legalHoldBy: user.id, legalHoldReason: reason, updatedAt: now() })
      .where(eq(cases.id, row.id));
    await auditCase(tx, user, client, 'case.hold', row, { reason, renewed: row.legalHoldAt !== null });
  });
  return summaryOf(db as Database, user, row.id);
}

export async function releaseHold(ctx: CasesContext, user: UserRow, id: string, client: ClientContext) {
  const { db, now } = ctx;
  const { row, role } = await visibleCase(db, user, id);
  if (!sharesCase(role)) throw forbidden(casesMessages.holdNotAllowed);
  await db.transaction(async (tx) => {
    const released = await tx
      .update(cases)
      .set({ legalHoldAt: null, legalHoldBy: null, legalHoldReason: null, updatedAt: now() })
      .where(and(eq(cases.id, row.id), isNotNull(cases.legalHoldAt)))
      .returning({ id: cases.id });
    if (released.length === 0) throw notFound(casesMessages.notHeld);
    await auditCase(tx, user, client, 'case.release', row, { reason_was: row.legalHoldReason });
  });
  return summaryOf(db as Database, user, row.id);
}
