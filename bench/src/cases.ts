// Benchmark of the case page. Run: npm run bench:cases [-- --items 200 --runs 300 --bundle true]
// Seeds, directly in a fresh PostgreSQL database, one user with a case of 200 synthetic phone searches
// whose results hold ~2,000 entities and ~1,000 dated facts, and a second case of 20 searches sharing
// some of them (so `other_cases` has work). Then, on the built server over HTTP on 127.0.0.1 with one
// keep-alive client: the first open of the case (reads every search's entities and dates once), and
// p50/p95/p99 of GET /api/cases/{id} beside GET /api/history (same user, same rows), interleaved A/B
// in the same run. Goal: the case page p95 <= 100 ms.
// With --bundle: GET /api/cases/{id}/bundle of that case, its time to first byte and total time, and
// the server's resident memory sampled every 100 ms while it streams (does the bundle buffer?).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { fmt, freshDatabase, percentile, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '200' },
    runs: { type: 'string', default: '300' },
    bundle: { type: 'string', default: 'true' },
    /** The case page and its graph in Chromium, beside the history page. */
    browser: { type: 'string', default: 'true' },
    /** Leave the database in place (its URL is printed) for EXPLAIN. */
    keep: { type: 'boolean', default: false },
    /** Write a CPU profile of the server to this directory (node --cpu-prof). */
    'cpu-prof': { type: 'string' },
  },
});
const items = Number(values.items);
const runs = Number(values.runs);
const withBundle = values.bundle !== 'false';
const GOAL_P95_MS = 100;

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
console.log(`Machine: ${availableParallelism()} cores, load average ${load()} (1, 5, 15 min) at start`);

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const day = (i: number) => `20${pad(15 + (i % 10), 2)}-${pad(1 + (i % 12), 2)}-${pad(1 + (i % 28), 2)}`;

/** A stored phone-lookup result: the ISP answer and 2 or 3 OSINT records, each with its dates. */
function syntheticResult(i: number, shared: boolean) {
  const records = Array.from({ length: i % 2 === 0 ? 3 : 2 }, (_, k) => ({
    source: `Bench Leak ${k + 1}`,
    name: shared && k === 0 ? 'Rohan Deshmukh' : `Person ${i} ${k}`,
    username: `bench_user_${i}_${k}`,
    phone: `+91 7${pad(i * 3 + k, 9)}`,
    email: `person.${i}.${k}@example.test`,
    address: `Flat ${i}, Lane ${k}, Pune`,
    last_seen: day(i + k),
    registered_on: `${day(i + k + 3)} 10:${pad(k, 2)}:00`,
  }));
  return {
    payloads: {
      hlrData: { msisdn: `9170${pad(i, 8)}`, timestamp: `${day(i)}T06:26:08.000Z` },
      osintData: { data: records },
    },
    errors: {},
  };
}

