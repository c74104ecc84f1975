/** The searches filed under a case: listed with who ran them, and added by hand ("Add to case"). */
import { type CaseItem, casesMessages, isAnswered } from '@footprint/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { heldBy } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseItems, lookups, type UserRow, users } from '../../db/schema.ts';
import { closedCase, notFound, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { UUID, visibleCase } from './access.ts';
import { auditCase, type CasesContext, insertItem } from './context.ts';

export async function itemsOf(db: Database, caseId: string): Promise<CaseItem[]> {
  const runner = alias(users, 'runner');
  const original = alias(lookups, 'original');
  const rows = await db
    .select({
      lookup: {
        id: lookups.id,
        kind: lookups.kind,
        query: lookups.query,
        queryTyped: lookups.queryTyped,
        status: lookups.status,
        cost: lookups.cost,
        sandbox: lookups.sandbox,
        createdAt: lookups.createdAt,
      },
      kept: sql<boolean>`(${lookups.result} is not null or ${original.result} is not null)`.mapWith(Boolean),
      user: { id: runner.id, name: runner.name, email: runner.email },
      addedAt: caseItems.addedAt,
    })
    .from(caseItems)
    .innerJoin(lookups, eq(lookups.id, caseItems.lookupId))
    .leftJoin(original, eq(original.id, lookups.cacheOf))
    .innerJoin(runner, eq(runner.id, lookups.userId))
    .where(eq(caseItems.caseId, caseId))
    .orderBy(asc(lookups.createdAt));
  return rows.map(({ lookup, kept, user, addedAt }) => ({
    lookup_id: lookup.id,
    kind: lookup.kind,
    query: lookup.query,
    query_typed: lookup.queryTyped,
    status: lookup.status,
    cost: lookup.cost,
    sandbox: lookup.sandbox,
    user,
    created_at: lookup.createdAt.toISOString(),
    added_at: addedAt.toISOString(),
    result_available: kept && isAnswered(lookup.status),
  }));
}

/** The searches of a case the caller may see. */
export async function caseItemsOf(db: Database, user: UserRow, id: string): Promise<CaseItem[]> {
  const { row } = await visibleCase(db, user, id);
  return itemsOf(db, row.id);
}

/** Files one of the caller's own searches under a case they can see ("Add to case"). */
export async function addItem(
  ctx: CasesContext,
  user: UserRow,
  id: string,
  lookupId: string,
  client: ClientContext,
): Promise<CaseItem[]> {
  const { db } = ctx;
  const { row } = await visibleCase(db, user, id);
  if (row.status === 'closed') throw closedCase();
  const [lookup] = UUID.test(lookupId)
    ? await db
        .select({ id: lookups.id })
        .from(lookups)
        .where(and(eq(lookups.id, lookupId), heldBy(lookups, user.id)))
    : [];
  if (!lookup) throw notFound(casesMessages.lookupNotFound);
  await db.transaction(async (tx) => {
    if (!(await insertItem(ctx, tx, row.id, lookup.id, user.id))) {
      throw validationError({ lookup_id: [casesMessages.itemAlready] });
    }
    await auditCase(tx, user, client, 'case.item.add', row, { lookup_id: lookup.id });
  });
  return itemsOf(db, row.id);
}
