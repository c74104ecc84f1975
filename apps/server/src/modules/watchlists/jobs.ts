import type { JobQueue } from '../jobs/queue.ts';
import type { Watchlists } from './service.ts';

/** How often the due watches are looked for, in seconds. */
export const WATCH_TICK_SECONDS = 60;

/**
 * The watchlist's schedule on the job queue: a `watch.tick` every minute (by default), once across all processes,
 * whose handler runs the due watches. `runDue` claims each watch atomically, so a tick delivered twice
 * (the queue is at-least-once) runs nothing twice.
 */
export async function registerWatchJobs(
  queue: JobQueue,
  watchlists: Pick<Watchlists, 'runDue'>,
  everySeconds = WATCH_TICK_SECONDS,
) {
  await queue.work('watch.tick', async () => {
    await watchlists.runDue(new Date());
  });
  await queue.every('watch.tick', everySeconds);
}
