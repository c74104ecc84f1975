/**
 * Operator commands for the leak index (wired into src/cli/index.ts; `leaks:sandbox` is the sandbox
 * wing's own, in src/sandbox/leaks/cli.ts):
 *   leaks:import <file> --source "Name" [--breach-date YYYY-MM-DD] [--description "…"] [--format csv|jsonl]
 *                [--delimiter ,|;|tab] [--map field=column,...] [--rejects path] [--bulk auto|on|off]
 *                [--threads N] [--writers N]
 */
import { unlink } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import type { DatabaseHandle } from '../../../db/client.ts';
import { type ImportStats, importLeakFile, type LeakFileFormat } from './import.ts';
import { LEAK_COLUMN_TARGETS, type LeakColumnMapping, type LeakColumnTarget } from './record.ts';

/** Options of the leak commands, for the CLI's parseArgs. */
export const leakCliOptions = {
  source: { type: 'string' },
  'breach-date': { type: 'string' },
  description: { type: 'string' },
  format: { type: 'string' },
  delimiter: { type: 'string' },
  map: { type: 'string', multiple: true },
  rejects: { type: 'string' },
  count: { type: 'string' },
  seed: { type: 'string' },
  bulk: { type: 'string' },
  threads: { type: 'string' },
  writers: { type: 'string' },
} as const;

export interface LeakCliValues {
  source?: string | undefined;
  'breach-date'?: string | undefined;
  description?: string | undefined;
  format?: string | undefined;
  delimiter?: string | undefined;
  map?: string[] | undefined;
  rejects?: string | undefined;
  count?: string | undefined;
  seed?: string | undefined;
  bulk?: string | undefined;
  threads?: string | undefined;
  writers?: string | undefined;
}

export const leakCliUsage = `  leaks:import <file> --source "Name" [--breach-date YYYY-MM-DD] [--description "..."]
                  [--format csv|jsonl] [--delimiter ','|';'|tab] [--map field=column,...]
                  [--rejects path] [--bulk auto|on|off] [--threads N] [--writers N]
                  Stream a CSV or JSONL dump into the leak index (idempotent: a re-run adds only
                  what is missing). A new source from a file of 16 MiB or more (--bulk on: any
                  size) is bulk-loaded on PostgreSQL: into a table of its own, indexed after the
                  load, searchable when the import ends. --threads: parsing threads (default
                  cores on PostgreSQL, cores - 1 on PGlite; 1 to 4), --writers: batches written at once (default cores, 2 to 4). --map takes field=column pairs (fields: name, email, phone,
                  username, address, other, skip; a field may take several columns, e.g.
                  name=first_name,name=last_name). Unmapped columns go to 'other'; password, hash,
                  salt, token and similar columns are never stored. Rejected rows are written to
                  --rejects (default <file>.rejects.jsonl). Ctrl-C stops after the current batch.`;

const isTarget = (value: string): value is LeakColumnTarget =>
  (LEAK_COLUMN_TARGETS as readonly string[]).includes(value);

