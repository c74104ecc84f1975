import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ReportTask } from './job.ts';

/**
 * Where the worker code is: the bundle ships dist/report-worker.js beside dist/main.js; from source
 * (tests, `npm run dev`) the TypeScript worker runs through tsx.
 */
function workerEntry(): { filename: string; execArgv: string[] } {
  const bundled = new URL('./report-worker.js', import.meta.url);
  if (fileURLToPath(import.meta.url).endsWith('.js') && existsSync(fileURLToPath(bundled))) {
    return { filename: bundled.href, execArgv: [] };
  }
  return { filename: new URL('./worker.ts', import.meta.url).href, execArgv: ['--import', 'tsx'] };
}

/** Every render thread is busy and as many reports wait as the queue holds: try again after a while. */
export class ReportsBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Every report thread is busy and the report queue is full.');
  }
}

export interface ReportPool {
  /** Draws a report in a worker thread; rejects with ReportsBusyError when the queue is full. */
  render(task: ReportTask): Promise<Buffer>;
  /** Whether a report asked for now would be refused as busy (checked before any other work). */
  busy(): ReportsBusyError | undefined;
  close(): Promise<void>;
}

/** Reports that may wait for a render thread when REPORT_QUEUE is not set. */
export const DEFAULT_REPORT_QUEUE = 50;

/**
 * A small pool of worker threads for PDF rendering, so that twenty reports at once leave the event
 * loop free for lookups. One thread fewer than the cores (at least one), started lazily, and idle
 * ones stopped after 60 s. At most `threads + queue` reports are in the pool at once; past that
 * `render` refuses at once instead of letting the wait grow without bound.
 *
 * With `warm`, one thread is started at once, draws a throwaway report (`warmUp` in worker.ts: the
 * fonts parsed, the drawing code compiled) and is never stopped for idleness: a new thread's first
 * report costs about a second more than the next ones (a one-search case bundle took 1.6 s cold,
 * 0.2 s warm; docs/benchmarks.md), which the first user after a start or a quiet minute would pay.
 */
export function createReportPool(
  options: {
    threads?: number;
    queue?: number;
    warm?: boolean;
    /** Told how each render ended and how long it was in the pool (the metrics). */
    onRendered?: (outcome: 'ok' | 'failed', ms: number) => void;
  } = {},
): ReportPool {
  const { filename, execArgv } = workerEntry();
  const threads = options.threads ?? Math.max(1, availableParallelism() - 1);
  const queue = options.queue ?? DEFAULT_REPORT_QUEUE;
  const pool = new Piscina({
    filename,
    execArgv,
    minThreads: options.warm ? 1 : 0,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
  if (options.warm) {
    // Not counted in `inPool`: a report asked for meanwhile simply waits behind it. A failure here
    // only means the first report pays the start-up itself.
    pool.run(null, { name: 'warmUp' }).catch(() => undefined);
  }
  let inPool = 0;
  /** Moving average of a report's time in the pool (waiting and drawing): about how long a full queue takes to move. */
  let averageMs = 1000;
  const busy = () =>
    inPool < threads + queue ? undefined : new ReportsBusyError(Math.max(1, Math.ceil(averageMs / 1000)));
  return {
    busy,
    async render(task) {
      const refused = busy();
      if (refused) throw refused;
      inPool += 1;
      const started = performance.now();
      let outcome: 'ok' | 'failed' = 'failed';
      try {
        // The worker transfers the PDF's memory (no copy); see worker.ts.
        const bytes = (await pool.run(task)) as Uint8Array;
        outcome = 'ok';
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } finally {
        inPool -= 1;
        const ms = performance.now() - started;
        averageMs = 0.8 * averageMs + 0.2 * ms;
        options.onRendered?.(outcome, ms);
      }
    },
    close: () => pool.destroy(),
  };
}
