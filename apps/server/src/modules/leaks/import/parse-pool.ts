import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { type ParseResult, type ParseTask, runParseTask } from './parse-task.ts';

/**
 * Where the worker code is: the bundle ships dist/leak-parse-worker.js beside dist/cli.js. From source
 * (tests, `npm run cli` through tsx) the worker is bundled once with esbuild (tsx's own dependency)
 * into a plain .mjs in the temp directory: a worker started with `--import tsx` would carry tsx's
 * loader and its hooks thread, about 100 MB more RSS and a second of start-up per import.
 */
async function workerEntry(): Promise<string> {
  const bundled = new URL('./leak-parse-worker.js', import.meta.url);
  if (fileURLToPath(import.meta.url).endsWith('.js') && existsSync(fileURLToPath(bundled)))
    return bundled.href;
  const entry = fileURLToPath(new URL('./parse-worker.ts', import.meta.url));
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    write: false,
    logLevel: 'warning',
  });
  const code = (result.outputFiles[0] as { contents: Uint8Array }).contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(tmpdir(), `footprint-leak-parse-worker-${hash}.mjs`);
  if (!existsSync(file) || !readFileSync(file).equals(Buffer.from(code))) {
    const { writeFile, rename } = await import('node:fs/promises');
    const part = `${file}.${process.pid}.tmp`;
    await writeFile(part, code);
    await rename(part, file);
  }
  return pathToFileURL(file).href;
}

export interface ParsePool {
  run(task: ParseTask): Promise<ParseResult>;
  close(): Promise<void>;
}

/**
 * `threads` worker threads parsing and building batches; 0 runs each task on the calling thread
 * (small files, tests, PGlite's in-process database).
 */
export async function createParsePool(threads: number): Promise<ParsePool> {
  if (threads <= 0) return { run: runParseTask, close: async () => {} };
  const filename = await workerEntry();
  const pool = new Piscina({
    filename,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 10_000,
    // A small young generation: the thread's garbage is short-lived, and RSS stays lower.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  return {
    run: (task) => pool.run(task) as Promise<ParseResult>,
    close: () => pool.destroy(),
  };
}
