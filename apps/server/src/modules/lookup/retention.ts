import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { logFailure } from '../../outage.ts';
import { recordAudit } from '../audit/service.ts';
import { type DeploymentDefaults, readDeploymentSettings } from '../settings/service.ts';

const DAY_MS = 86_400_000;

/** The oldest moment a stored result may come from and still be kept. */
export const retentionCutoff = (now: Date, retentionDays: number) =>
  new Date(now.getTime() - retentionDays * DAY_MS);

export interface PurgeResult {
  purged: number;
  retentionDays: number;
  cutoff: Date;
}

/**
 * True, in a query over `lookups` aliased `l`, for a result a legal hold keeps: the search is filed
 * under a held case, or a search filed there reused it (a free repeat shows its original's result).
 */
export const heldSql = (lookupId: SQL | string = sql.raw('l.id')) => sql`exists (
  select 1 from case_items ci
  join cases c on c.id = ci.case_id and c.legal_hold_at is not null
  join lookups x on x.id = ci.lookup_id
  where x.id = ${lookupId} or x.cache_of = ${lookupId})`;

/**
 * Removes stored lookup results past their retention period. The deployment's period (the admin
 * setting lookup_retention_days, else LOOKUP_RETENTION_DAYS) is the ceiling; a unit may keep its
 * members' results for less (units.retention_days), and a result is kept for the shortest period of
 * its searcher's units. A result a legal hold keeps (`heldSql`) stays, whatever its age, until the
 * hold is released. The lookups rows stay (who searched what, when, at what cost) and so does the
 * audit trail, which no retention setting touches; only `result` goes, and `result_purged_at` says
 * when; the entities and dates a case read from it (lookup_entities, lookup_dates) go too. Works in
 * batches so no statement holds many row locks, and skips rows another purge holds.
 */
export async function purgeExpiredResults(
  db: Executor,
  defaults: DeploymentDefaults,
  options: { now?: Date; batchSize?: number; retentionDays?: number } = {},
): Promise<PurgeResult> {
  const now = options.now ?? new Date();
  const retentionDays =
    options.retentionDays ?? (await readDeploymentSettings(db, defaults)).lookupRetentionDays;
  const cutoff = retentionCutoff(now, retentionDays);
  // The shortest period any unit keeps: nothing younger than that is due, so the purge's index
  // (lookups_result_kept_idx) bounds the rows each batch looks at.
  const [shortest] = rowsOf<{ days: number | null }>(
    await db.execute(sql`select min(retention_days)::int as days from units`),
  );
  const earliest = retentionCutoff(now, Math.min(retentionDays, shortest?.days ?? retentionDays));
  const batchSize = options.batchSize ?? 1000;
  let purged = 0;
  for (;;) {
    const rows = rowsOf<{ id: string }>(
      await db.execute(sql`
        with kept_for as (
          -- Of each searcher's units, the shortest period, never past the deployment's.
          select m.user_id, min(least(coalesce(u.retention_days, ${retentionDays}), ${retentionDays})) as days
          from unit_members m join units u on u.id = m.unit_id
          group by m.user_id
        ), due as (
          select l.id from lookups l
          left join kept_for k on k.user_id = l.user_id
          where l.result is not null and l.created_at < ${earliest.toISOString()}::timestamptz
            and l.created_at < ${now.toISOString()}::timestamptz
              - make_interval(days => coalesce(k.days, ${retentionDays})::int)
            and not ${heldSql()}
          order by l.created_at
          limit ${batchSize}
          for update of l skip locked
        ), purged as (
          update lookups l set result = null, result_purged_at = ${now.toISOString()}::timestamptz
          from due where l.id = due.id
          returning l.id
        ), entities as (
          -- The identifiers a case read out of the result go with it.
          delete from lookup_entities e using purged where e.lookup_id = purged.id
        ), dates as (
          -- And so do the dated facts its case timeline read.
          delete from lookup_dates d using purged where d.lookup_id = purged.id
        )
        select id from purged
      `),
    );
    purged += rows.length;
    if (rows.length < batchSize) break;
  }
  return { purged, retentionDays, cutoff };
}

/**
 * Runs the purge every `intervalMinutes` (first run a minute after start). The timer is unref'd:
 * it never keeps the process alive. Returns the function that stops it.
 */
export function schedulePurge(
  db: Executor,
  defaults: DeploymentDefaults,
  intervalMinutes: number,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
  firstRunMs = Math.min(60_000, intervalMinutes * 60_000),
): () => void {
  if (intervalMinutes <= 0) return () => {};
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const result = await purgeExpiredResults(db, defaults);
      if (result.purged > 0) {
        // When stored results were deleted is itself a fact an oversight request may ask about.
        await recordAudit(db, {
          action: 'system.lookups.purge',
          outcome: 'success',
          user: { id: null, email: 'system' },
          target: 'lookups',
          details: {
            purged: result.purged,
            retention_days: result.retentionDays,
            cutoff: result.cutoff.toISOString(),
          },
        });
        log.info(
          { purged: result.purged, retentionDays: result.retentionDays },
          'purged stored lookup results past retention',
        );
      }
    } catch (err) {
      logFailure(log, err, {}, 'lookup result purge failed');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), firstRunMs);
  const every = setInterval(() => void run(), intervalMinutes * 60_000);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
