import {
  type CreateWatchBody,
  diffSnapshots,
  hasChanges,
  LEAK_PAGE_SIZE,
  type LeakFieldType,
  leakRowError,
  leakSnapshot,
  leakTypedText,
  lookupSnapshot,
  MAX_WATCHES_PER_USER,
  messages,
  nextRunAfter,
  readSnapshot,
  type UpdateWatchBody,
  type Watch,
  type WatchChanges,
  type WatchEvent,
  type WatchRun,
  type WatchRunOutcome,
  type WatchSnapshot,
} from '@footprint/domain';
import { and, asc, count, desc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { type UserRow, users, type WatchRow, watchEvents, watches } from '../../db/schema.ts';
import { DomainError, notFound, tooManyWatches, validationError, watchExists } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { conditionOf, queryKey } from '../leaks/query.ts';
import type { LeakService } from '../leaks/service.ts';
import type { LookupService } from '../lookup/service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { watchChangedMail, watchStoppedMail } from '../mail/templates.ts';
import { requireCaseReference } from '../settings/case-reference.ts';

const t = messages.watchlist;

/** Who a scheduled run is attributed to besides its user: no browser asked, the watchlist did. */
const SCHEDULED: ClientContext = { ip: 'watchlist', deviceId: undefined, userAgent: 'Footprint watchlist' };

/** Due watches one tick claims at most; the rest wait for the next tick (a minute later). */
const CLAIM_BATCH = 25;

/**
 * The next scheduled run after a run at `stamp`: a day or a week later, unless the claim already set
 * a later one. A "run now" thus moves the schedule, rather than running again at the next tick.
 */
const nextAfterRun = (stamp: string) =>
  sql`greatest(${watches.nextRunAt}, ${stamp}::timestamptz + case when ${watches.schedule} = 'daily' then interval '1 day' else interval '7 days' end)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface WatchlistsDeps {
  db: Database;
  lookups: LookupService;
  leaks: LeakService;
  mailer: Mailer;
  /** Public address of the app, for the e-mails' link to /watchlist. */
  appUrl: string;
  now?: () => Date;
  /** Where a run that failed for another reason than credits or sources is reported. */
  log?: { error: (details: object, message: string) => void };
}

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

/**
 * Watchlists: a phone, e-mail or leak query run again on its schedule through the existing services,
 * so that each run is a paid search like any other (charged, audited with the watch's id, filed under
 * the case, asked afresh rather than replayed from the cache). Each run's comparable facts are
 * compared with the last run's (domain watchlists.ts); a change is stored as an event and e-mailed.
 * A run the balance does not cover stops the watch and says so once.
 *
 * The scheduling is not here: `runDue` is called by the job queue's tick (jobs.ts), and the routes
 * call `run` for "run now". Both are plain methods tests call directly.
 */
export function createWatchlists(deps: WatchlistsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const watchlistUrl = `${deps.appUrl.replace(/\/$/, '')}/watchlist`;

  const changeCounts = async (ids: string[]): Promise<Map<string, number>> => {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ watchId: watchEvents.watchId, n: count() })
      .from(watchEvents)
      .where(inArray(watchEvents.watchId, ids))
      .groupBy(watchEvents.watchId);
    return new Map(rows.map((row) => [row.watchId, Number(row.n)]));
  };

  const present = (row: WatchRow, changes: number): Watch => ({
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

  const presentOne = async (row: WatchRow) => present(row, (await changeCounts([row.id])).get(row.id) ?? 0);

  const presentEvent = (row: typeof watchEvents.$inferSelect, kind: WatchRow['kind']): WatchEvent => ({
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
  const audit = (
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
  async function own(user: UserRow, id: string): Promise<WatchRow> {
    if (!UUID.test(id)) throw notFound(t.notFound);
    const [row] = await db
      .select()
      .from(watches)
      .where(and(eq(watches.id, id), eq(watches.userId, user.id)));
    if (!row) throw notFound(t.notFound);
    return row;
  }

  /** The search of one run, through the paid search; its comparable facts and its lookup. */
  async function search(
    row: WatchRow,
    user: UserRow,
    client: ClientContext,
  ): Promise<{ snapshot: WatchSnapshot; lookupId: string }> {
    const auditDetails = { watch_id: row.id, via: 'watch' };
    if (row.kind === 'leak') {
      const answer = await deps.leaks.search(
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
    const outcome = await deps.lookups.lookup(user, row.kind, row.query, client, row.caseReference, {
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
  async function stopForCredits(row: WatchRow, user: UserRow): Promise<void> {
    const [stopped] = await db
      .update(watches)
      .set({ status: 'stopped_no_credits', lastRunAt: now() })
      .where(and(eq(watches.id, row.id), ne(watches.status, 'stopped_no_credits')))
      .returning({ id: watches.id });
    if (!stopped) return;
    await audit(db, user, null, 'watch.stopped_no_credits', row);
    await deps.mailer
      .send(watchStoppedMail(user.email, user.name, `${kindLabel(row.kind)} ${row.queryTyped}`, watchlistUrl))
      .catch((err) => deps.log?.error({ err, watchId: row.id }, 'watch stop e-mail failed'));
  }

  /** One run of one watch, whoever asked for it (the tick or the user's "run now"). */
  async function runOne(watchId: string, client: ClientContext = SCHEDULED): Promise<RunResult> {
    const [found] = await db
      .select({ watch: watches, user: users })
      .from(watches)
      .innerJoin(users, eq(users.id, watches.userId))
      .where(eq(watches.id, watchId));
    if (!found) return { outcome: 'failed', event: null };
    const { watch: row, user } = found;
    // An account that can no longer search (disabled, or no longer live) is not charged in its absence.
    if (user.status !== 'active' || user.appMode !== 'live') return { outcome: 'failed', event: null };

    let ran: { snapshot: WatchSnapshot; lookupId: string };
    try {
      ran = await search(row, user, client);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'insufficient_credits') {
        await stopForCredits(row, user);
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
      deps.log?.error({ err: error, watchId: row.id }, 'watch run failed');
      return { outcome: 'failed', event: null };
    }

    const runAt = now();
    const before = readSnapshot(row.lastSnapshot);
    const changes = before ? diffSnapshots(before, ran.snapshot) : null;
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
          lastSnapshot: ran.snapshot,
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
          link: watchlistUrl,
        }),
      );
      const [mailed] = await db
        .update(watchEvents)
        .set({ emailedAt: now() })
        .where(eq(watchEvents.id, event.id))
        .returning();
      return { outcome: 'changed', event: presentEvent(mailed ?? event, row.kind) };
    } catch (err) {
      deps.log?.error({ err, watchId: row.id }, 'watch change e-mail failed');
      return { outcome: 'changed', event: presentEvent(event, row.kind) };
    }
  }

  return {
    runOne,

    /**
     * Runs every active watch due at `at`. Each is claimed by moving its next run forward in the same
     * statement that picks it (`FOR UPDATE SKIP LOCKED`): two processes ticking at once never run one
     * watch for the same due time. A run that crashes after its claim waits for its next time.
     * Answers how many watches it ran.
     */
    async runDue(at: Date = now()): Promise<number> {
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
        await runOne(id).catch((err) => deps.log?.error({ err, watchId: id }, 'watch run failed'));
      }
      return claimed.length;
    },

    async create(user: UserRow, input: CreateWatchBody, client: ClientContext): Promise<Watch> {
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
      const caseReference = await requireCaseReference(db, input.case_reference);
      const [held] = await db.select({ n: count() }).from(watches).where(eq(watches.userId, user.id));
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
          nextRunAt: now(),
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw watchExists();
      await audit(db, user, client, 'watch.create', row);
      return present(row, 0);
    },

    async list(user: UserRow): Promise<Watch[]> {
      const rows = await db
        .select()
        .from(watches)
        .where(eq(watches.userId, user.id))
        .orderBy(desc(watches.createdAt));
      const counts = await changeCounts(rows.map((row) => row.id));
      return rows.map((row) => present(row, counts.get(row.id) ?? 0));
    },

    /**
     * A new schedule takes effect from the last run; resuming (from paused, or stopped for credits
     * after a top-up) runs at the next tick when the watch is overdue.
     */
    async update(user: UserRow, id: string, input: UpdateWatchBody, client: ClientContext): Promise<Watch> {
      const row = await own(user, id);
      const set: Partial<typeof watches.$inferInsert> = {};
      if (input.schedule && input.schedule !== row.schedule) {
        set.schedule = input.schedule;
        set.nextRunAt = row.lastRunAt ? nextRunAfter(row.lastRunAt, input.schedule) : row.nextRunAt;
      }
      if (input.status && input.status !== row.status) {
        set.status = input.status;
        if (input.status === 'active' && row.status === 'stopped_no_credits') set.nextRunAt = now();
      }
      if (Object.keys(set).length === 0) return presentOne(row);
      const [updated] = await db.update(watches).set(set).where(eq(watches.id, row.id)).returning();
      await audit(db, user, client, 'watch.update', updated ?? row, {
        ...(set.schedule ? { schedule: set.schedule, schedule_before: row.schedule } : {}),
        ...(set.status ? { status: set.status, status_before: row.status } : {}),
      });
      return presentOne(updated ?? row);
    },

    async remove(user: UserRow, id: string, client: ClientContext): Promise<void> {
      const row = await own(user, id);
      await db.transaction(async (tx) => {
        await tx.delete(watches).where(eq(watches.id, row.id));
        await audit(tx, user, client, 'watch.delete', row);
      });
    },

    async events(user: UserRow, id: string): Promise<WatchEvent[]> {
      const row = await own(user, id);
      const rows = await db
        .select()
        .from(watchEvents)
        .where(eq(watchEvents.watchId, row.id))
        .orderBy(desc(watchEvents.runAt))
        .limit(200);
      return rows.map((event) => presentEvent(event, row.kind));
    },

    /** "Run now": one run of the caller's watch, attributed to the caller's request. */
    async run(user: UserRow, id: string, client: ClientContext): Promise<WatchRun> {
      const row = await own(user, id);
      // Moved past the next tick before it runs, so a tick cannot pick the same watch up meanwhile.
      await db
        .update(watches)
        .set({ nextRunAt: nextAfterRun(now().toISOString()) })
        .where(eq(watches.id, row.id));
      const result = await runOne(row.id, client);
      const [after] = await db.select().from(watches).where(eq(watches.id, row.id));
      return { outcome: result.outcome, event: result.event, watch: await presentOne(after ?? row) };
    },
  };
}

export type Watchlists = ReturnType<typeof createWatchlists>;