async function seed(url: string, userId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const newCase = async (reference: string) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into cases (owner_id, title, reference) values ($1, $2, $2) returning id`,
      [userId, reference],
    );
    return rows[0]!.id;
  };
  const main = await newCase('BENCH-CASE');
  const other = await newCase('BENCH-OTHER');
  const file = async (caseId: string, i: number, shared: boolean) => {
    const query = `9170${pad(i, 8)}`;
    const { rows } = await client.query<{ id: string }>(
      `insert into lookups (user_id, kind, query, query_typed, cost, status, result, sandbox, case_reference,
         created_at, completed_at, sources_answered)
       values ($1, 'tel', $2, $2, 1, 'complete', $3, true, $4, now() - ($5 || ' minutes')::interval,
         now() - ($5 || ' minutes')::interval, '["hlrData","osintData"]')
       returning id`,
      [
        userId,
        query,
        JSON.stringify(syntheticResult(i, shared)),
        caseId === main ? 'BENCH-CASE' : 'BENCH-OTHER',
        String(i),
      ],
    );
    await client.query(`insert into case_items (case_id, lookup_id, added_by) values ($1, $2, $3)`, [
      caseId,
      rows[0]!.id,
      userId,
    ]);
  };
  for (let i = 0; i < items; i++) await file(main, i, i % 10 === 0);
  // The other case's searches find some of the same people (same numbers and e-mails).
  for (let i = 0; i < 20; i++) await file(other, i * 10, true);
  await client.query('analyze');
  await client.end();
  return { main, other };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(port: number, token: string, path: string) {
  return new Promise<{ ms: number; status: number; bytes: number; body: string }>((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      { host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            ms: performance.now() - t0,
            status: res.statusCode ?? 0,
            bytes: body.length,
            body: body.toString(),
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

/**
 * The page in Chromium, as a user gets it: /history until its first row shows, then /cases/{id} until
 * its heading shows and, after a click on Graph, until the graph of every search and entity is drawn,
 * with the main thread's long tasks meanwhile (what keeps the page from answering input), and then how
 * long the page takes to answer a drag on the graph (one frame after the input).
 */
async function browserStep(token: string, caseId: string, searches: number, entities: number) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const rows: string[] = [];
    for (let round = 0; round < 3; round++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(`http://127.0.0.1:${port}/about`);
      // Browser-side code as strings: this file is typed for Node, not the DOM.
      const expiry = new Date(Date.now() + 3_600_000).toISOString();
      await page.evaluate(
        `localStorage.setItem('auth_token', ${JSON.stringify(token)}); localStorage.setItem('token_expiry', '${expiry}');`,
      );
      await page.addInitScript({
        content: `window.longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });`,
      });
      const longTasks = () =>
        page.evaluate(
          `(() => { const all = window.longTasks.splice(0); return { total: all.reduce((a, b) => a + b, 0), max: Math.max(0, ...all) }; })()`,
        ) as Promise<{ total: number; max: number }>;
      let t0 = performance.now();
      await page.goto(`http://127.0.0.1:${port}/history`);
      await page.locator('table tbody tr').first().waitFor({ timeout: 60_000 });
      const history = performance.now() - t0;
      await longTasks();
      t0 = performance.now();
      await page.goto(`http://127.0.0.1:${port}/cases/${caseId}`);
      await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Graph', exact: true }).waitFor({ timeout: 60_000 });
      const casePage = performance.now() - t0;
      const caseTasks = await longTasks();
      t0 = performance.now();
      await page.getByRole('button', { name: 'Graph', exact: true }).click();
      await page.locator('[data-ready="true"]').waitFor({ timeout: 120_000 });
      const graph = performance.now() - t0;
      const graphTasks = await longTasks();
      // A drag across the graph: the time until the page has painted the frame after it, beside the
      // same drag over the page's heading (no handler: the input's own round trips, the baseline).
      const dragOver = async (box: { x: number; y: number; width: number; height: number }) => {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        const start = performance.now();
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 40, { steps: 4 });
        await page.mouse.up();
        await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(null)))');
        return performance.now() - start;
      };
      const plain = await dragOver((await page.getByRole('heading', { level: 1 }).boundingBox())!);
      const drag = await dragOver(
        (await page.getByRole('img', { name: /^Graph of the case/ }).boundingBox())!,
      );
      rows.push(
        `| ${round + 1} | ${fmt(history)} | ${fmt(casePage)} | ${fmt(caseTasks.total)} / ${fmt(caseTasks.max)} | ${fmt(graph)} | ${fmt(graphTasks.total)} / ${fmt(graphTasks.max)} | ${fmt(drag)} / ${fmt(plain)} |`,
      );
      await page.close();
    }
    console.log(
      `\nIn Chromium (desktop 1440x900), ${searches} searches and ${entities} entities; load average ${load()}:`,
    );
    console.log(
      '| round | /history to first row ms | case page to heading ms | its long tasks total / max ms | Graph click to drawn ms | its long tasks total / max ms | drag to next frame ms: graph / heading |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await browser.close();
  }
}

