// Benchmark of the leak importer and of the sandbox loader. Goals: import >= 0.85x of psql \copy +
// index build at 1 M rows, and leaks:sandbox >= 0.8x of the importer's rows/s, each in 3 of 3 runs.
// Run: npm run bench:import [-- --records 1000000 --runs 3]  (IMPORT_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=/tmp/p": node options for the importer process, e.g. to profile its threads)
//
// It writes N synthetic rows of one sandbox source as a JSONL dump, starts a PostgreSQL cluster of its
// own (so that all of its CPU is the bench's: read from /proc, beside each rate), then, once:
//   - the importer's own CPU ceiling: the same file read, parsed, normalized, hashed and turned into
//     COPY text in this process with no database at all;
// and in each of `runs` runs, on fresh databases, side by side:
//   1. the importer end to end: `leaks:import` (the CLI an operator runs), into the indexed,
//      partitioned leak_records;
//   2. PostgreSQL's ceiling (the baseline): psql \copy of that same COPY text into an unindexed table,
//      then the time to build the leak index's seven indexes over it from scratch;
//   3. `leaks:sandbox --count N` (the built CLI) into a database of its own: generated, not read.
import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { jsonlRows, readLines } from '../../apps/server/src/modules/leaks/import/readers.ts';
import { isRejected, LeakRecordBuilder } from '../../apps/server/src/modules/leaks/import/record.ts';
import { copyText } from '../../apps/server/src/modules/leaks/import/writer.ts';
import { generateSandboxLeaks, SANDBOX_LEAK_SOURCES } from '../../apps/server/src/sandbox/index.ts';
import {
  endedChildrenCpuSeconds,
  fmt,
  loadAverage,
  main,
  repeatRuns,
  root,
  spawnGroup,
  startServer,
  tempDir,
} from './harness.ts';
import { startPrivatePostgres } from './private-postgres.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    // Passed to leaks:import: auto bulk-loads the new source (a dump of 16 MiB or more).
    bulk: { type: 'string', default: 'auto' },
    threads: { type: 'string' },
    writers: { type: 'string' },
    // Also time the ordinary path (--bulk off: indexes maintained live, ON CONFLICT) on a copy of the
    // dump under a second source name, in the same database.
    regular: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number >= 1');
const records = Number(values.records);
if (!Number.isInteger(records) || records < 1000) throw new Error('--records must be an integer >= 1000');

const source = SANDBOX_LEAK_SOURCES[0]!;
const dir = tempDir('fp-bench-import-');
const dump = join(dir, 'dump.jsonl');
const copyFile = join(dir, 'dump.copy');

/** Resident memory of a process in MiB, from /proc (0 once it is gone). */
function rssMiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs a command in its own process group (stopped with the bench); its wall time in seconds, its
 * peak RSS (sampled every 100 ms) in MiB and its CPU seconds (threads included, from /proc).
 */
function run(command: string, args: string[], env: Record<string, string> = {}, echo = false) {
  const started = performance.now();
  const cpuBefore = endedChildrenCpuSeconds();
  const { child: proc, stop } = spawnGroup(command, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', echo ? 'pipe' : 'ignore', 'inherit'],
  });
  return new Promise<{ seconds: number; peakRss: number; cpu: number }>((resolve, reject) => {
    // The importer's summary (rows, rate, bulk finish time), without its progress bar.
    let out = '';
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('close', () => {
      for (const line of out.split('\n')) if (line && !line.startsWith('Importing')) console.log(`  ${line}`);
    });
    let peakRss = 0;
    const sampler = setInterval(() => {
      if (proc.pid) peakRss = Math.max(peakRss, rssMiB(proc.pid));
    }, 100);
    proc.on('exit', (code) => {
      clearInterval(sampler);
      const seconds = (performance.now() - started) / 1000;
      // Reaped once 'exit' has fired: its CPU is in this process's children's times now.
      setImmediate(() => {
        const cpu = endedChildrenCpuSeconds() - cpuBefore;
        void stop();
        if (code === 0) resolve({ seconds, peakRss, cpu });
        else reject(new Error(`${command} exited ${code}`));
      });
    });
  });
}

const child = (command: string, args: string[], env: Record<string, string> = {}) => run(command, args, env);

async function writeDump() {
  const out = createWriteStream(dump);
  let written = 0;
  // The generator spreads people over several sources; keep one source's rows, as one dump would be,
  // until there are `records` of them (the generator is lazy: it makes people until told to stop).
  for (const row of generateSandboxLeaks({ count: Number.MAX_SAFE_INTEGER, seed: 'import-bench' })) {
    if (row.source !== source.name) continue;
    if (!out.write(`${JSON.stringify(row.fields)}\n`))
      await new Promise<void>((r) => out.once('drain', () => r()));
    if (++written >= records) break;
  }
  await new Promise<void>((r) => out.end(() => r()));
  return written;
}

