/** Reading cases: the caller's list, one case's summary, and a case whole (its detail page). */
import {
  type CaseDetail,
  type CaseItem,
  type CaseStatus,
  type CaseSummary,
  caseTimeline,
  type TimelineEntry,
} from '@footprint/domain';
import { desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { caseReach, caseRoleKnown, casesSeenBy, sharesCase } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseItems, cases, lookupDates, type UserRow, users } from '../../db/schema.ts';
import { caseNotFound, visibleCase } from './access.ts';
import { entitiesOfCase, readEntities } from './entities.ts';
import { itemsOf } from './items.ts';
import { membersOf } from './members.ts';
import { notesOf } from './notes.ts';
import { presentSummary } from './present.ts';
import { unitsOf } from './units.ts';

/** The summaries of the cases `where` selects, most recently active first, with the viewer's role in each. */
export async function summaries(
  db: Database,
  where: ReturnType<typeof sql>,
  viewer: UserRow,
): Promise<CaseSummary[]> {
  const owner = alias(users, 'owner');
  const holder = alias(users, 'hold_by');
  const rows = await db
    .select({
      row: cases,
      owner: { id: owner.id, name: owner.name, email: owner.email },
      holdBy: { id: holder.id, name: holder.name, email: holder.email },
      items: sql<number>`(select count(*)::int from ${caseItems} i where i.case_id = ${cases.id})`,
      reach: caseReach(viewer.id),
    })
    .from(cases)
    .innerJoin(owner, eq(owner.id, cases.ownerId))
    .leftJoin(holder, eq(holder.id, cases.legalHoldBy))
    .where(where)
    .orderBy(desc(cases.updatedAt));
  // The `where` of every caller selects only cases the viewer reaches, so each has a role.
  return rows.map(({ row, owner: o, items, reach, holdBy }) =>
    presentSummary(row, o, caseRoleKnown(viewer, row, reach) ?? 'admin', Number(items), holdBy),
  );
}

export async function summaryOf(db: Database, user: UserRow, id: string): Promise<CaseSummary> {
  const [summary] = await summaries(db, sql`${cases.id} = ${id}`, user);
  if (!summary) throw caseNotFound();
  const { role } = await visibleCase(db, user, id);
  return { ...summary, role };
}

/** The cases the user sees (access policy `casesSeenBy`), of one status when given. */
export async function listCases(db: Database, user: UserRow, status?: CaseStatus): Promise<CaseSummary[]> {
  const mine = casesSeenBy(user);
  return summaries(db, status ? sql`${mine} and ${cases.status} = ${status}` : mine, user);
}

/** The case's timeline: its searches and the dated facts their results hold (read by readEntities). */
export async function timelineOf(db: Database, caseId: string, items: CaseItem[]): Promise<TimelineEntry[]> {
  const facts = await db
    .select({
      at: lookupDates.at,
      label: lookupDates.label,
      source: lookupDates.source,
      lookup_id: lookupDates.lookupId,
    })
    .from(caseItems)
    .innerJoin(lookupDates, eq(lookupDates.lookupId, caseItems.lookupId))
    .where(eq(caseItems.caseId, caseId));
  return caseTimeline(items, facts);
}

/** A case the caller may see, whole: its summary, members, notes, searches, entities and timeline. */
export async function caseDetail(db: Database, user: UserRow, id: string): Promise<CaseDetail> {
  const { row } = await visibleCase(db, user, id);
  await readEntities(db, row.id);
  const itemsRead = itemsOf(db, row.id);
  const [summary, members, notes, items, entities, timeline, units] = await Promise.all([
    summaryOf(db, user, row.id),
    membersOf(db, row.id),
    notesOf(db, row.id),
    itemsRead,
    entitiesOfCase(db, user, row.id),
    itemsRead.then((items) => timelineOf(db, row.id, items)),
    unitsOf(db, row.id),
  ]);
  return { ...summary, members, notes, items, entities, timeline, units, shares: sharesCase(summary.role) };
}
