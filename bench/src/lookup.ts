// Benchmark of /api/tel. Run: npm run bench:lookup [-- --seconds 15] [-- --against <checkout> --runs 3]
//   [-- --env LOG_LEVEL=info --env METRICS_TOKEN=…] (variables for both servers: the operators' setup)
// 1. Sandbox providers at zero latency, 50 concurrent users: lookups/s and p50/p99 of /api/tel beside
//    a baseline route that does only the token check and one SELECT (GET /api/admin/settings: token,
//    role check, one settings SELECT) on the same server in the same run. Goal: >= 0.6x.
// 2. 100-800 ms injected per source: per request, end-to-end minus the time spent waiting for sources
//    (the Server-Timing header, i.e. the slowest source), in the steady state after the first 2 s (the
//    figure from the standing start, with the clients' first burst, is printed beside it). Goal: p99 <= 30 ms.
// With --against <dir> (another checkout whose apps/server/dist is built, e.g. a worktree of main), each
// run measures that build and this one one after the other, alternating which goes first, so the
// before/after comparison shares the machine's load. The load averages are printed with every run.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { adminUrl, fmt, freshDatabase, load, percentile, root, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    workers: { type: 'string', default: '50' },
    against: { type: 'string' },
    runs: { type: 'string', default: '1' },
    env: { type: 'string', multiple: true, default: [] },
  },
});
const seconds = Number(values.seconds);
const workers = Number(values.workers);
const runs = Number(values.runs);
/** Variables given to every server the bench starts (`--env NAME=value`). */
const extraEnv = Object.fromEntries(
  values.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const port = 3900 + Math.floor(Math.random() * 90);
/** Answers to requests sent earlier than this in the slow-source load are left out of its goal. */
const STEADY_AFTER_MS = 2000;
const number = (w: number, i: number) => `91${String(7_000_000_000 + w * 1_000_000 + i).slice(0, 10)}`;

interface Build {
  name: string;
  checkout: string;
}
const builds: Build[] = values.against
  ? [
      { name: 'before', checkout: values.against },
      { name: 'after', checkout: root },
    ]
  : [{ name: 'this build', checkout: root }];

/** CPU seconds (user + system) the process has used so far, from /proc (Linux); 0 once it has gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by each PostgreSQL backend serving the bench's database (PostgreSQL runs on
 * this machine). Background processes (WAL writer, checkpointer) are not counted.
 */
async function backendCpu(database: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1',
      [database],
    );
    return new Map(rows.map((row) => [row.pid, cpuSeconds(row.pid)]));
  } finally {
    await client.end();
  }
}

/**
 * A measured load, and CPU time per answered request during it: the server's, and that of the
 * database backends serving it (both less sensitive to a busy machine than req/s).
 */
async function measured(pid: number, database: string, run: () => ReturnType<typeof load>) {
  const before = cpuSeconds(pid);
  const backendsBefore = await backendCpu(database);
  const result = await run();
  const ok = Math.max(result.samples.filter((s) => s.status === 200).length, 1);
  const server = cpuSeconds(pid) - before;
  let backends = 0;
  for (const [backend, now] of await backendCpu(database))
    backends += now - (backendsBefore.get(backend) ?? 0);
  return { ...result, cpuMs: (server * 1000) / ok, dbCpuMs: (backends * 1000) / ok };
}