/** `email=email_address,name=full_name` (field=column; column=field is accepted too). */
export function parseMapOption(values: readonly string[]): LeakColumnMapping {
  const mapping: LeakColumnMapping = {};
  for (const pair of values.flatMap((value) => value.split(','))) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--map expects field=column pairs, not '${pair}'.`);
    const left = pair.slice(0, eq).trim();
    const right = pair.slice(eq + 1).trim();
    if (isTarget(left) && right) mapping[right] = left;
    else if (isTarget(right) && left) mapping[left] = right;
    else {
      throw new Error(`--map '${pair}': one side must be one of ${LEAK_COLUMN_TARGETS.join(', ')}.`);
    }
  }
  return mapping;
}

export const number = (n: number) => n.toLocaleString('en-US');

function summary(stats: ImportStats, rejectsPath: string): string[] {
  const lines = [
    `Source: ${stats.sourceName} (${stats.sourceId})`,
    `Rows read: ${number(stats.rowsRead)} in ${stats.seconds.toFixed(1)} s (${number(stats.rowsPerSecond)} rows/s)`,
    `Inserted: ${number(stats.inserted)}, already present: ${number(stats.duplicates)}, rejected: ${number(stats.rejected)}`,
  ];
  if (stats.bulk) {
    lines.push(
      stats.aborted
        ? `Bulk load into segment ${stats.segment}: not searchable until a re-run finishes it.`
        : `Bulk-loaded into segment ${stats.segment} (leak_records_seg_${stats.segment}), indexed and attached ` +
            `(indexes and attach: ${stats.finishSeconds.toFixed(1)} s).`,
    );
  }
  if (stats.rejected > 0) lines.push(`Rejected rows: ${rejectsPath}`);
  if (stats.droppedSecretColumns.length > 0) {
    lines.push(`Secret columns dropped (never stored): ${stats.droppedSecretColumns.join(', ')}`);
  }
  if (stats.aborted)
    lines.push('Stopped early. Run the same command again to resume: rows already in are skipped.');
  return lines;
}

/** A whole number from `min` to `max`, or undefined when not given; null when invalid. */
function count(value: string | undefined, min: number, max: number): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return /^\d+$/.test(value) && n >= min && n <= max ? n : null;
}

export async function runLeaksImport(
  database: DatabaseHandle,
  url: string | undefined,
  args: readonly string[],
  values: LeakCliValues,
  extra: { bulkUrl?: string | undefined } = {},
): Promise<number> {
  const [file] = args;
  if (!file || !values.source) {
    console.error('Usage: npm run cli -- leaks:import <file> --source "Name" [options]');
    return 2;
  }
  if (values.format !== undefined && values.format !== 'csv' && values.format !== 'jsonl') {
    console.error(`--format must be csv or jsonl, not '${values.format}'.`);
    return 2;
  }
  const delimiter =
    values.delimiter === 'tab' || values.delimiter === '\\t'
      ? '\t'
      : (values.delimiter as string | undefined);
  if (delimiter !== undefined && (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n')) {
    console.error(`--delimiter must be one character (or 'tab'), not '${values.delimiter}'.`);
    return 2;
  }
  if (values.bulk !== undefined && !['auto', 'on', 'off'].includes(values.bulk)) {
    console.error(`--bulk must be auto, on or off, not '${values.bulk}'.`);
    return 2;
  }
  const threads = count(values.threads, 0, 16);
  const writers = count(values.writers, 1, 8);
  if (threads === null || writers === null) {
    console.error('--threads must be a whole number from 0 to 16, --writers from 1 to 8.');
    return 2;
  }
  const mapping = parseMapOption(values.map ?? []);
  const rejectsPath = values.rejects ?? `${file}.rejects.jsonl`;
  const bar = new cliProgress.SingleBar({
    format: 'Importing {bar} {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}',
    noTTYOutput: true,
    notTTYSchedule: 5_000,
    etaBuffer: 40,
    hideCursor: true,
  });
  const controller = new AbortController();
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    controller.abort();
    console.error('\nStopping after the current batch (Ctrl-C again to quit at once)...');
  };
  process.on('SIGINT', onSignal);
  let started = false;
  try {
    const stats = await importLeakFile({
      handle: database,
      url,
      file,
      format: values.format as LeakFileFormat | undefined,
      delimiter,
      source: { name: values.source, breachDate: values['breach-date'], description: values.description },
      mapping,
      rejectsPath,
      bulk: values.bulk as 'auto' | 'on' | 'off' | undefined,
      bulkUrl: extra.bulkUrl,
      threads,
      writers,
      signal: controller.signal,
      onProgress: (progress) => {
        const payload = { rows: number(progress.rowsRead), rate: number(progress.rowsPerSecond) };
        if (!started) {
          bar.start(Math.max(progress.totalBytes, 1), 0, payload);
          started = true;
        }
        bar.update(progress.bytesRead, payload);
      },
    });
    if (started) bar.stop();
    if (stats.rejected === 0) await unlink(rejectsPath).catch(() => {});
    for (const line of summary(stats, rejectsPath)) console.log(line);
    return stats.aborted ? 130 : 0;
  } catch (error) {
    if (started) bar.stop();
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
  }
}
