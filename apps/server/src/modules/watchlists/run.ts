/**
 * A watch's runs: one run (the tick's or the user's "run now"), searched through the paid search,
 * compared with the last run, stored as an event and e-mailed when it changed; the due watches claimed
 * and run by the tick; a watch the balance no longer covers stopped.
 */

import {
  comparable,
  diffSnapshots,
  hasChanges,
  keptSnapshot,
  LEAK_PAGE_SIZE,
  type LeakFieldType,
  leakSnapshot,
  lookupSnapshot,
  messages,
  readSnapshot,
  type WatchChanges,
  type WatchEvent,
  type WatchRun,
  type WatchRunOutcome,
  type WatchSnapshot,
} from '@footprint/domain';
import { and, asc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import { usesLiveFeatures } from '../../access/policy.ts';
import { type UserRow, users, type WatchRow, watchEvents, watches } from '../../db/schema.ts';
import { DomainError, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { logFailure } from '../../outage.ts';
import { watchChangedMail, watchStoppedMail } from '../mail/templates.ts';
import type { WatchContext } from './context.ts';
import { auditWatch, nextAfterRun, ownWatch, presentEvent, presentOne } from './stored.ts';

const t = messages.watchlist;

/** Who a scheduled run is attributed to besides its user: no browser asked, the watchlist did. */
const SCHEDULED: ClientContext = { ip: 'watchlist', deviceId: undefined, userAgent: 'Footprint watchlist' };

/** Due watches one tick claims at most; the rest wait for the next tick (a minute later). */
const CLAIM_BATCH = 25;

/** What one run did, and the event it stored when it saw a change. */
export interface RunResult {
  outcome: WatchRunOutcome;
  event: WatchEvent | null;
}

type LeakRows = Array<{ type: LeakFieldType; value: string }>;

/**
 * The rows a leak watch searches, read back from its stored key (leaks/query.ts `queryKey`): the key
 * holds each row normalized, which the leak search normalizes to the same key again.
 */
export function leakRowsOfKey(key: string): LeakRows {
  const parsed = JSON.parse(key) as Array<[LeakFieldType, string | string[]]>;
  return parsed.map(([type, value]) => ({ type, value: Array.isArray(value) ? value.join(' ') : value }));
}

const kindLabel = (kind: string) => t.kinds[kind] ?? kind;

/** The search of one run, through the paid search; its comparable facts and its lookup. */
export async function searchWatch(
  ctx: WatchContext,
  row: WatchRow,
  user: UserRow,
  client: ClientContext,
): Promise<{ snapshot: WatchSnapshot; lookupId: string }> {
  const auditDetails = { watch_id: row.id, via: 'watch' };
  if (row.kind === 'leak') {
    const answer = await ctx.deps.leaks.search(
      user,
      leakRowsOfKey(row.query),
      1,
      LEAK_PAGE_SIZE,
      client,
      row.caseReference,
      { fresh: true, auditDetails },
    );
    return { snapshot: leakSnapshot(answer), lookupId: answer.lookup_id };
  }
  // Phone, e-mail and username: the lookup; a username's facts are the sites that found it.
  const outcome = await ctx.deps.lookups.lookup(user, row.kind, row.query, client, row.caseReference, {
    fresh: true,
    typed: row.queryTyped,
    auditDetails,
  });
  return {
    snapshot: lookupSnapshot(row.kind, {
      payloads: outcome.payloads,
      errors: outcome.errors,
      status: outcome.status,
    }),
    lookupId: outcome.lookupId,
  };
}

/** Stops a watch the balance no longer covers; mails its user the first time only. */
export async function stopForCredits(ctx: WatchContext, row: WatchRow, user: UserRow): Promise<void> {
  const { db, deps } = ctx;
  const [stopped] = await db
    .update(watches)
    .set({ status: 'stopped_no_credits', lastRunAt: ctx.now() })
    .where(and(eq(watches.id, row.id), ne(watches.status, 'stopped_no_credits')))
    .returning({ id: watches.id });
  if (!stopped) return;
  await auditWatch(db, user, null, 'watch.stopped_no_credits', row);
  await deps.mailer
    .send(
      watchStoppedMail(user.email, user.name, `${kindLabel(row.kind)} ${row.queryTyped}`, ctx.watchlistUrl),
    )
    .catch((err) => logFailure(deps.log, err, { watchId: row.id }, 'watch stop e-mail failed'));
}

/** One run of one watch, whoever asked for it (the tick or the user's "run now"). */
export async function runWatch(
  ctx: WatchContext,
  watchId: string,
  client: ClientContext = SCHEDULED,
): Promise<RunResult> {
  const { db, deps, now } = ctx;
  const [found] = await db
    .select({ watch: watches, user: users })
    .from(watches)
    .innerJoin(users, eq(users.id, watches.userId))
    .where(eq(watches.id, watchId));
  if (!found) return { outcome: 'failed', event: null };
  const { watch: row, user } = found;
  // An account that can no longer search (disabled, or no longer live) is not charged in its absence.
  if (user.status !== 'active' || !usesLiveFeatures(user)) return { outcome: 'failed', event: null };
  // A kind the admin made wait for approval since the watch was made: paused, not run past the approval.
  if (await deps.needsApproval?.(row.kind)) {
    if (client !== SCHEDULED) throw validationError({ kind: [t.needsApproval(kindLabel(row.kind))] });
    await db.update(watches).set({ status: 'paused' }).where(eq(watches.id, row.id));
    await auditWatch(db, user, null, 'watch.paused_needs_approval', row);
    return { outcome: 'failed', event: null };
  }

  let ran: { snapshot: WatchSnapshot; lookupId: string };
  try {
    ran = await searchWatch(ctx, row, user, client);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'insufficient_credits') {
      await stopForCredits(ctx, row, user);
      return { outcome: 'stopped_no_credits', event: null };
    }
    // No source answered: the paid search refunded it, and an empty answer is not news.
    if (error instanceof DomainError && error.code === 'no_source_answered') {
      const at = now();
      await db
        .update(watches)
        .set({ lastRunAt: at, nextRunAt: nextAfterRun(at.toISOString()) })
        .where(eq(watches.id, row.id));
      return { outcome: 'no_source', event: null };
    }
    logFailure(deps.log, error, { watchId: row.id }, 'watch run failed');
    return { outcome: 'failed', event: null };
  }

  const runAt = now();
  const before = readSnapshot(row.lastSnapshot);
  // A snapshot read another way is not compared: this run takes the new baseline (watchlists.ts).
  const changes = before && comparable(before, ran.snapshot) ? diffSnapshots(before, ran.snapshot) : null;
  const event = await db.transaction(async (tx) => {
    let stored: typeof watchEvents.$inferSelect | undefined;
    if (changes && hasChanges(changes)) {
      // Keyed by the run's lookup: a retried job finds its event stored and does not mail twice.
      [stored] = await tx
        .insert(watchEvents)
        .values({ watchId: row.id, lookupId: ran.lookupId, runAt, changes })
        .onConflictDoNothing()
        .returning();
    }
    await tx
      .update(watches)
      .set({
        // A username's sites that could not say this run keep their accounts (watchlists.ts).
        lastSnapshot: keptSnapshot(before, ran.snapshot),
        lastLookupId: ran.lookupId,
        lastRunAt: runAt,
        nextRunAt: nextAfterRun(runAt.toISOString()),
      })
      .where(eq(watches.id, row.id));
    return stored;
  });
  if (!changes) return { outcome: 'baseline', event: null };
  if (!event) return { outcome: 'unchanged', event: null };

  try {
    await deps.mailer.send(
      watchChangedMail(user.email, user.name, {
        query: `${kindLabel(row.kind)} ${row.queryTyped}`,
        changes: event.changes as WatchChanges,
        link: ctx.watchlistUrl,
      }),
    );
    const [mailed] = await db
      .update(watchEvents)
      .set({ emailedAt: now() })
      .where(eq(watchEvents.id, event.id))
      .returning();
    return { outcome: 'changed', event: presentEvent(mailed ?? event, row.kind) };
  } catch (err) {
    logFailure(deps.log, err, { watchId: row.id }, 'watch change e-mail failed');
    return { outcome: 'changed', event: presentEvent(event, row.kind) };
  }
}

/**
 * Runs every active watch due at `at`. Each is claimed by moving its next run forward in the same
 * statement that picks it (`FOR UPDATE SKIP LOCKED`): two processes ticking at once never run one
 * watch for the same due time. A run that crashes after its claim waits for its next time.
 * Answers how many watches it ran.
 */
export async function runDueWatches(ctx: WatchContext, at: Date = ctx.now()): Promise<number> {
  const { db } = ctx;
  const stamp = at.toISOString();
  const due = db
    .select({ id: watches.id })
    .from(watches)
    .where(and(eq(watches.status, 'active'), lte(watches.nextRunAt, at)))
    .orderBy(asc(watches.nextRunAt))
    .limit(CLAIM_BATCH)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(watches)
    .set({
      nextRunAt: sql`${stamp}::timestamptz + case when ${watches.schedule} = 'daily' then interval '1 day' else interval '7 days' end`,
    })
    .where(and(inArray(watches.id, due), eq(watches.status, 'active'), lte(watches.nextRunAt, at)))
    .returning({ id: watches.id });
  for (const { id } of claimed) {
    await runWatch(ctx, id).catch((err) =>
      logFailure(ctx.deps.log, err, { watchId: id }, 'watch run failed'),
    );
  }
  return claimed.length;
}

/** "Run now": one run of the caller's watch, attributed to the caller's request. */
export async function runWatchNow(
  ctx: WatchContext,
  user: UserRow,
  id: string,
  client: ClientContext,
): Promise<WatchRun> {
  const { db } = ctx;
  const row = await ownWatch(db, user, id);
  // Moved past the next tick before it runs, so a tick cannot pick the same watch up meanwhile.
  await db
    .update(watches)
    .set({ nextRunAt: nextAfterRun(ctx.now().toISOString()) })
    .where(eq(watches.id, row.id));
  const result = await runWatch(ctx, row.id, client);
  const [after] = await db.select().from(watches).where(eq(watches.id, row.id));
  return { outcome: result.outcome, event: result.event, watch: await presentOne(db, after ?? row) };
}
