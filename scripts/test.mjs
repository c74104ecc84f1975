#!/usr/bin/env node
// The one test command (`npm test`): lint and format, type check, unit and integration suites, the
// production build, and the browser suite. Server tests run on PostgreSQL when TEST_DATABASE_URL is set,
// and the ones whose behaviour can differ on the embedded PGlite run there as well (pgliteTestPaths), so
// both databases are proven on every run. Ends with one line `N passed, N failed` that counts every suite.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const reportDir = join(process.cwd(), 'node_modules', '.test-reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

let passed = 0;
let failed = 0;
const failures = [];
/** Each failed test's step, file, name and the start of its message, printed again at the very end. */
const failedTests = [];
const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

function run(name, command, args, env = process.env) {
  console.log(`\n▶ ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  console.log(`◀ ${name}: exit ${result.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status === 0;
}

/** A step that is not a test runner counts as one check. */
function count(name, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

/**
 * Runs steps side by side, each with its output held and printed whole when it ends (so the log reads
 * step by step); resolves to whether each exited 0.
 */
function runSideBySide(steps) {
  return Promise.all(
    steps.map(
      ({ name, command, args, env = process.env }) =>
        new Promise((resolve) => {
          const started = Date.now();
          let output = '';
          const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
          child.stdout.on('data', (chunk) => {
            output += chunk;
          });
          child.stderr.on('data', (chunk) => {
            output += chunk;
          });
          let finished = false;
          // A child that could not start reports 'error' and may still report 'close': print it once.
          const finish = (status) => {
            if (finished) return;
            finished = true;
            console.log(`\n▶ ${name}: ${command} ${args.join(' ')}\n${output.trimEnd()}`);
            console.log(`◀ ${name}: exit ${status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
            resolve(status === 0);
          };
          child.on('error', (error) => {
            output += String(error);
            finish(null);
          });
          child.on('close', finish);
        }),
    ),
  );
}

/**
 * The server test files that run a second time on the embedded PGlite when the main pass ran on
 * PostgreSQL. PGlite is the same PostgreSQL compiled to WebAssembly, so SQL behaves alike; what differs is
 * that it serves one connection at a time and lives in a directory of its own. So the second pass holds
 * the code whose behaviour depends on that: the money path's concurrency (ledger, group-committed
 * charges and settles, recovery of interrupted lookups, free repeats), the database-enforced audit trail,
 * the leak index the embedded default loads on start, the account flows every user goes through, and the
 * app's start on its embedded defaults, and every file with a test that runs on PGlite only. Files that
 * open PGlite through DATA_DIR in every pass (the CLI tests) are not repeated. Every directory named here
 * runs whole, so a new test file placed there is included without editing this list.
 */
const pgliteTestPaths = [
  'apps/server/test/audit',
  // Bulk jobs: the in-process queue and its runner on the embedded default, the money path per row.
  'apps/server/test/bulk',
  'apps/server/test/jobs',
  'apps/server/test/auth/login.test.ts',
  'apps/server/test/auth/otp.test.ts',
  'apps/server/test/auth/register.test.ts',
  // Cases aggregate entities with jsonb and lateral joins, and the notes' append-only trigger. (The
  // bundle's ZIP and reports read rows as any query does: its tests run on PostgreSQL only.)
  'apps/server/test/cases/cases.test.ts',
  'apps/server/test/cases/commands.test.ts',
  // Captures: their bytes (bytea), the chain's row lock and the in-process queue on the embedded default.
  'apps/server/test/cases/captures.test.ts',
  'apps/server/test/credits/ledger.test.ts',
  'apps/server/test/http/app.test.ts',
  // Holds a test of the PGlite-only import writer (parameterized INSERT in place of COPY).
  'apps/server/test/leaks/import.test.ts',
  'apps/server/test/leaks/search.test.ts',
  'apps/server/test/lookup/lookup.test.ts',
  'apps/server/test/sandbox/leaks.test.ts',
  'apps/server/test/searches',
  // The catalogue's self-check: its schedule and runs on the in-process queue, its standing upserted.
  'apps/server/test/site-health',
  // Units: the closure of the tree and the default unit are kept by plpgsql triggers (migration 0029),
  // and the purge's retention per unit and legal holds run in one statement each.
  'apps/server/test/units',
];

/**
 * Left out of the second pass although their directory is in it: the audit CLI test starts the CLI
 * about ten times, and on PGlite each start opens and migrates the data folder (197 s of the pass's 205 s
 * in CI); the CLI's PGlite opening is the admin CLI tests' in every pass, and the sealer's PGlite path
 * is the Merkle log tests' in this pass.
 */
const pgliteExcluded = ['--exclude', '**/audit/verify-cli.test.ts'];

/** The command of a Vitest run whose JSON report goes to the report directory. */
function vitestStep(name, projects, env = process.env, files = []) {
  return {
    name,
    command: 'npx',
    args: [
      'vitest',
      'run',
      ...files,
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reportDir, `${name}.json`)}`,
    ],
    env,
  };
}

/** Counts a Vitest run's tests from its JSON report; `ok` is whether it exited 0. */
function countTests(name, ok) {
  try {
    const report = JSON.parse(readFileSync(join(reportDir, `${name}.json`), 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    if (report.numFailedTests > 0 || !ok) failures.push(name);
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status !== 'failed') continue;
        failedTests.push({
          step: name,
          file: file.name,
          test: test.fullName,
          message: test.failureMessages?.[0],
        });
      }
      // A file that failed outside any test (a hook, an import) has a message and no failed test: it
      // counts as one failure.
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
        failedTests.push({ step: name, file: file.name, test: '(the file itself)', message: file.message });
        failed += 1;
      }
    }
    // A suite that crashed before reporting anything still fails the run.
    if (!ok && report.numFailedTests === 0 && !failedTests.some((f) => f.step === name)) failed += 1;
  } catch {
    failed += 1;
    failures.push(`${name} (no report)`);
  }
}

function vitest(name, projects, env = process.env, files = []) {
  const step = vitestStep(name, projects, env, files);
  countTests(name, run(name, step.command, step.args, step.env));
}

// Lint, boundaries, type check and the production build (which the browser suite needs) side by side.
const firstSteps = [];
if (want('lint')) {
  firstSteps.push({ name: 'lint', command: 'npx', args: ['biome', 'check', '.'] });
  firstSteps.push({
    name: 'boundaries',
    command: 'npx',
    args: [
      'depcruise',
      'apps/web/src',
      'apps/server/src',
      'packages/domain/src',
      '-c',
      '.dependency-cruiser.cjs',
    ],
  });
}
if (want('typecheck')) firstSteps.push({ name: 'typecheck', command: 'npx', args: ['tsc', '-b'] });
if (want('e2e') || want('image')) firstSteps.push({ name: 'build', command: 'npm', args: ['run', 'build'] });
const firstResults = await runSideBySide(firstSteps);
let built = false;
firstSteps.forEach(({ name }, i) => {
  if (name === 'build') built = firstResults[i];
  if (name !== 'build' || !built) count(name, firstResults[i]);
});

/** Runs steps side by side and counts each: a Vitest step by its report, any other as one check. */
async function runAndCount(steps) {
  const results = await runSideBySide(steps);
  steps.forEach(({ name, counted }, i) => {
    if (counted) count(name, results[i]);
    else countTests(name, results[i]);
  });
}

// The container image (scripts/image/smoke.mjs): the Containerfile built with buildah from the workspace
// the build step made, its files started as its own user against PostgreSQL and used. It runs with the
// stress suite and the PGlite pass below: it waits on the disk (buildah copies the production
// node_modules) while they wait on the network. (Beside the main unit pass it slowed that pass from
// 262 s to 417 s: the main pass keeps both cores busy.) Root and buildah only: `.ci/run` installs
// buildah and runs as root.
const image = [];
if (want('image')) {
  const hasBuildah = spawnSync('buildah', ['--version'], { stdio: 'ignore' }).status === 0;
  const skip =
    process.getuid?.() !== 0
      ? 'it needs root (buildah with the vfs or overlay driver, chroot)'
      : !hasBuildah
        ? 'buildah is not installed (apt-get install buildah)'
        : !process.env.TEST_DATABASE_URL
          ? 'it needs TEST_DATABASE_URL (a PostgreSQL server)'
          : !built
            ? 'the build failed'
            : undefined;
  if (skip) {
    console.log(`\n▶ image: not run, ${skip}`);
    if (only.includes('image')) count('image', false);
  } else image.push({ name: 'image', command: 'node', args: ['scripts/image/smoke.mjs'], counted: true });
}

// The PGlite pass of the server tests and the stress suite side by side: the stress suite spends half
// its time waiting (servers killed and restarted, upstream timeouts), and the PGlite pass fills it.
const sideBySide = [];
if (want('unit')) {
  if (process.env.TEST_DATABASE_URL) {
    vitest('unit-postgres', ['domain', 'server', 'web']);
    const { TEST_DATABASE_URL: _, ...pgliteEnv } = process.env;
    sideBySide.push(
      vitestStep('server-pglite', ['server'], pgliteEnv, [...pgliteTestPaths, ...pgliteExcluded]),
    );
  } else {
    vitest('unit-pglite', ['domain', 'server', 'web']);
  }
}

// Concurrency, crashes, upstream faults and generated hostile input (the stress suite): on the real
// PostgreSQL only, so only when TEST_DATABASE_URL names one (`.ci/run` sets it). `npm run test:stress`
// runs the same suite alone.
if (want('stress')) {
  if (process.env.TEST_DATABASE_URL) sideBySide.push(vitestStep('stress', ['stress']));
  else if (only.includes('stress')) {
    console.log(
      '\n▶ stress: needs TEST_DATABASE_URL (a PostgreSQL server), e.g. postgres://postgres@127.0.0.1:5432/test',
    );
    failed += 1;
    failures.push('stress (no TEST_DATABASE_URL)');
  } else console.log('\n▶ stress: not run, it needs TEST_DATABASE_URL (a PostgreSQL server)');
}
await runAndCount([...sideBySide, ...image]);

// The build ran with the first checks; a failed one was counted there and leaves nothing to drive.
if (want('e2e') && built) vitest('e2e', ['e2e']);

// The failed tests again, last, so a log that keeps only its tail still names them and says why.
const cwd = `${process.cwd()}/`;
for (const { step, file, test, message } of failedTests) {
  // The message and the test's own frames; the runner's frames say nothing of the failure.
  const lines = stripVTControlCharacters(String(message ?? ''))
    .split('\n')
    .filter((line) => !/node_modules\/|node:internal|^\s*at new Promise/.test(line));
  console.log(`\n✗ ${step}: ${file.replace(cwd, '')} › ${test}`);
  for (const line of lines.slice(0, 12)) console.log(`    ${line}`);
}
if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
