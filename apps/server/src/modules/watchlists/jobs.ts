import type { JobQueue } from '../jobs/queue.ts';
import type { Watchlists } from './service.ts';

/** How often the due watches are looked for, in seconds. */
export const WATCH_TICK_SECONDS = 60;

/**
 * The watchlist's schedule on the job queue: a `watch.tick` every minute, once across all processes,
 * whose handler runs the due watches. `runDue` claims each watch atomically, so a tick delivered twice
 * (the queue is at-least-once) runs nothing twice.
 */
export async function registerWatchJobs(queue: JobQueue, watchlists: Pick<Watchlists, 'runDue'>) {
  await queue.work('watch.tick', async () => {
    await watchlists.runDue(new Date());
  });
  await queue.every('watch.tick', WATCH_TICK_SECONDS);
}

/**
 * Until the runtime has a job queue: the same tick on a plain timer in this process, unref'd so that
 * it never holds the process open. Safe with several processes too (the claim is atomic). Answers a
 * function that stops it.
 */
export function scheduleWatchTicks(
  watchlists: Pick<Watchlists, 'runDue'>,
  log: { error: (details: object, message: string) => void },
  everySeconds = WATCH_TICK_SECONDS,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    watchlists
      .runDue(new Date())
      .catch((err) => log.error({ err }, 'watch tick failed'))
      .finally(() => {
        running = false;
      });
  }, everySeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
