// Benchmark of bulk lookups. Run: npm run bench:bulk [-- --rows 10000 --seconds 10 --workers 50]
// On PostgreSQL with the sandbox sources at zero latency, on the built server (apps/server/dist):
// 1. single-lookup throughput: GET /api/tel from `workers` concurrent users (bench:lookup's load);
// 2. a bulk phone job of `rows` rows alone: rows per second from its 202 to its final status.
//    Goal: >= 0.8x the single-lookup throughput of the same build in the same run;
// 3. interactive lookups (a few users, closed loop) alone, then while a second bulk job of the same
//    size runs: their p99. Goal: p99 while the job runs <= 2x p99 alone.
// The machine may be shared: the load averages are printed with the figures.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fmt, freshDatabase, load, percentile, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    workers: { type: 'string', default: '50' },
    interactive: { type: 'string', default: '4' },
  },
});
const rows = Number(values.rows);
const seconds = Number(values.seconds);
const workers = Number(values.workers);
const interactive = Number(values.interactive);
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const number = (w: number, i: number) => `91${String(7_000_000_000 + w * 1_000_000 + i).slice(0, 10)}`;
const load1 = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Starts a bulk job of `rows` distinct numbers and waits for its final status; rows per second. */
async function bulkJob(token: string, offset: number) {
  const list = Array.from({ length: rows }, (_, i) => String(6_000_000_000 + offset + i));
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const started = performance.now();
  const res = await fetch(`${base}/api/bulk`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'tel', values: list }),
  });
  if (res.status !== 202) throw new Error(`POST /api/bulk answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const job = (await (await fetch(`${base}/api/bulk/${id}`, { headers })).json()) as {
      status: string;
      done: number;
      charged: number;
    };
    if (['done', 'stopped', 'cancelled'].includes(job.status)) {
      const elapsed = (performance.now() - started) / 1000;
      return { ...job, seconds: elapsed, rowsPerSecond: job.done / elapsed };
    }
  }
}

const db = await freshDatabase();
const server = await startServer(
  {
    DATABASE_URL: db.url,
    RATE_LIMIT_ENABLED: 'false',
    LOOKUP_CACHE_HOURS: '0',
    SANDBOX_LATENCY: '',
    // To try another number of rows in flight per job; the server's default otherwise.
    ...(process.env.BULK_ROW_CONCURRENCY ? { BULK_ROW_CONCURRENCY: process.env.BULK_ROW_CONCURRENCY } : {}),
  },
  port,
  (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
);
try {
  console.log(
    `Bulk lookup benchmark: ${rows} rows, PostgreSQL, sandbox sources at 0 ms; load average before: ${load1()}`,
  );
  const tokens = await seedUsers(db.url, Math.max(workers, interactive) + 2, 10_000_000);
  const token = (w: number) => tokens[w]!;
  const bulkTokens = [tokens.at(-1)!, tokens.at(-2)!];
  // Warm up (JIT, connection pool, the bulk path).
  await load({
    port,
    seconds: 2,
    workers,
    token,
    path: (w, i) => `/api/tel?number=${number(w, 900_000 + i)}`,
  });

  const single = await load({
    port,
    seconds,
    workers,
    token,
    path: (w, i) => `/api/tel?number=${number(w, i)}`,
  });
  const singleOk = single.samples.filter((s) => s.status === 200).length;
  const singleRps = singleOk / single.seconds;

  const alone = await bulkJob(bulkTokens[0]!, 0);

  const quiet = await load({
    port,
    seconds,
    workers: interactive,
    token,
    path: (w, i) => `/api/tel?number=${number(w, 200_000 + i)}`,
  });
  const p99Alone = percentile(
    quiet.samples.filter((s) => s.status === 200).map((s) => s.ms),
    99,
  );

  // The second job and the interactive users together, until the job ends.
  let running = true;
  const busySamples: number[] = [];
  const job = bulkJob(bulkTokens[1]!, 100_000).finally(() => {
    running = false;
  });
  let round = 0;
  while (running) {
    const slice = await load({
      port,
      seconds: 1,
      workers: interactive,
      token,
      path: (w, i) => `/api/tel?number=${number(w, 400_000 + round * 10_000 + i)}`,
    });
    round++;
    if (running) busySamples.push(...slice.samples.filter((s) => s.status === 200).map((s) => s.ms));
  }
  const during = await job;
  const p99During = percentile(busySamples, 99);

  console.log('\n| measurement | value |\n|---|---|');
  console.log(
    `| single lookups, ${workers} users: req/s (p99 ms) | ${fmt(singleRps, 0)} (${fmt(
      percentile(
        single.samples.map((s) => s.ms),
        99,
      ),
    )}) |`,
  );
  console.log(
    `| bulk job alone: rows/s (${alone.done} rows, ${alone.charged} charged, ${fmt(alone.seconds)} s, ${alone.status}) | ${fmt(alone.rowsPerSecond, 0)} |`,
  );
  console.log(
    `| **ratio bulk rows/s : single lookups/s** (goal ≥ 0.80) | **${fmt(alone.rowsPerSecond / singleRps, 2)}** |`,
  );
  console.log(
    `| interactive lookups alone, ${interactive} users: p99 ms (${quiet.samples.length} requests) | ${fmt(p99Alone)} |`,
  );
  console.log(
    `| interactive lookups while a bulk job runs: p99 ms (${busySamples.length} requests; the job ${fmt(during.rowsPerSecond, 0)} rows/s) | ${fmt(p99During)} |`,
  );
  console.log(
    `| **ratio p99 while the job runs : alone** (goal ≤ 2) | **${fmt(p99During / p99Alone, 2)}** |`,
  );
  console.log(`\nload average after: ${load1()}`);
} finally {
  await server.stop();
  await db.drop();
}
