// Benchmark of /api/tel against its floor. Run: npm run bench:lookup [-- --seconds 6 --runs 3]
//   [-- --against <checkout>] [-- --no-overhead] [-- --env LOG_LEVEL=info --env METRICS_TOKEN=…]
// Primary figure: CPU per lookup, the server's plus that of the PostgreSQL backends serving it (from
// /proc), in each of `--runs` runs (3 by default). Per run:
// 1. /api/tel, sandbox providers at 0 ms, 50 concurrent clients asking as a browser does
//    (`Accept-Encoding: br, gzip`): lookups/s, CPU per lookup, bytes on the wire per answer.
// 2. Floor B (bench/src/lookup-floor.ts, its own process): the same charges, settles and audit rows
//    through the server's own charge batcher and settle writer, 50 clients, a fresh database, no HTTP,
//    token check, sources or serialisation: lookups/s and CPU per lookup.
// 3. What compression costs: the server's own settings (ANSWER_COMPRESSION in apps/server/src/app.ts)
//    applied to the answers the clients got, as @fastify/compress does for answers under its sync
//    threshold, CPU per answer as a share of the lookup's CPU.
// 4. Unless --no-overhead: 100-800 ms injected per source, the lookup's overhead over its slowest
//    source in the steady state (after the first 2 s). Goal: p99 <= 30 ms.
// Goals, each in every run: /api/tel >= 0.6x floor B's lookups/s; <= 0.70 ms CPU per lookup;
// compression <= 5 % of the lookup's CPU. With --against <dir> (another checkout whose apps/server/dist
// is built) each run measures that build and this one in turn, alternating which goes first.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { ANSWER_COMPRESSION } from '../../apps/server/src/app.ts';
import { adminUrl, fmt, freshDatabase, percentile, root, seedUsers, startServer } from './harness.ts';
import type { FloorResult } from './lookup-floor.ts';
import {
  analyzeDatabase,
  BROWSER_ENCODINGS,
  backendCpu,
  backendDelta,
  cpuSeconds,
  type WireSample,
  wireLoad,
} from './lookup-load.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '6' },
    workers: { type: 'string', default: '50' },
    against: { type: 'string' },
    runs: { type: 'string', default: '3' },
    overhead: { type: 'boolean', default: true },
    env: { type: 'string', multiple: true, default: [] },
  },
  allowNegative: true,
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
const RATIO_GOAL = 0.6;
const CPU_GOAL_MS = 0.7;
const COMPRESSION_GOAL = 0.05;
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

const load1 = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/**
 * A measured load, and CPU time per answered request during it: the server's, and that of the
 * database backends serving it.
 */
async function measured(pid: number, database: string, run: () => ReturnType<typeof wireLoad>) {
  const before = cpuSeconds(pid);
  const backendsBefore = await backendCpu(adminUrl, database);
  const result = await run();
  const ok = result.samples.filter((s) => s.status === 200);
  const count = Math.max(ok.length, 1);
  const server = cpuSeconds(pid) - before;
  const backends = backendDelta(backendsBefore, await backendCpu(adminUrl, database));
  return {
    ...result,
    ok,
    rps: ok.length / result.seconds,
    cpuMs: (server * 1000) / count,
    dbCpuMs: (backends * 1000) / count,
    wireBytes: ok.reduce((sum, s) => sum + s.wireBytes, 0) / count,
    bodyBytes: ok.reduce((sum, s) => sum + s.bodyBytes, 0) / count,
    encodings: [...new Set(ok.map((s) => s.encoding))].join(', '),
  };
}

async function telPhase(build: Build, latency: string) {
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
  // The 50 clients keep their connections open from warm-up to measurement, as a signed-in browser does.
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
  try {
    const tokens = await seedUsers(db.url, workers, 1_000_000);
    const common = {
      port,
      workers,
      agent,
      token: (w: number) => tokens[w]!,
      acceptEncoding: BROWSER_ENCODINGS,
    };
    // Warm up (JIT, connection pool).
    await wireLoad({ ...common, seconds: 2, path: (w, i) => `/api/tel?number=${number(w, 900_000 + i)}` });
    await analyzeDatabase(db.url);
    return await measured(server.pid, db.name, () =>
      wireLoad({
        ...common,
        seconds: latency === '' ? seconds : seconds + STEADY_AFTER_MS / 1000,
        path: (w, i) => `/api/tel?number=${number(w, i)}`,
      }),
    );
  } finally {
    agent.destroy();
    await server.stop();
    await db.drop();
  }
}

