/**
 * The catalogue's self-check: every site is asked for its known username (`claimed`, must be found) and
 * for a name that cannot exist (must not be). Both right: passed, and a quarantine is lifted. Either
 * wrong (or an error): failed, and the site is quarantined from the first failure on (`failing_since`
 * kept while it keeps failing). A WAF, challenge or 429 on either says nothing about the check: the run
 * is `blocked` and the site's standing stays as it was. A site whose own pattern refuses every name we
 * could make up is `skipped`.
 *
 * The requests go through the process's one fetcher, so the lookups' politeness (one request at a time
 * per site, the interval, the global cap, the 429 holds) covers them too.
 */
import { randomInt } from 'node:crypto';
import type { CatalogueSite, SelfCheckOutcome, SiteCheck } from '@footprint/domain';
import { eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { siteHealth, siteSelfCheckRuns, siteSelfChecks } from '../../db/schema.ts';
import { siteAllows } from '../../providers/sites/catalogue.ts';
import { checkUsername } from '../../providers/sites/run.ts';
import type { SiteFetcher } from '../../providers/sites/types.ts';

/** Sites checked at once by one run: the fetcher's global cap still applies, so lookups keep a share. */
export const SELF_CHECK_CONCURRENCY = 8;
/** How long a site's results are kept. */
export const SELF_CHECK_KEEP_DAYS = 90;
const DAY_MS = 86_400_000;

export interface SiteVerdict {
  siteId: string;
  checkedAt: Date;
  claimedState: SiteCheck['state'] | null;
  unclaimedState: SiteCheck['state'] | null;
  outcome: SelfCheckOutcome;
  reason: string | null;
}

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyz0123456789', 'abcdefghijklmnopqrstuvwxyz', '0123456789'];

const randomFrom = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

/**
 * A name no one holds on the site: `fp` and 16 random letters or digits; for a site whose pattern
 * refuses it, the same made of letters only or digits only, or shorter; else the catalogue's own
 * `unclaimed`. Undefined when the site's pattern refuses all of them.
 */
export function unclaimedNameFor(site: CatalogueSite): string | undefined {
  const candidates: string[] = [];
  for (const length of [16, 8]) {
    for (const alphabet of ALPHABETS) {
      const body = randomFrom(alphabet, length);
      candidates.push(alphabet === '0123456789' ? `${randomInt(1, 10)}${body}` : `fp${body}`, body);
    }
  }
  if (site.unclaimed) candidates.push(site.unclaimed);
  return candidates.find((name) => siteAllows(site, name));
}

const said = (line: SiteCheck | undefined) =>
  line ? `${line.state}${line.reason ? ` (${line.reason})` : ''}` : 'no answer';

/** One site's verdict: its known name, then (unless that was blocked) a name that cannot exist. */
export async function checkSite(
  site: CatalogueSite,
  fetcher: SiteFetcher,
  options: { signal?: AbortSignal; now?: () => Date } = {},
): Promise<SiteVerdict> {
  const now = options.now ?? (() => new Date());
  const verdict = (
    rest: Pick<SiteVerdict, 'claimedState' | 'unclaimedState' | 'outcome' | 'reason'>,
  ): SiteVerdict => ({ siteId: site.id, checkedAt: now(), ...rest });
  const unclaimed = unclaimedNameFor(site);
  if (!unclaimed) {
    return verdict({
      claimedState: null,
      unclaimedState: null,
      outcome: 'skipped',
      reason: "the site's username pattern refuses every made-up name and the catalogue's unclaimed one",
    });
  }
  const ask = async (name: string) =>
    (await checkUsername(name, [site], { fetcher, signal: options.signal, now }))[0];
  const claimed = await ask(site.claimed);
  const claimedState = claimed?.state ?? null;
  if (claimedState === 'blocked') {
    return verdict({
      claimedState,
      unclaimedState: null,
      outcome: 'blocked',
      reason: `known name ${site.claimed}: ${said(claimed)}`,
    });
  }
  const other = await ask(unclaimed);
  const unclaimedState = other?.state ?? null;
  const wrong: string[] = [];
  if (claimedState !== 'found') wrong.push(`known name ${site.claimed}: ${said(claimed)}, expected found`);
  if (unclaimedState !== 'not_found' && unclaimedState !== 'blocked')
    wrong.push(`made-up name ${unclaimed}: ${said(other)}, expected not_found`);
  if (wrong.length > 0)
    return verdict({ claimedState, unclaimedState, outcome: 'failed', reason: wrong.join('; ') });
  if (unclaimedState === 'blocked') {
    return verdict({
      claimedState,
      unclaimedState,
      outcome: 'blocked',
      reason: `made-up name ${unclaimed}: ${said(other)}`,
    });
  }
  return verdict({ claimedState, unclaimedState, outcome: 'passed', reason: null });
}

/** Every site's verdict, at most `concurrency` sites at once; stops taking sites when `signal` aborts. */
export async function checkSites(
  sites: readonly CatalogueSite[],
  fetcher: SiteFetcher,
  options: { signal?: AbortSignal; now?: () => Date; concurrency?: number } = {},
): Promise<SiteVerdict[]> {
  const verdicts: SiteVerdict[] = [];
  let next = 0;
  const worker = async () => {
    while (next < sites.length && !options.signal?.aborted) {
      const site = sites[next++]!;
      try {
        verdicts.push(await checkSite(site, fetcher, options));
      } catch (failure) {
        if (options.signal?.aborted) return;
        throw failure;
      }
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? SELF_CHECK_CONCURRENCY, sites.length));
  await Promise.all(Array.from({ length: width }, worker));
  return verdicts;
}

/** Writes a run's verdicts: one row each, and each site's standing (quarantined, lifted or left). */
export async function recordVerdicts(db: Executor, runId: string, verdicts: readonly SiteVerdict[]) {
  for (let at = 0; at < verdicts.length; at += 500) {
    const batch = verdicts.slice(at, at + 500);
    await db.insert(siteSelfChecks).values(batch.map((v) => ({ runId, ...v })));
    await db
      .insert(siteHealth)
      .values(
        batch.map((v) => ({
          siteId: v.siteId,
          failingSince: v.outcome === 'failed' ? v.checkedAt : null,
          lastCheckedAt: v.checkedAt,
          lastPassedAt: v.outcome === 'passed' ? v.checkedAt : null,
          lastOutcome: v.outcome,
          lastReason: v.reason,
        })),
      )
      .onConflictDoUpdate({
        target: siteHealth.siteId,
        set: {
          // A failure keeps the first date it failed; a pass lifts the quarantine; blocked or skipped leave it.
          failingSince: sql.raw(`case excluded.last_outcome
            when 'failed' then coalesce(site_health.failing_since, excluded.failing_since)
            when 'passed' then null
            else site_health.failing_since end`),
          lastCheckedAt: sql.raw('excluded.last_checked_at'),
          lastPassedAt: sql.raw('coalesce(excluded.last_passed_at, site_health.last_passed_at)'),
          lastOutcome: sql.raw('excluded.last_outcome'),
          lastReason: sql.raw('excluded.last_reason'),
        },
      });
  }
}

export interface SelfCheckDeps {
  db: Executor;
  fetcher: SiteFetcher;
  sites: readonly CatalogueSite[];
  trigger: 'schedule' | 'admin';
  signal?: AbortSignal;
  now?: () => Date;
  concurrency?: number;
}

/**
 * One run over every site: its row, every site's verdict and standing, and results past 90 days gone.
 * When `signal` aborts (the queue stops), the sites already checked are written and the run ends early.
 */
export async function runSelfCheck(deps: SelfCheckDeps) {
  const now = deps.now ?? (() => new Date());
  const [run] = await deps.db
    .insert(siteSelfCheckRuns)
    .values({ trigger: deps.trigger, startedAt: now() })
    .returning({ id: siteSelfCheckRuns.id });
  const runId = run!.id;
  const verdicts = await checkSites(deps.sites, deps.fetcher, {
    signal: deps.signal,
    now,
    concurrency: deps.concurrency,
  });
  await recordVerdicts(deps.db, runId, verdicts);
  const count = (outcome: SelfCheckOutcome) => verdicts.filter((v) => v.outcome === outcome).length;
  const summary = {
    sites: verdicts.length,
    passed: count('passed'),
    failed: count('failed'),
    blocked: count('blocked'),
    skipped: count('skipped'),
  };
  await deps.db
    .update(siteSelfCheckRuns)
    .set({ finishedAt: now(), ...summary })
    .where(eq(siteSelfCheckRuns.id, runId));
  await purgeSelfChecks(deps.db, now());
  return { runId, ...summary };
}

/** Runs (and their rows) older than 90 days. */
export async function purgeSelfChecks(db: Executor, now: Date) {
  await db
    .delete(siteSelfCheckRuns)
    .where(lt(siteSelfCheckRuns.startedAt, new Date(now.getTime() - SELF_CHECK_KEEP_DAYS * DAY_MS)));
}