async function phase(build: Build, latency: string) {
  const db = await freshDatabase();
  const server = await startServer(
    {
      DATABASE_URL: db.url,
      RATE_LIMIT_ENABLED: 'false',
      LOOKUP_CACHE_HOURS: '0',
      SANDBOX_LATENCY: latency,
      ...extraEnv,
    },
    port,
    (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    build.checkout,
  );
  // Each route's 50 clients keep their connections open from warm-up to measurement, as a signed-in
  // browser does.
  const telAgent = new http.Agent({ keepAlive: true, maxSockets: workers });
  const baseAgent = new http.Agent({ keepAlive: true, maxSockets: workers });
  try {
    // Admins, so that the baseline route (admin settings: token check + one SELECT) is open to them.
    const tokens = await seedUsers(db.url, workers, 1_000_000, 'admin');
    const token = (w: number) => tokens[w]!;
    const settings = (seconds: number) =>
      load({ port, seconds, workers, token, agent: baseAgent, path: () => '/api/admin/settings' });
    // Warm up (JIT, connection pool).
    await load({
      port,
      seconds: 2,
      workers,
      token,
      agent: telAgent,
      path: (w, i) => `/api/tel?number=${number(w, 900_000 + i)}`,
    });
    let baseline: Awaited<ReturnType<typeof measured>> | undefined;
    if (latency === '') {
      await settings(1);
      baseline = await measured(server.pid, db.name, () => settings(seconds));
    }
    const tel = await measured(server.pid, db.name, () =>
      load({
        port,
        seconds: latency === '' ? seconds : seconds + STEADY_AFTER_MS / 1000,
        workers,
        token,
        agent: telAgent,
        path: (w, i) => `/api/tel?number=${number(w, i)}`,
      }),
    );
    return { baseline, tel };
  } finally {
    telAgent.destroy();
    baseAgent.destroy();
    await server.stop();
    await db.drop();
  }
}

const summary = (
  name: string,
  run: { samples: { ms: number; status: number }[]; seconds: number; cpuMs: number; dbCpuMs: number },
) => {
  const ok = run.samples.filter((s) => s.status === 200);
  const ms = ok.map((s) => s.ms);
  return {
    name,
    cpuMs: run.cpuMs,
    dbCpuMs: run.dbCpuMs,
    requests: run.samples.length,
    errors: run.samples.length - ok.length,
    rps: ok.length / run.seconds,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
  };
};

const load1 = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

interface Measured {
  run: number;
  build: string;
  baseline: number;
  tel: number;
  ratio: number;
  baselineCpu: string;
  telCpu: string;
  overheadP50: number;
  overheadP99: number;
  fromStartP99: number;
  serverOverhead: string;
  errors: number;
  load: string;
}

async function measure(run: number, build: Build): Promise<Measured> {
  const loadBefore = load1();
  const zero = await phase(build, '');
  const base = summary('GET /api/admin/settings (baseline: token + 1 SELECT)', zero.baseline!);
  const tel = summary('GET /api/tel (11 sources, 0 ms)', zero.tel);
  console.log(`\n## run ${run}, ${build.name} (${build.checkout}); load average before: ${loadBefore}`);
  console.log(
    '\n| route | requests | non-200 | req/s | p50 ms | p99 ms | CPU ms per request, server + database |\n|---|---|---|---|---|---|---|',
  );
  for (const r of [base, tel]) {
    console.log(
      `| ${r.name} | ${r.requests} | ${r.errors} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.cpuMs, 2)} + ${fmt(r.dbCpuMs, 2)} |`,
    );
  }
  console.log(`\nthroughput ratio /api/tel : baseline = ${fmt(tel.rps / base.rps, 2)} (goal >= 0.60)`);

  const slow = await phase(build, '*=100-800');
  // The 50 clients send their first requests in the same millisecond, and the last of that burst
  // waits for the 49 before it; with slow sources the clients then fall out of step within a second.
  // The goal is judged on the steady state, the answers to requests sent after the first 2 s; the
  // figure from the standing start is printed beside it.
  const answered = slow.tel.samples.filter((s) => s.status === 200 && s.serverTiming);
  const steady = answered.filter((s) => (s.at ?? 0) >= STEADY_AFTER_MS);
  const overheadOf = (samples: typeof answered) =>
    samples.map((s) => s.ms - Number(/sources;dur=([\d.]+)/.exec(s.serverTiming!)?.[1] ?? Number.NaN));
  const overhead = overheadOf(steady);
  const fromStart = overheadOf(answered);
  // The same, as the server saw it (its own time to the answer minus the sources'): without the
  // load generator's and the network's share, which a busy machine inflates.
  const serverOverhead = steady
    .map(
      (s) =>
        Number(/app;dur=([\d.]+)/.exec(s.serverTiming!)?.[1] ?? Number.NaN) -
        Number(/sources;dur=([\d.]+)/.exec(s.serverTiming!)?.[1] ?? Number.NaN),
    )
    .filter(Number.isFinite);
  const slowSummary = summary('GET /api/tel (11 sources, 100-800 ms each)', slow.tel);
  console.log(`\n| with 100-800 ms per source | value |\n|---|---|`);
  console.log(`| requests (non-200) | ${slowSummary.requests} (${slowSummary.errors}) |`);
  console.log(`| end-to-end p50 / p99 ms | ${fmt(slowSummary.p50)} / ${fmt(slowSummary.p99)} |`);
  console.log(
    `| end-to-end minus slowest source, after the first ${STEADY_AFTER_MS / 1000} s, p50 / p99 ms | ${fmt(percentile(overhead, 50))} / ${fmt(percentile(overhead, 99))} (goal p99 <= 30) |`,
  );
  console.log(
    `| the same from the standing start (the first burst included), p50 / p99 ms | ${fmt(percentile(fromStart, 50))} / ${fmt(percentile(fromStart, 99))} |`,
  );
  const slowest = steady
    .map((s, i) => ({ overhead: overhead[i]!, at: (s.at ?? 0) / 1000 }))
    .sort((a, b) => b.overhead - a.overhead)
    .slice(0, 5);
  console.log(
    `| the 5 slowest after the first ${STEADY_AFTER_MS / 1000} s, overhead ms @ s into the load | ${slowest.map((s) => `${fmt(s.overhead)} @ ${fmt(s.at)}`).join(', ')} |`,
  );
  console.log(
    `| the same inside the server (Server-Timing app − sources), p50 / p99 ms | ${fmt(percentile(serverOverhead, 50))} / ${fmt(percentile(serverOverhead, 99))} |`,
  );
  return {
    run,
    build: build.name,
    baseline: base.rps,
    tel: tel.rps,
    ratio: tel.rps / base.rps,
    baselineCpu: `${fmt(base.cpuMs, 2)} + ${fmt(base.dbCpuMs, 2)}`,
    telCpu: `${fmt(tel.cpuMs, 2)} + ${fmt(tel.dbCpuMs, 2)}`,
    overheadP50: percentile(overhead, 50),
    overheadP99: percentile(overhead, 99),
    fromStartP99: percentile(fromStart, 99),
    serverOverhead: `${fmt(percentile(serverOverhead, 50))} / ${fmt(percentile(serverOverhead, 99))}`,
    errors: base.errors + tel.errors + slowSummary.errors,
    load: `${loadBefore} → ${load1()}`,
  };
}

console.log(
  `/api/tel benchmark: ${workers} concurrent users, ${seconds} s per measurement, PostgreSQL, sandbox providers`,
);
const results: Measured[] = [];
for (let run = 1; run <= runs; run++) {
  // Alternate which build goes first, so neither always gets the quieter half of a run.
  const order = run % 2 === 1 ? builds : [...builds].reverse();
  for (const build of order) results.push(await measure(run, build));
}

console.log(
  '\n## Summary\n\n| run | build | baseline req/s | /api/tel req/s | ratio (goal ≥ 0.60) | CPU ms/request (server + database), baseline / tel | overhead p50 / p99 ms (goal p99 ≤ 30) | overhead p99 from the standing start | in the server p50 / p99 ms | non-200 | load average (1, 5, 15 min) before → after |\n|---|---|---|---|---|---|---|---|---|---|---|',
);
for (const r of results) {
  console.log(
    `| ${r.run} | ${r.build} | ${fmt(r.baseline, 0)} | ${fmt(r.tel, 0)} | ${fmt(r.ratio, 2)} | ${r.baselineCpu} / ${r.telCpu} | ${fmt(r.overheadP50)} / ${fmt(r.overheadP99)} | ${fmt(r.fromStartP99)} | ${r.serverOverhead} | ${r.errors} | ${r.load} |`,
  );
}
