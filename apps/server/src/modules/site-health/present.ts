/** What leaves the server about the catalogue's self-check: snake_case keys, ISO times. */
import type { CatalogueSite, SelfCheckRun, SiteHealthSite, SiteHealthState } from '@footprint/domain';
import type { siteHealth, siteSelfCheckRuns } from '../../db/schema.ts';

type StandingRow = typeof siteHealth.$inferSelect;
type RunRow = typeof siteSelfCheckRuns.$inferSelect;
export interface PrecisionRow {
  runs: number;
  passed: number;
}

const iso = (at: Date | null | undefined) => (at ? at.toISOString() : null);

/** quarantined while failing; else what its last run said (blocked, or ok once it has passed). */
export function stateOf(row: StandingRow | undefined): SiteHealthState {
  if (!row) return 'unchecked';
  if (row.failingSince) return 'quarantined';
  if (row.lastOutcome === 'blocked') return 'blocked';
  if (row.lastOutcome === 'passed' || row.lastPassedAt) return 'ok';
  return 'unchecked';
}

export function presentSite(
  site: CatalogueSite,
  row: StandingRow | undefined,
  precision: PrecisionRow | undefined,
): SiteHealthSite {
  const runs = precision?.runs ?? 0;
  const passed = precision?.passed ?? 0;
  return {
    id: site.id,
    name: site.name,
    category: site.category,
    india: site.india,
    state: stateOf(row),
    failing_since: iso(row?.failingSince),
    last_checked_at: iso(row?.lastCheckedAt),
    last_passed_at: iso(row?.lastPassedAt),
    last_outcome: row?.lastOutcome ?? null,
    last_reason: row?.lastReason ?? null,
    runs_30d: runs,
    passed_30d: passed,
    precision_30d: runs > 0 ? passed / runs : null,
  };
}

export const presentRun = (run: RunRow): SelfCheckRun => ({
  id: run.id,
  trigger: run.trigger,
  started_at: run.startedAt.toISOString(),
  finished_at: iso(run.finishedAt),
  sites: run.sites,
  passed: run.passed,
  failed: run.failed,
  blocked: run.blocked,
  skipped: run.skipped,
});