/** Read + parse + normalize + hash + COPY text, no database: the importer's CPU ceiling. */
async function parseOnly() {
  const started = performance.now();
  const builder = new LeakRecordBuilder(source.name, source.mapping);
  const out = createWriteStream(copyFile);
  let rows = 0;
  let batch = [];
  for await (const chunk of jsonlRows(readLines(createReadStream(dump, { highWaterMark: 256 << 10 })))) {
    for (const row of chunk.rows) {
      const built = builder.build(row.columns, row.values);
      if (isRejected(built)) continue;
      batch.push(built);
      rows++;
      if (batch.length >= 5000) {
        if (!out.write(copyText(batch))) await new Promise<void>((r) => out.once('drain', () => r()));
        batch = [];
      }
    }
  }
  out.write(copyText(batch));
  await new Promise<void>((r) => out.end(() => r()));
  return { rows, seconds: (performance.now() - started) / 1000 };
}

const COLUMNS =
  'record_hash, name, email, phone, username, address, other, email_norm, phone_norm, username_norm, name_tokens';

const INDEXES = [
  'alter table bench_copy add primary key (record_hash, source_id)',
  'create index on bench_copy (email_norm, id)',
  'create index on bench_copy (phone_norm, id)',
  'create index on bench_copy (username_norm, id)',
  'create index on bench_copy using gin (name_tokens) with (fastupdate = off)',
  'create index on bench_copy (id)',
  'create index on bench_copy (source_id)',
];

/** Goals of each run. */
const IMPORT_OVER_BASELINE = 0.85;
const SANDBOX_OVER_IMPORT = 0.8;

