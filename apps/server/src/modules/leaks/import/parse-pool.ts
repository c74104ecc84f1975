import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { type ParseResult, type ParseTask, runParseTask } from './parse-task.ts';

/**
 * Where the worker code is: the bundle ships dist/leak-parse-worker.js beside dist/cli.js; from source
 * (tests, tsx) the TypeScript worker runs through tsx.
 */
function workerEntry(): { filename: string; execArgv: string[] } {
  const bundled = new URL('./leak-parse-worker.js', import.meta.url);
  if (fileURLToPath(import.meta.url).endsWith('.js') && existsSync(fileURLToPath(bundled))) {
    return { filename: bundled.href, execArgv: [] };
  }
  return { filename: new URL('./parse-worker.ts', import.meta.url).href, execArgv: ['--import', 'tsx'] };
}

export interface ParsePool {
  run(task: ParseTask): Promise<ParseResult>;
  close(): Promise<void>;
}

/**
 * `threads` worker threads parsing and building batches; 0 runs each task on the calling thread
 * (small files, tests, PGlite's in-process database).
 */
export function createParsePool(threads: number): ParsePool {
  if (threads <= 0) return { run: runParseTask, close: async () => {} };
  const { filename, execArgv } = workerEntry();
  const pool = new Piscina({
    filename,
    execArgv,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 10_000,
  });
  return {
    run: (task) => pool.run(task) as Promise<ParseResult>,
    close: () => pool.destroy(),
  };
}
