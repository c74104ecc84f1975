/**
 * `npm run cli -- leaks:sandbox [--count 100000] [--seed demo]`: loads synthetic leak records into the
 * leak index through the importer's own path (wired into src/cli/index.ts).
 */
import cliProgress from 'cli-progress';
import type { DatabaseHandle } from '../../db/client.ts';
import { type LeakCliValues, number } from '../../modules/leaks/import/cli.ts';
import { loadSandboxLeaks, SANDBOX_LEAK_COUNT } from './load.ts';

export const sandboxLeakCliUsage = `  leaks:sandbox   [--count ${SANDBOX_LEAK_COUNT}] [--seed demo]
                  Load synthetic leak records (fictional sources, reserved domains, the demo identity).`;

export async function runLeaksSandbox(
  database: DatabaseHandle,
  url: string | undefined,
  values: LeakCliValues,
): Promise<number> {
  const count = values.count === undefined ? SANDBOX_LEAK_COUNT : Number(values.count);
  if (!Number.isInteger(count) || count < 0 || count > 100_000_000) {
    console.error(`--count must be a whole number up to 100,000,000, not '${values.count}'.`);
    return 2;
  }
  const bar = new cliProgress.SingleBar({
    format: 'Sandbox leaks {bar} {percentage}% | {value}/{total} records | ETA {eta_formatted}',
    noTTYOutput: true,
    notTTYSchedule: 5_000,
    hideCursor: true,
  });
  bar.start(Math.max(count, 1), 0);
  try {
    const result = await loadSandboxLeaks(database, {
      count,
      seed: values.seed,
      url,
      onProgress: (progress) => bar.update(progress.generated),
    });
    bar.update(result.generated);
    bar.stop();
    console.log(
      `Sandbox leaks: ${number(result.generated)} generated across ${result.sources} fictional sources in ` +
        `${result.seconds.toFixed(1)} s (${number(result.rowsPerSecond)} rows/s); ` +
        `${number(result.inserted)} inserted, ${number(result.duplicates)} already present.`,
    );
    return 0;
  } catch (error) {
    bar.stop();
    throw error;
  }
}
