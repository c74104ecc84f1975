import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ReportJob } from './render/types.ts';

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

export interface ReportPool {
  render(job: ReportJob): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * A small pool of worker threads for PDF rendering, so that twenty reports at once leave the event
 * loop free for lookups. One thread fewer than the cores (at least one), started lazily.
 */
export function createReportPool(options: { threads?: number } = {}): ReportPool {
  const { filename, execArgv } = workerEntry();
  const threads = options.threads ?? Math.max(1, availableParallelism() - 1);
  const pool = new Piscina({ filename, execArgv, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  return {
    async render(job) {
      const bytes = (await pool.run(job)) as Uint8Array;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    close: () => pool.destroy(),
  };
}
