// Benchmark of the leak importer (goal: import >= 100,000 rows/s into PostgreSQL).
// Run: npm run bench:import [-- --records 1000000]  (IMPORT_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p": node
// options for the importer process, e.g. to profile its threads)
//
// It writes N synthetic rows of one sandbox source as a JSONL dump, then measures on a fresh
// PostgreSQL database, side by side:
//   1. the importer end to end: `leaks:import` (the CLI an operator runs), into the indexed,
//      partitioned leak_records;
//   2. the importer's own CPU ceiling: the same file read, parsed, normalized, hashed and turned into
//      COPY text in this process with no database at all;
//   3. PostgreSQL's ceiling (the baseline): psql \copy of that same COPY text into an unindexed table,
//      then the time to build the leak index's seven indexes over it from scratch.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { jsonlRows, readLines } from '../../apps/server/src/modules/leaks/import/readers.ts';
import { isRejected, LeakRecordBuilder } from '../../apps/server/src/modules/leaks/import/record.ts';
import { copyText } from '../../apps/server/src/modules/leaks/import/writer.ts';
import { generateSandboxLeaks, SANDBOX_LEAK_SOURCES } from '../../apps/server/src/sandbox/index.ts';
import { fmt, freshDatabase, root, startServer } from './harness.ts';

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
  },
});
const records = Number(values.records);
if (!Number.isInteger(records) || records < 1000) throw new Error('--records must be an integer >= 1000');

const source = SANDBOX_LEAK_SOURCES[0]!;
const dir = mkdtempSync(join(tmpdir(), 'fp-bench-import-'));
const dump = join(dir, 'dump.jsonl');
const copyFile = join(dir, 'dump.copy');

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

/** Resident memory of a process in MiB, from /proc (0 once it is gone). */
function rssMiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs a command; its wall time in seconds and its peak RSS (sampled every 100 ms) in MiB. */
function run(command: string, args: string[], env: Record<string, string> = {}, echo = false) {
  const started = performance.now();
  return new Promise<{ seconds: number; peakRss: number }>((resolve, reject) => {
    const proc = spawn(command, args, {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', echo ? 'pipe' : 'ignore', 'inherit'],
    });
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
      if (code === 0) resolve({ seconds: (performance.now() - started) / 1000, peakRss });
      else reject(new Error(`${command} exited ${code}`));
    });
  });
}

const child = async (command: string, args: string[], env: Record<string, string> = {}) =>
  (await run(command, args, env)).seconds;

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

const db = await freshDatabase();
try {
  const rows = await writeDump();
  console.log(
    `Dump: ${rows.toLocaleString('en')} rows of '${source.name}', ${fmt(statSync(dump).size / 2 ** 20)} MiB JSONL`,
  );
  // Migrate the fresh database by starting the built server once.
  const port = 3790 + Math.floor(Math.random() * 9);
  const server = await startServer({ DATABASE_URL: db.url, SEED_DEMO: 'false' }, port);
  await server.stop();

  const importer = (sourceName: string, bulk: string) =>
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
      { DATABASE_URL: db.url, CI: 'true' },
      true,
    );
  console.log(`Load average before the import: ${load()}`);
  const { seconds: importSeconds, peakRss } = await importer(source.name, values.bulk as string);

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows: countRows } = await client.query<{ n: string }>('select count(*) as n from leak_records');
  const imported = Number(countRows[0]?.n ?? 0);
  if (imported !== rows) throw new Error(`imported ${imported} of ${rows} rows`);
  const { rows: segmentRows } = await client.query<{ segment: number }>(
    'select segment from leak_sources where name = $1',
    [source.name],
  );
  const segment = segmentRows[0]?.segment ?? 0;
  let regular: { seconds: number; peakRss: number } | null = null;
  if (values.regular) {
    console.log(`Load average before the ordinary-path import: ${load()}`);
    regular = await importer(`${source.name} (ordinary path)`, 'off');
  }

  const parsed = await parseOnly();

  // Baseline: PostgreSQL's raw ingest, and building the indexes from scratch afterwards.
  await client.query(
    `create table bench_copy (source_id uuid default gen_random_uuid(), id bigserial, ${COLUMNS.split(', ')
      .map((c) => `${c} ${c === 'other' ? 'jsonb' : c === 'name_tokens' ? 'text[]' : 'text'}`)
      .join(', ')})`,
  );
  const copySeconds = await child('psql', [
    db.url,
    '-q',
    '-c',
    `\\copy bench_copy (${COLUMNS}) from '${copyFile}'`,
  ]);
  const indexStarted = performance.now();
  await client.query(`set maintenance_work_mem = '256MB'`);
  for (const ddl of [
    'alter table bench_copy add primary key (record_hash, source_id)',
    'create index on bench_copy (email_norm, id)',
    'create index on bench_copy (phone_norm, id)',
    'create index on bench_copy (username_norm, id)',
    'create index on bench_copy using gin (name_tokens) with (fastupdate = off)',
    'create index on bench_copy (id)',
    'create index on bench_copy (source_id)',
  ]) {
    await client.query(ddl);
  }
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  await client.end();

  const rate = (n: number, s: number) => `${fmt(n / s, 0)} rows/s`;
  console.log('\n| path | seconds | rate |');
  console.log('|---|---|---|');
  console.log(
    `| leaks:import end to end (--bulk ${values.bulk}: ${segment > 0 ? `bulk-loaded into segment ${segment}` : 'ordinary path'}; indexed, idempotent) | ${fmt(importSeconds)} | ${rate(rows, importSeconds)} |`,
  );
  if (regular) {
    console.log(
      `| leaks:import --bulk off (ordinary path: indexes live, ON CONFLICT) | ${fmt(regular.seconds)} | ${rate(rows, regular.seconds)} |`,
    );
  }
  console.log(
    `| importer CPU alone: read + parse + normalize + hash + COPY text, no database | ${fmt(parsed.seconds)} | ${rate(parsed.rows, parsed.seconds)} |`,
  );
  console.log(
    `| baseline: psql \\copy of the same rows into an unindexed table | ${fmt(copySeconds)} | ${rate(rows, copySeconds)} |`,
  );
  console.log(
    `| baseline: build the 7 indexes from scratch afterwards | ${fmt(indexSeconds)} | ${rate(rows, indexSeconds)} |`,
  );
  console.log(
    `| baseline: \\copy + index build | ${fmt(copySeconds + indexSeconds)} | ${rate(rows, copySeconds + indexSeconds)} |`,
  );
  console.log(
    `\nImporter peak RSS: ${fmt(peakRss, 0)} MiB${regular ? ` (--bulk off: ${fmt(regular.peakRss, 0)} MiB)` : ''}. Load average at the end: ${load()}`,
  );
  console.log(`importer ÷ (\\copy + index build) = ${fmt((copySeconds + indexSeconds) / importSeconds, 2)}`);
  console.log(
    `\nGoal >= 100,000 rows/s: ${rows / importSeconds >= 100_000 ? 'met' : 'not met'} (importer ÷ goal = ${fmt(rows / importSeconds / 100_000, 2)})`,
  );
} finally {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
}
