/**
 * A user's watches as they manage them: made (the query checked like its search's), listed, changed,
 * deleted, and the changes each has seen.
 */

import {
  type CreateWatchBody,
  leakRowError,
  leakTypedText,
  MAX_WATCHES_PER_USER,
  messages,
  nextRunAfter,
  type UpdateWatchBody,
  type Watch,
  type WatchEvent,
} from '@footprint/domain';
import { count, desc, eq } from 'drizzle-orm';
import { heldBy, type ListScope, lists } from '../../access/policy.ts';
import { type UserRow, watchEvents, watches } from '../../db/schema.ts';
import { tooManyWatches, validationError, watchExists } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { conditionOf, queryKey } from '../leaks/query.ts';
import { requireCaseReference } from '../settings/case-reference.ts';
import { namingOthers } from '../users/people.ts';
import type { WatchContext } from './context.ts';
import { auditWatch, changeCounts, ownWatch, presentEvent, presentOne, presentWatch } from './stored.ts';

/** A watch of a kind that waits for approval is refused (422): its runs would not wait. */
async function refuseSensitive(ctx: WatchContext, kind: string): Promise<void> {
  if (!(await ctx.deps.needsApproval?.(kind))) return;
  const message = messages.watchlist.needsApproval(messages.watchlist.kinds[kind] ?? kind);
  throw validationError({ kind: [message] }, message);
}

export async function createWatch(
  ctx: WatchContext,
  user: UserRow,
  input: CreateWatchBody,
  client: ClientContext,
): Promise<Watch> {
  const { db } = ctx;
  let query: string;
  let queryTyped: string;
  if (input.kind === 'leak') {
    // The leak search's own checks, with its messages.
    const rows = input.query.map((row) => ({ type: row.type, value: row.value }));
    const rowErrors = rows.map((row) => leakRowError(row.type, row.value));
    const firstError = rowErrors.find((e): e is string => e !== null);
    if (firstError) throw validationError({ query: [firstError] }, firstError);
    query = queryKey(rows.map((row) => conditionOf(row.type, row.value)));
    queryTyped = leakTypedText(rows);
  } else {
    query = input.query;
    queryTyped = input.query;
  }
  await refuseSensitive(ctx, input.kind);
  const caseReference = await requireCaseReference(db, input.case_reference);
  const [held] = await db.select({ n: count() }).from(watches).where(heldBy(watches, user.id));
  if (Number(held?.n ?? 0) >= MAX_WATCHES_PER_USER) {
    throw tooManyWatches(MAX_WATCHES_PER_USER);
  }
  const [row] = await db
    .insert(watches)
    .values({
      userId: user.id,
      kind: input.kind,
      query,
      queryTyped,
      caseReference,
      schedule: input.schedule,
      // The first run (the baseline) at the next tick.
      nextRunAt: ctx.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw watchExists();
  await auditWatch(db, user, client, 'watch.create', row);
  return presentWatch(row, 0);
}

/** The user's watches; with scope `unit`, those of everyone in the units they supervise too, named. */
export async function listWatches(
  ctx: WatchContext,
  user: UserRow,
  scope: ListScope = 'mine',
): Promise<Watch[]> {
  const rows = await ctx.db
    .select()
    .from(watches)
    .where(lists(user, watches, scope))
    .orderBy(desc(watches.createdAt));
  const counts = await changeCounts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return namingOthers(
    ctx.db,
    user,
    rows.map((row) => ({ row, shown: presentWatch(row, counts.get(row.id) ?? 0) })),
  );
}

/**
 * A new schedule takes effect from the last run; resuming (from paused, or stopped for credits
 * after a top-up) runs at the next tick when the watch is overdue.
 */
export async function updateWatch(
  ctx: WatchContext,
  user: UserRow,
  id: string,
  input: UpdateWatchBody,
  client: ClientContext,
): Promise<Watch> {
  const { db } = ctx;
  const row = await ownWatch(db, user, id);
  const set: Partial<typeof watches.$inferInsert> = {};
  if (input.schedule && input.schedule !== row.schedule) {
    set.schedule = input.schedule;
    set.nextRunAt = row.lastRunAt ? nextRunAfter(row.lastRunAt, input.schedule) : row.nextRunAt;
  }
  if (input.status && input.status !== row.status) {
    if (input.status === 'active') await refuseSensitive(ctx, row.kind);
    set.status = input.status;
    if (input.status === 'active' && row.status === 'stopped_no_credits') set.nextRunAt = ctx.now();
  }
  if (Object.keys(set).length === 0) return presentOne(db, row);
  const [updated] = await db.update(watches).set(set).where(eq(watches.id, row.id)).returning();
  await auditWatch(db, user, client, 'watch.update', updated ?? row, {
    ...(set.schedule ? { schedule: set.schedule, schedule_before: row.schedule } : {}),
    ...(set.status ? { status: set.status, status_before: row.status } : {}),
  });
  return presentOne(db, updated ?? row);
}

export async function removeWatch(
  ctx: WatchContext,
  user: UserRow,
  id: string,
  client: ClientContext,
): Promise<void> {
  const row = await ownWatch(ctx.db, user, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(watches).where(eq(watches.id, row.id));
    await auditWatch(tx, user, client, 'watch.delete', row);
  });
}

/** The changes the caller's watch has seen, newest first (the latest 200). */
export async function watchEventsOf(ctx: WatchContext, user: UserRow, id: string): Promise<WatchEvent[]> {
  const row = await ownWatch(ctx.db, user, id);
  const rows = await ctx.db
    .select()
    .from(watchEvents)
    .where(eq(watchEvents.watchId, row.id))
    .orderBy(desc(watchEvents.runAt))
    .limit(200);
  return rows.map((event) => presentEvent(event, row.kind));
}
