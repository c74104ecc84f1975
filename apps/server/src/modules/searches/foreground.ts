/** How long a burst of interactive searches is remembered after it ends. */
const WINDOW_MS = 1000;

/**
 * The searches a person is waiting for (a request from the web app or the API), counted so that
 * background work (a bulk job's rows) can give way to them: the machine's CPU and the database are
 * shared, and a bulk job running flat out would otherwise set every interactive lookup behind its
 * rows. Background searches are not counted.
 *
 * A person looking numbers up has a search in flight most of the time, not all of it (between an
 * answer and the next question nothing runs), so what background work reads is the most that were
 * in flight at once over the last second or two, not the count at that instant: the job stays in step with a person who
 * pauses between searches.
 */
export function createForeground(now: () => number = () => performance.now()) {
  let inFlight = 0;
  /** The most in flight at once in the current window and in the one before it. */
  let peak = 0;
  let previousPeak = 0;
  let windowStart = now();
  let waiters: Array<() => void> = [];

  const roll = () => {
    const at = now();
    if (at - windowStart < WINDOW_MS) return;
    previousPeak = at - windowStart < 2 * WINDOW_MS ? peak : inFlight;
    peak = inFlight;
    windowStart = at;
  };

  return {
    /** The most interactive searches in flight at once in this process lately (0 when none ran). */
    recent(): number {
      roll();
      return Math.max(peak, previousPeak, inFlight);
    },

    /** Runs an interactive search, counted while it runs. */
    async track<T>(work: () => Promise<T>): Promise<T> {
      roll();
      inFlight++;
      if (inFlight > peak) peak = inFlight;
      try {
        return await work();
      } finally {
        inFlight--;
        const woken = waiters;
        waiters = [];
        for (const wake of woken) wake();
      }
    },

    /** Resolves when an interactive search ends, or after `ms` at the latest. */
    ended(ms: number): Promise<void> {
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter !== wake);
          resolve();
        }, ms);
        waiters.push(wake);
      });
    },
  };
}

export type Foreground = ReturnType<typeof createForeground>;
