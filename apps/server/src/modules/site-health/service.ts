/**
 * The catalogue that checks itself (issue 35, deliverable 4): the self-check's runs on the job queue,
 * the quarantine the lookups read, and the admin screen's reading. `createSiteHealth` binds the
 * functions for app.ts; each can be called alone (tests, the CLI).
 */
import type { SiteHealthResponse, SiteHealthRunResponse } from '@footprint/domain';
import type { Executor } from '../../db/client.ts';
import { siteCheckOff } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import type { SiteCatalogue } from '../../providers/sites/catalogue.ts';
import type { SiteFetcher } from '../../providers/sites/types.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { type QuarantineView, refreshQuarantine } from './quarantine.ts';
import { latestCompleteRun, latestRun, RUN_LOST_AFTER_MS, readSiteHealth } from './read.ts';
import { runSelfCheck } from './self-check.ts';

/** The queue of the runs: one waits and one runs at most (singleton key), whoever asked. */
export const SELF_CHECK_JOB = 'site-health.self-check';
export const SELF_CHECK_SINGLETON = 'site-health';
/** A scheduled run is due this long before its interval is up, so that an hourly tick does not skip a day. */
const DUE_SLACK_MS = 30 * 60_000;

export interface SelfCheckJobData {
  trigger: 'schedule' | 'admin';
}

export interface SiteHealthDeps {
  db: Executor;
  queue: JobQueue;
  quarantine: QuarantineView;
  /** The process's site check (its one fetcher and catalogue); undefined when it is off. */
  siteCheck: { fetcher: SiteFetcher; catalogue: SiteCatalogue } | undefined;
  /** Hours between scheduled runs; 0: none. */
  scheduleHours: number;
  now?: () => Date;
}

export interface Acting {
  actor: AuditActor;
  client?: Pick<ClientContext, 'ip' | 'deviceId'> | null;
}

/**
 * Whether a scheduled run is due: none is running, and no run that covered the whole catalogue (a run
 * cut short by a stop covered part of it) started within the interval.
 */
export async function selfCheckDue(
  db: Executor,
  scheduleHours: number,
  now: Date,
  catalogueSize = 0,
): Promise<boolean> {
  if (scheduleHours <= 0) return false;
  const run = await latestRun(db);
  if (run && run.finishedAt === null && now.getTime() - run.startedAt.getTime() < RUN_LOST_AFTER_MS)
    return false;
  const complete = await latestCompleteRun(db, catalogueSize);
  if (!complete) return true;
  return now.getTime() - complete.startedAt.getTime() >= scheduleHours * 3_600_000 - DUE_SLACK_MS;
}

/** Queues a run (folded into one already waiting), for an admin; audited. */
export async function requestSelfCheck(deps: SiteHealthDeps, acting: Acting): Promise<SiteHealthRunResponse> {
  if (!deps.siteCheck) throw siteCheckOff();
  const id = await deps.queue.send<SelfCheckJobData>(
    SELF_CHECK_JOB,
    { trigger: 'admin' },
    { singletonKey: SELF_CHECK_SINGLETON, retryLimit: 0, expireInSeconds: RUN_LOST_AFTER_MS / 1000 },
  );
  await recordAudit(deps.db, {
    action: 'admin.site_health.run',
    outcome: 'success',
    user: acting.actor,
    client: acting.client ?? null,
    target: 'site-health',
    details: { queued: id !== null },
  });
  return { queued: id !== null };
}

/** The job's work: a run (a scheduled one only when due), then the quarantine read again. */
export async function runSelfCheckJob(deps: SiteHealthDeps, data: SelfCheckJobData, signal?: AbortSignal) {
  const now = deps.now ?? (() => new Date());
  if (!deps.siteCheck) return undefined;
  const size = deps.siteCheck.catalogue.sites.length;
  if (data.trigger === 'schedule' && !(await selfCheckDue(deps.db, deps.scheduleHours, now(), size)))
    return undefined;
  const summary = await runSelfCheck({
    db: deps.db,
    fetcher: deps.siteCheck.fetcher,
    sites: deps.siteCheck.catalogue.sites,
    trigger: data.trigger === 'admin' ? 'admin' : 'schedule',
    signal,
    now,
  });
  await refreshQuarantine(deps.db, deps.quarantine);
  signal?.throwIfAborted();
  return summary;
}

export function createSiteHealth(deps: SiteHealthDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    read: (): Promise<SiteHealthResponse> =>
      readSiteHealth(deps.db, {
        sites: deps.siteCheck?.catalogue.sites,
        scheduleHours: deps.scheduleHours,
        now: now(),
      }),
    requestRun: (acting: Acting) => requestSelfCheck(deps, acting),
    /** A run now, in this process, whatever the schedule (the job's handler; tests). */
    run: (trigger: SelfCheckJobData['trigger'] = 'admin', signal?: AbortSignal) =>
      runSelfCheckJob(deps, { trigger }, signal),
    due: () => selfCheckDue(deps.db, deps.scheduleHours, now(), deps.siteCheck?.catalogue.sites.length ?? 0),
    refresh: () => refreshQuarantine(deps.db, deps.quarantine),
    enabled: deps.siteCheck !== undefined,
    scheduleHours: deps.scheduleHours,
  };
}

export type SiteHealth = ReturnType<typeof createSiteHealth>;