const db = await freshDatabase();
const port = 3800 + Math.floor(Math.random() * 90);
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  server = await startServer(
    { DATABASE_URL: db.url, RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' },
    port,
    values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [],
  );
  const [token] = await seedUsers(db.url, 1, 1_000);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query<{ user_id: string }>('select user_id from auth_tokens limit 1');
  await client.end();
  const { main: caseId, other: otherId } = await seed(db.url, rows[0]!.user_id);
  const casePath = `/api/cases/${caseId}`;

  const first = await get(port, token!, casePath);
  if (first.status !== 200)
    throw new Error(`case page answered ${first.status}: ${first.body.slice(0, 300)}`);
  const detail = JSON.parse(first.body) as { items: unknown[]; entities: unknown[]; timeline: unknown[] };
  console.log(
    `Case: ${detail.items.length} searches, ${detail.entities.length} entities, ${detail.timeline.length} timeline entries; ` +
      `first open (reads every search's entities and dates): ${fmt(first.ms)} ms, ${fmt(first.bytes / 1024, 0)} KiB`,
  );
  const parts = Object.entries(JSON.parse(first.body) as Record<string, unknown>)
    .map(([key, value]) => [key, JSON.stringify(value).length] as const)
    .filter(([, bytes]) => bytes > 1024)
    .map(([key, bytes]) => `${key} ${fmt(bytes / 1024, 0)} KiB`);
  console.log(`Its answer: ${parts.join(', ')}`);
  const history = await get(port, token!, '/api/history');
  if (history.status !== 200) throw new Error(`history answered ${history.status}`);

  for (let i = 0; i < 20; i++) {
    await get(port, token!, casePath);
    await get(port, token!, '/api/history');
  }
  const times = { case: [] as number[], history: [] as number[] };
  let caseBytes = 0;
  let historyBytes = 0;
  for (let i = 0; i < runs; i++) {
    const a = await get(port, token!, casePath);
    const b = await get(port, token!, '/api/history');
    if (a.status !== 200 || b.status !== 200) throw new Error(`non-200: ${a.status} ${b.status}`);
    times.case.push(a.ms);
    times.history.push(b.ms);
    caseBytes = a.bytes;
    historyBytes = b.bytes;
  }
  const row = (name: string, ms: number[], bytes: number) =>
    `| ${name} | ${ms.length} | ${fmt(bytes / 1024, 0)} | ${fmt(percentile(ms, 50))} | ${fmt(percentile(ms, 95))} | ${fmt(percentile(ms, 99))} |`;
  console.log(`\n| route | requests | KiB | p50 ms | p95 ms | p99 ms |`);
  console.log('|---|---|---|---|---|---|');
  console.log(
    row(
      `GET /api/cases/{id} (${detail.items.length} searches, ${detail.entities.length} entities)`,
      times.case,
      caseBytes,
    ),
  );
  console.log(
    row('GET /api/history (baseline: same user, same rows, first page)', times.history, historyBytes),
  );
  // The server's own CPU per request (user + system, from /proc), which the machine's load does not
  // inflate the way it inflates wall-clock latency: blocks of each route, alternating.
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${server!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  };
  const cpu = { case: 0, history: 0 };
  const block = 40;
  for (let round = 0; round < 3; round++) {
    for (const [key, path] of [
      ['case', casePath],
      ['history', '/api/history'],
    ] as const) {
      const before = cpuMs();
      for (let i = 0; i < block; i++) await get(port, token!, path);
      cpu[key] += (cpuMs() - before) / (3 * block);
    }
  }
  console.log(
    `Server CPU per request (user + system, ${3 * block} requests each): case page ${fmt(cpu.case)} ms, history ${fmt(cpu.history)} ms`,
  );
  const p95 = percentile(times.case, 95);
  console.log(
    `\nCase page ÷ history: p50 ${fmt(percentile(times.case, 50) / percentile(times.history, 50), 2)}x, ` +
      `p95 ${fmt(p95 / percentile(times.history, 95), 2)}x. Goal: case page p95 <= ${GOAL_P95_MS} ms: ${p95 <= GOAL_P95_MS ? 'met' : 'NOT MET'}.`,
  );
  console.log(`Load average ${load()} after the page runs`);

  if (values.browser !== 'false')
    await browserStep(token!, caseId, detail.items.length, detail.entities.length);

  if (withBundle) {
    // The bundle of the small case first (it also starts the report pool's worker thread, whose own
    // heap is most of the first jump in RSS), then the large one twice.
    const pid = server.pid;
    const bundle = async (id: string, searches: number) => {
      const before = rssMb(pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
      }, 100);
      const t0 = performance.now();
      const result = await new Promise<{ ttfb: number; total: number; bytes: number; status: number }>(
        (resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              path: `/api/cases/${id}/bundle`,
              headers: { authorization: `Bearer ${token}` },
            },
            (res) => {
              let ttfb = -1;
              let bytes = 0;
              res.on('data', (c: Buffer) => {
                if (ttfb < 0) ttfb = performance.now() - t0;
                bytes += c.length;
              });
              res.on('end', () =>
                resolve({ ttfb, total: performance.now() - t0, bytes, status: res.statusCode ?? 0 }),
              );
            },
          );
          req.on('error', reject);
          req.end();
        },
      );
      clearInterval(sampler);
      console.log(
        `| ${searches} | ${result.status} | ${fmt(result.bytes / 1024 / 1024, 2)} | ${fmt(result.ttfb / 1000, 2)} | ${fmt(result.total / 1000, 1)} | ${fmt(before, 0)} | ${fmt(peak, 0)} |`,
      );
    };
    console.log('\nBundles (phone reports, results, audit, manifest), server RSS sampled every 100 ms:');
    console.log('| searches | status | ZIP MiB | first byte s | whole s | RSS before MiB | RSS peak MiB |');
    console.log('|---|---|---|---|---|---|---|');
    await bundle(otherId, 20);
    await bundle(caseId, detail.items.length);
    // Again: a peak that keeps rising would be a leak; one that stays is the heaps' high-water mark.
    await bundle(caseId, detail.items.length);
    console.log(`Load average ${load()} at the end`);
  }
} finally {
  agent.destroy();
  await server?.stop();
  if (values.keep) console.log(`Database kept: ${db.url}`);
  else await db.drop();
}