/** Floor B in its own process (bench/src/lookup-floor.ts) against a fresh database. */
async function floorPhase(): Promise<FloorResult> {
  const db = await freshDatabase();
  try {
    const script = fileURLToPath(new URL('./lookup-floor.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        script,
        '--url',
        db.url,
        '--admin',
        adminUrl,
        '--seconds',
        String(seconds),
        '--workers',
        String(workers),
      ],
      { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`lookup-floor exited with ${code}`);
    return JSON.parse(out.trim().split('\n').pop()!) as FloorResult;
  } finally {
    await db.drop();
  }
}

type Compression = typeof ANSWER_COMPRESSION & {
  zlibOptions?: object;
  encodings: readonly string[];
};

/**
 * What the server's compression settings cost on one answer, as @fastify/compress spends it on an
 * answer under its sync threshold (8 KB on two cores): the encoding it picks for a browser's
 * Accept-Encoding, nothing under `threshold`, else one sync call. CPU µs per answer, and its size.
 */
export function compressionCost(body: Buffer, accepted = BROWSER_ENCODINGS) {
  const settings = ANSWER_COMPRESSION as Compression;
  const offered = accepted.split(',').map((e) => e.trim());
  const encoding = settings.encodings.find((e) => offered.includes(e));
  if (!encoding || body.length < settings.threshold)
    return { encoding: 'identity', us: 0, bytes: body.length };
  const compress = {
    br: (b: Buffer) => brotliCompressSync(b, settings.brotliOptions),
    gzip: (b: Buffer) => gzipSync(b, settings.zlibOptions),
    deflate: (b: Buffer) => deflateSync(b, settings.zlibOptions),
    zstd: (b: Buffer) => zstdCompressSync(b, settings.zlibOptions),
  }[encoding]!;
  for (let i = 0; i < 200; i++) compress(body);
  // The least of 5 passes: on a shared machine a pass that was preempted reads high.
  let us = Number.POSITIVE_INFINITY;
  let bytes = 0;
  for (let pass = 0; pass < 5; pass++) {
    const rounds = 400;
    const before = process.cpuUsage();
    for (let i = 0; i < rounds; i++) bytes = compress(body).length;
    const used = process.cpuUsage(before);
    us = Math.min(us, (used.user + used.system) / rounds);
  }
  return { encoding, us, bytes };
}

interface Measured {
  run: number;
  build: string;
  tel: number;
  floor: number;
  ratio: number;
  telCpu: number;
  telCpuSplit: string;
  floorCpu: number;
  floorCpuSplit: string;
  compressionShare: number;
  wire: string;
  overheadP99: number;
  errors: number;
  load: string;
}

async function overheadPhase(build: Build) {
  const slow = await telPhase(build, '*=100-800');
  // Judged on the steady state, the answers to requests sent after the first 2 s: the 50 clients'
  // first burst queues behind itself (the figure from the standing start is printed beside it).
  const answered = slow.samples.filter((s) => s.status === 200 && s.serverTiming);
  const steady = answered.filter((s) => s.at >= STEADY_AFTER_MS);
  const timing = (s: WireSample, name: string) =>
    Number(new RegExp(`${name};dur=([\\d.]+)`).exec(s.serverTiming!)?.[1] ?? Number.NaN);
  const overhead = steady.map((s) => s.ms - timing(s, 'sources'));
  const fromStart = answered.map((s) => s.ms - timing(s, 'sources'));
  const inServer = steady.map((s) => timing(s, 'app') - timing(s, 'sources')).filter(Number.isFinite);
  console.log(
    `| 100-800 ms per source: overhead over the slowest source after the first ${STEADY_AFTER_MS / 1000} s, p50 / p99 ms (goal p99 ≤ 30) | ${fmt(percentile(overhead, 50))} / ${fmt(percentile(overhead, 99))}; from the standing start p99 ${fmt(percentile(fromStart, 99))}; inside the server p50 / p99 ${fmt(percentile(inServer, 50))} / ${fmt(percentile(inServer, 99))} |`,
  );
  return { p99: percentile(overhead, 99), errors: slow.samples.length - slow.ok.length };
}

async function measure(run: number, build: Build, floor: FloorResult): Promise<Measured> {
  const loadBefore = load1();
  const tel = await telPhase(build, '');
  const telCpu = tel.cpuMs + tel.dbCpuMs;
  const floorCpu = floor.cpuMs + floor.dbCpuMs;
  // This checkout's settings: another build (--against) may compress otherwise, so it gets no figure.
  const cost =
    build.checkout === root
      ? compressionCost(tel.lastBody ?? Buffer.alloc(0))
      : { encoding: 'n/a', us: Number.NaN, bytes: Number.NaN };
  const compressionShare = cost.us / 1000 / telCpu;
  console.log(`\n## run ${run}, ${build.name} (${build.checkout}); load average before: ${loadBefore}`);
  console.log('\n| measure | value |\n|---|---|');
  console.log(
    `| /api/tel (11 sources at 0 ms, Accept-Encoding: ${BROWSER_ENCODINGS}) | ${fmt(tel.rps, 0)} lookups/s, ${tel.ok.length} answers, ${tel.samples.length - tel.ok.length} non-200, p50 / p99 ${fmt(
      percentile(
        tel.ok.map((s) => s.ms),
        50,
      ),
    )} / ${fmt(
      percentile(
        tel.ok.map((s) => s.ms),
        99,
      ),
    )} ms |`,
  );
  console.log(
    `| /api/tel CPU ms per lookup, server + PostgreSQL | **${fmt(telCpu, 2)}** (${fmt(tel.cpuMs, 2)} + ${fmt(tel.dbCpuMs, 2)}) |`,
  );
  console.log(
    `| floor B (charge + settle + audit through the app's batchers, no HTTP) | ${fmt(floor.rate, 0)} lookups/s, CPU ms per lookup ${fmt(floorCpu, 2)} (${fmt(floor.cpuMs, 2)} + ${fmt(floor.dbCpuMs, 2)}) |`,
  );
  console.log(
    `| bytes on the wire per answer (headers + body) | ${fmt(tel.wireBytes, 0)} (body ${fmt(tel.bodyBytes, 0)}, ${tel.encodings}; ${tel.lastBody?.length ?? 0} decoded) |`,
  );
  console.log(
    `| compression (${cost.encoding}, the server's settings, on the last answer) | ${fmt(cost.us, 1)} µs CPU per answer = ${fmt(compressionShare * 100, 1)} % of the lookup's CPU; ${tel.lastBody?.length ?? 0} → ${cost.bytes} bytes |`,
  );
  const overhead = values.overhead ? await overheadPhase(build) : { p99: Number.NaN, errors: 0 };
  const ratio = tel.rps / floor.rate;
  console.log(
    `\n/api/tel : floor B = ${fmt(ratio, 2)} (goal ≥ ${RATIO_GOAL}); CPU ms per lookup ${fmt(telCpu, 2)} (goal ≤ ${CPU_GOAL_MS})`,
  );
  return {
    run,
    build: build.name,
    tel: tel.rps,
    floor: floor.rate,
    ratio,
    telCpu,
    telCpuSplit: `${fmt(tel.cpuMs, 2)} + ${fmt(tel.dbCpuMs, 2)}`,
    floorCpu,
    floorCpuSplit: `${fmt(floor.cpuMs, 2)} + ${fmt(floor.dbCpuMs, 2)}`,
    compressionShare,
    wire: `${fmt(tel.wireBytes, 0)} (${tel.encodings})`,
    overheadP99: overhead.p99,
    errors: tel.samples.length - tel.ok.length + overhead.errors + floor.errors,
    load: `${loadBefore} → ${load1()}`,
  };
}

console.log(
  `/api/tel against floor B: ${workers} concurrent clients, ${seconds} s per measurement, ${runs} runs, PostgreSQL, sandbox providers`,
);
const results: Measured[] = [];
for (let run = 1; run <= runs; run++) {
  const floorLoad = load1();
  const floor = await floorPhase();
  console.log(`\nfloor B, run ${run}: ${JSON.stringify(floor)}; load average before: ${floorLoad}`);
  // Alternate which build goes first, so neither always gets the quieter half of a run.
  const order = run % 2 === 1 ? builds : [...builds].reverse();
  for (const build of order) results.push(await measure(run, build, floor));
}

console.log(
  '\n## Summary\n\n| run | build | **CPU ms per lookup, server + PostgreSQL** | /api/tel lookups/s | floor B lookups/s | ratio | floor B CPU ms per lookup | compression, % of lookup CPU | bytes per answer | overhead p99 ms | non-200 | load average (1, 5, 15 min) before → after |\n|---|---|---|---|---|---|---|---|---|---|---|---|',
);
for (const r of results) {
  console.log(
    `| ${r.run} | ${r.build} | **${fmt(r.telCpu, 2)}** (${r.telCpuSplit}) | ${fmt(r.tel, 0)} | ${fmt(r.floor, 0)} | ${fmt(r.ratio, 2)} | ${fmt(r.floorCpu, 2)} (${r.floorCpuSplit}) | ${fmt(r.compressionShare * 100, 1)} | ${r.wire} | ${fmt(r.overheadP99)} | ${r.errors} | ${r.load} |`,
  );
}
const verdict = (name: string, pass: (r: Measured) => boolean, judged = builds) => {
  for (const build of judged) {
    const own = results.filter((r) => r.build === build.name);
    const met = own.filter(pass).length;
    console.log(
      `${met === own.length ? 'MET' : 'NOT MET'}: ${name}${builds.length > 1 ? ` (${build.name})` : ''}: ${met} of ${own.length} runs`,
    );
  }
};
console.log('');
verdict(`/api/tel ≥ ${RATIO_GOAL}× floor B's lookups/s`, (r) => r.ratio >= RATIO_GOAL);
verdict(`CPU per lookup ≤ ${CPU_GOAL_MS} ms (server + PostgreSQL)`, (r) => r.telCpu <= CPU_GOAL_MS);
verdict(
  `compression ≤ ${COMPRESSION_GOAL * 100} % of the lookup's CPU`,
  (r) => r.compressionShare <= COMPRESSION_GOAL,
  builds.filter((build) => build.checkout === root),
);
if (values.overhead) verdict('overhead over the slowest source p99 ≤ 30 ms', (r) => r.overheadP99 <= 30);