await main(async () => {
  const rows = await writeDump();
  console.log(
    `Dump: ${rows.toLocaleString('en')} rows of '${source.name}', ${fmt(statSync(dump).size / 2 ** 20)} MiB JSONL`,
  );
  const parsed = await parseOnly();
  console.log(
    `Importer CPU alone (read + parse + normalize + hash + COPY text, no database, one thread): ${fmt(parsed.seconds)} s, ${fmt(parsed.rows / parsed.seconds, 0)} rows/s, ${fmt((parsed.seconds / parsed.rows) * 1e6, 1)} µs a row`,
  );
  // As the shared cluster is set up for bulk loads: no autovacuum racing the load, room for its WAL.
  const cluster = await startPrivatePostgres(
    { autovacuum: 'off', max_wal_size: '1GB' },
    { locale: 'C', statements: false },
  );
  console.log(`Private PostgreSQL on port ${cluster.port}; load average ${loadAverage()}`);
  const port = 3790 + Math.floor(Math.random() * 9);
  /** A new, migrated database in the private cluster (migrated by starting the built server once). */
  const migrated = async (name: string) => {
    const url = await cluster.database(name);
    await (await startServer({ DATABASE_URL: url, SEED_DEMO: 'false' }, port)).stop();
    return url;
  };
  const importer = (url: string, sourceName: string, bulk: string) =>
    run(
      process.execPath,
      [
        // The built CLI (bench:import builds first), as a deployment runs it: under tsx the same
        // command spends about 3 s compiling TypeScript before it reads a line.
        ...(process.env.IMPORT_NODE_ARGS ?? '').split(' ').filter(Boolean),
        'apps/server/dist/cli.js',
        'leaks:import',
        dump,
        '--source',
        sourceName,
        ...Object.entries(source.mapping).flatMap(([column, field]) => ['--map', `${field}=${column}`]),
        '--rejects',
        join(dir, 'rejects.jsonl'),
        '--bulk',
        bulk,
        ...(values.threads ? ['--threads', values.threads] : []),
        ...(values.writers ? ['--writers', values.writers] : []),
      ],
      { DATABASE_URL: url, CI: 'true' },
      true,
    );
  /** What `step` took: wall seconds, its own process's CPU (if it ran one) and the cluster's CPU. */
  const metered = async <T extends { seconds: number; cpu?: number }>(step: () => Promise<T>) => {
    const pgBefore = cluster.cpuMs();
    const result = await step();
    return { ...result, pg: (cluster.cpuMs() - pgBefore) / 1000 };
  };
  const us = (seconds: number) => `${fmt((seconds / rows) * 1e6, 1)} µs`;
  const table: string[] = [];
  const sandboxMet: boolean[] = [];

  await repeatRuns({
    name: `import of ${rows.toLocaleString('en')} rows vs \\copy + index build (goal >= ${IMPORT_OVER_BASELINE})`,
    runs,
    need: runs,
    unit: 'row',
    cpuLabels: ['importer', 'PostgreSQL'],
    async measure(round) {
      const url = await migrated(`fp_import_${round}`);
      const loadBefore = loadAverage();
      const imported = await metered(() => importer(url, source.name, values.bulk as string));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows: countRows } = await client.query<{ n: string }>(
          'select count(*) as n from leak_records',
        );
        if (Number(countRows[0]?.n ?? 0) !== rows)
          throw new Error(`imported ${countRows[0]?.n} of ${rows} rows`);
        const { rows: segmentRows } = await client.query<{ segment: number }>(
          'select segment from leak_sources where name = $1',
          [source.name],
        );
        const segment = segmentRows[0]?.segment ?? 0;
        if (values.regular && round === 1) {
          const regular = await metered(() => importer(url, `${source.name} (ordinary path)`, 'off'));
          console.log(
            `  --bulk off (ordinary path: indexes live, ON CONFLICT): ${fmt(regular.seconds)} s, ${fmt(rows / regular.seconds, 0)} rows/s; CPU a row: importer ${us(regular.cpu)} + PostgreSQL ${us(regular.pg)}; peak RSS ${fmt(regular.peakRss, 0)} MiB`,
          );
        }
        // Baseline: PostgreSQL's raw ingest, and building the indexes from scratch afterwards.
        await client.query(
          `create table bench_copy (source_id uuid default gen_random_uuid(), id bigserial, ${COLUMNS.split(
            ', ',
          )
            .map((c) => `${c} ${c === 'other' ? 'jsonb' : c === 'name_tokens' ? 'text[]' : 'text'}`)
            .join(', ')})`,
        );
        const copied = await metered(() =>
          child('psql', [url, '-q', '-c', `\\copy bench_copy (${COLUMNS}) from '${copyFile}'`]),
        );
        const indexed = await metered(async () => {
          const started = performance.now();
          await client.query(`set maintenance_work_mem = '256MB'`);
          for (const ddl of INDEXES) await client.query(ddl);
          return { seconds: (performance.now() - started) / 1000 };
        });
        const baseline = copied.seconds + indexed.seconds;
        const ratio = baseline / imported.seconds;

        // The sandbox loader, same row count, into a database of its own (its sources are new there).
        const sandboxUrl = await migrated(`fp_sandbox_${round}`);
        const sandbox = await metered(() =>
          run(
            process.execPath,
            ['apps/server/dist/cli.js', 'leaks:sandbox', '--count', String(rows), '--seed', `bench-${round}`],
            { DATABASE_URL: sandboxUrl, CI: 'true' },
          ),
        );
        const sandboxRatio = imported.seconds / sandbox.seconds;
        sandboxMet.push(sandboxRatio >= SANDBOX_OVER_IMPORT);
        table.push(
          `| ${round} | ${fmt(imported.seconds)} s, ${fmt(rows / imported.seconds, 0)} rows/s (${segment > 0 ? `segment ${segment}` : 'ordinary path'}) | ${us(imported.cpu)} + ${us(imported.pg)} | ${fmt(copied.seconds)} + ${fmt(indexed.seconds)} = ${fmt(baseline)} s | ${us(copied.cpu + copied.pg + indexed.pg)} | **${fmt(ratio, 2)}** | ${fmt(sandbox.seconds)} s, ${fmt(rows / sandbox.seconds, 0)} rows/s | ${us(sandbox.cpu)} + ${us(sandbox.pg)} | **${fmt(sandboxRatio, 2)}** | ${fmt(imported.peakRss, 0)} MiB | ${loadBefore} → ${loadAverage()} |`,
        );
        return {
          units: rows,
          seconds: imported.seconds,
          cpu: { server: imported.cpu, postgres: imported.pg },
          met: ratio >= IMPORT_OVER_BASELINE,
          detail: `importer ${fmt(imported.seconds)} s, baseline ${fmt(baseline)} s, ratio ${fmt(ratio, 2)}; leaks:sandbox ${fmt(sandbox.seconds)} s, ÷ importer rows/s ${fmt(sandboxRatio, 2)}`,
        };
      } finally {
        await client.end();
      }
    },
  });
  const sandboxCount = sandboxMet.filter(Boolean).length;
  console.log(
    `  leaks:sandbox >= ${SANDBOX_OVER_IMPORT}x the importer's rows/s: met in ${sandboxCount} of ${runs} runs → ${sandboxCount === runs ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `\n| run | leaks:import end to end | CPU a row: importer + PostgreSQL | baseline: \\copy + 7 index builds | baseline CPU a row (psql + PostgreSQL) | import ÷ baseline | leaks:sandbox | CPU a row: loader + PostgreSQL | sandbox ÷ import rows/s | importer peak RSS | load average (before → after) |\n|---|---|---|---|---|---|---|---|---|---|---|\n${table.join('\n')}`,
  );
});
