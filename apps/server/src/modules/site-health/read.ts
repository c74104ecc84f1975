/** What the admin screen reads: each site's standing, its precision over 30 days, the last run. */
import type { CatalogueSite, SiteHealthResponse } from '@footprint/domain';
import { and, desc, gte, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { siteHealth, siteSelfCheckRuns, siteSelfChecks } from '../../db/schema.ts';
import { type PrecisionRow, presentRun, presentSite } from './present.ts';

const DAY_MS = 86_400_000;
/** A run not finished after this long was left by a process that stopped: not running any more. */
export const RUN_LOST_AFTER_MS = 6 * 3_600_000;

/** The latest run, if any. */
export async function latestRun(db: Executor) {
  const [run] = await db.select().from(siteSelfCheckRuns).orderBy(desc(siteSelfCheckRuns.startedAt)).limit(1);
  return run;
}

/** The latest finished run that checked at least `sites` sites (a run cut short checked fewer). */
export async function latestCompleteRun(db: Executor, sites: number) {
  const [run] = await db
    .select()
    .from(siteSelfCheckRuns)
    .where(and(isNotNull(siteSelfCheckRuns.finishedAt), gte(siteSelfCheckRuns.sites, sites)))
    .orderBy(desc(siteSelfCheckRuns.startedAt))
    .limit(1);
  return run;
}

/** Per site, the runs of the last 30 days that said something about its check, and those it passed. */
async function precisionOf(db: Executor, now: Date): Promise<Map<string, PrecisionRow>> {
  const rows = await db
    .select({
      siteId: siteSelfChecks.siteId,
      runs: sql<number>`(count(*) filter (where ${siteSelfChecks.outcome} in ('passed', 'failed')))::int`,
      passed: sql<number>`(count(*) filter (where ${siteSelfChecks.outcome} = 'passed'))::int`,
    })
    .from(siteSelfChecks)
    .where(gte(siteSelfChecks.checkedAt, new Date(now.getTime() - 30 * DAY_MS)))
    .groupBy(siteSelfChecks.siteId);
  return new Map(rows.map((row) => [row.siteId, { runs: Number(row.runs), passed: Number(row.passed) }]));
}

export async function readSiteHealth(
  db: Executor,
  options: { sites: readonly CatalogueSite[] | undefined; scheduleHours: number; now: Date },
): Promise<SiteHealthResponse> {
  const sites = options.sites ?? [];
  const [standing, precision, run] = await Promise.all([
    db.select().from(siteHealth),
    precisionOf(db, options.now),
    latestRun(db),
  ]);
  const byId = new Map(standing.map((row) => [row.siteId, row]));
  const lines = sites.map((site) => presentSite(site, byId.get(site.id), precision.get(site.id)));
  lines.sort((a, b) => a.name.localeCompare(b.name));
  const count = (state: string) => lines.filter((line) => line.state === state).length;
  return {
    enabled: options.sites !== undefined,
    schedule_hours: options.sites ? options.scheduleHours : 0,
    running:
      run !== undefined &&
      run.finishedAt === null &&
      options.now.getTime() - run.startedAt.getTime() < RUN_LOST_AFTER_MS,
    last_run: run ? presentRun(run) : null,
    totals: {
      sites: lines.length,
      ok: count('ok'),
      quarantined: count('quarantined'),
      blocked: count('blocked'),
      unchecked: count('unchecked'),
    },
    sites: lines,
  };
}
