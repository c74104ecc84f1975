/**
 * The self-check's schedule on the job queue: the runs' worker, an hourly `site-health.tick` (once
 * across all processes) that queues a run when one is due (SITE_CHECK_SELF_CHECK_HOURS after the last),
 * and this process's quarantine read again every few minutes, since another process may have run one.
 */
import { logFailure } from '../../outage.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { SELF_CHECK_JOB, SELF_CHECK_SINGLETON, type SelfCheckJobData, type SiteHealth } from './service.ts';

export const SELF_CHECK_TICK = 'site-health.tick';
/** How often this process reads the quarantine again. */
export const QUARANTINE_REFRESH_MS = 5 * 60_000;

type Log = Parameters<typeof logFailure>[0];

/** Registers the worker and the schedule (when the site check is on); answers the stop of the refresh. */
export async function registerSiteHealthJobs(
  queue: JobQueue,
  siteHealth: SiteHealth,
  options: { log: Log; refreshMs?: number },
): Promise<() => void> {
  if (!siteHealth.enabled) return () => {};
  await siteHealth.refresh();
  await queue.work<SelfCheckJobData>(SELF_CHECK_JOB, async (job) => {
    await siteHealth.run(job.data.trigger, job.signal);
  });
  if (siteHealth.scheduleHours > 0) {
    await queue.work(SELF_CHECK_TICK, async () => {
      if (!(await siteHealth.due())) return;
      await queue.send<SelfCheckJobData>(
        SELF_CHECK_JOB,
        { trigger: 'schedule' },
        { singletonKey: SELF_CHECK_SINGLETON, retryLimit: 0, expireInSeconds: 6 * 3600 },
      );
    });
    await queue.every(SELF_CHECK_TICK, Math.min(3600, siteHealth.scheduleHours * 3600));
  }
  const timer = setInterval(() => {
    siteHealth.refresh().catch((err) => logFailure(options.log, err, {}, 'site quarantine not read again'));
  }, options.refreshMs ?? QUARANTINE_REFRESH_MS);
  timer.unref();
  return () => clearInterval(timer);
}
