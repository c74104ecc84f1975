// Benchmark of /api/tel. Run: npm run bench:lookup [-- --seconds 15]
// 1. Sandbox providers at zero latency, 50 concurrent users: lookups/s and p50/p99 of /api/tel beside
//    a baseline route that does only the token check and one SELECT (GET /api/admin/settings: token,
//    role check, one settings SELECT) on the same server in the same run. Goal: >= 0.5x.
// 2. 100-800 ms injected per source: per request, end-to-end minus the time spent waiting for sources
//    (the Server-Timing header, i.e. the slowest source). Goal: p99 <= 30 ms.
import { parseArgs } from 'node:util';
import { fmt, freshDatabase, load, percentile, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, workers: { type: 'string', default: '50' } },
});
const seconds = Number(values.seconds);
const workers = Number(values.workers);
const port = 3900 + Math.floor(Math.random() * 90);
const number = (w: number, i: number) => `91${String(7_000_000_000 + w * 1_000_000 + i).slice(0, 10)}`;

async function phase(latency: string) {
  const db = await freshDatabase();
  const server = await startServer(
    { DATABASE_URL: db.url, RATE_LIMIT_ENABLED: 'false', LOOKUP_CACHE_HOURS: '0', SANDBOX_LATENCY: latency },
    port,
    (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  );
  try {
    // Admins, so that the baseline route (admin settings: token check + one SELECT) is open to them.
    const tokens = await seedUsers(db.url, workers, 1_000_000, 'admin');
    const token = (w: number) => tokens[w]!;
    // Warm up both routes (JIT, connection pool).
    await load({
      port,
      seconds: 2,
      workers,
      token,
      path: (w, i) => `/api/tel?number=${number(w, 900_000 + i)}`,
    });
    await load({ port, seconds: 1, workers, token, path: () => '/api/admin/settings' });
    const baseline =
      latency === ''
        ? await load({ port, seconds, workers, token, path: () => '/api/admin/settings' })
        : undefined;
    const tel = await load({
      port,
      seconds,
      workers,
      token,
      path: (w, i) => `/api/tel?number=${number(w, i)}`,
    });
    return { baseline, tel };
  } finally {
    await server.stop();
    await db.drop();
  }
}

const summary = (name: string, run: { samples: { ms: number; status: number }[]; seconds: number }) => {
  const ok = run.samples.filter((s) => s.status === 200);
  const ms = ok.map((s) => s.ms);
  return {
    name,
    requests: run.samples.length,
    errors: run.samples.length - ok.length,
    rps: ok.length / run.seconds,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
  };
};

console.log(
  `/api/tel benchmark: ${workers} concurrent users, ${seconds} s per measurement, PostgreSQL, sandbox providers`,
);
const zero = await phase('');
const base = summary('GET /api/admin/settings (baseline: token + 1 SELECT)', zero.baseline!);
const tel = summary('GET /api/tel (11 sources, 0 ms)', zero.tel);
console.log('\n| route | requests | non-200 | req/s | p50 ms | p99 ms |\n|---|---|---|---|---|---|');
for (const r of [base, tel]) {
  console.log(
    `| ${r.name} | ${r.requests} | ${r.errors} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} |`,
  );
}
console.log(`\nthroughput ratio /api/tel : baseline = ${fmt(tel.rps / base.rps, 2)} (goal >= 0.50)`);

const slow = await phase('*=100-800');
const overhead = slow.tel.samples
  .filter((s) => s.status === 200 && s.serverTiming)
  .map((s) => s.ms - Number(/sources;dur=([\d.]+)/.exec(s.serverTiming!)?.[1] ?? Number.NaN));
const slowSummary = summary('GET /api/tel (11 sources, 100-800 ms each)', slow.tel);
console.log(`\n| with 100-800 ms per source | value |\n|---|---|`);
console.log(`| requests (non-200) | ${slowSummary.requests} (${slowSummary.errors}) |`);
console.log(`| end-to-end p50 / p99 ms | ${fmt(slowSummary.p50)} / ${fmt(slowSummary.p99)} |`);
console.log(
  `| end-to-end minus slowest source, p50 / p99 ms | ${fmt(percentile(overhead, 50))} / ${fmt(percentile(overhead, 99))} (goal p99 <= 30) |`,
);
