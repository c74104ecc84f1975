/**
 * A user's watches as stored: the one a caller owns, how many changes each has seen, how a watch and
 * its events are shown, and the audit row of a change to a watch.
 */

import { messages, type Watch, type WatchChanges, type WatchEvent } from '@footprint/domain';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { changes } from '../../access/policy.ts';
import type { Database, Executor } from '../../db/client.ts';
import { type UserRow, type WatchRow, watchEvents, watches } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';

const t = messages.watchlist;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The next scheduled run after a run at `stamp`: a day or a week later, unless the claim already set
 * a later one. A "run now" thus moves the schedule, rather than running again at the next tick.
 */
export const nextAfterRun = (stamp: string) =>
  sql`greatest(${watches.nextRunAt}, ${stamp}::timestamptz + case when ${watches.schedule} = 'daily' then interval '1 day' else interval '7 days' end)`;

export async function changeCounts(db: Database, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ watchId: watchEvents.watchId, n: count() })
    .from(watchEvents)
    .where(inArray(watchEvents.watchId, ids))
    .groupBy(watchEvents.watchId);
  return new Map(rows.map((row) => [row.watchId, Number(row.n)]));
}

export const presentWatch = (row: WatchRow, changes: number): Watch => ({
  id: row.id,
  kind: row.kind,
  query: row.query,
  query_typed: row.queryTyped,
  case_reference: row.caseReference,
  schedule: row.schedule,
  status: row.status,
  next_run_at: row.nextRunAt.toISOString(),
  last_run_at: row.lastRunAt?.toISOString() ?? null,
  last_lookup_id: row.lastLookupId,
  changes_count: changes,
  created_at: row.createdAt.toISOString(),
});

/** One watch as shown, with its count of changes. */
export const presentOne = async (db: Database, row: WatchRow) =>
  presentWatch(row, (await changeCounts(db, [row.id])).get(row.id) ?? 0);

export const presentEvent = (row: typeof watchEvents.$inferSelect, kind: WatchRow['kind']): WatchEvent => ({
  id: row.id,
  watch_id: row.watchId,
  kind,
  lookup_id: row.lookupId,
  run_at: row.runAt.toISOString(),
  changes: row.changes as WatchChanges,
  emailed_at: row.emailedAt?.toISOString() ?? null,
});

/**
 * The audit row of a change to a watch (made, changed, deleted, stopped for credits); the runs
 * themselves are audited by the paid search, with the watch's id.
 */
export const auditWatch = (
  executor: Executor,
  user: UserRow,
  client: ClientContext | null,
  action: string,
  row: WatchRow,
  details: Record<string, unknown> = {},
) =>
  recordAudit(executor, {
    action,
    outcome: 'success',
    user,
    client,
    target: row.id,
    caseReference: row.caseReference,
    details: { watch_id: row.id, kind: row.kind, query: row.query, schedule: row.schedule, ...details },
  });

/** The caller's watch, or a 404 (also for another user's id, and for an id that is not one). */
export async function ownWatch(db: Database, user: UserRow, id: string): Promise<WatchRow> {
  if (!UUID.test(id)) throw notFound(t.notFound);
  const [row] = await db
    .select()
    .from(watches)
    .where(and(eq(watches.id, id), changes(user, watches)));
  if (!row) throw notFound(t.notFound);
  return row;
}
