// Benchmark of the case page. Run: npm run bench:cases [-- --items 200 --runs 300 --bundle true]
// Seeds, directly in a fresh PostgreSQL database, one user with a case of 200 synthetic phone searches
// whose results hold ~2,000 entities and ~1,000 dated facts, and a second case of 20 searches sharing
// some of them (so `other_cases` has work). Then, on the built server over HTTP on 127.0.0.1 with one
// keep-alive client: the first open of the case (reads every search's entities and dates once), and
// p50/p95/p99 of GET /api/cases/{id} beside GET /api/history (same user, same rows), interleaved A/B
// in the same run. Goal: the case page p95 <= 100 ms.
// With --bundle: GET /api/cases/{id}/bundle of that case, its time to first byte and total time, and
// the server's resident memory sampled every 100 ms while it streams (does the bundle buffer?).
// With --small (on by default; `--small only` runs nothing else): the bundle of a one-search case (the
// rich demo phone 919876543210 as the sandbox answers it), right after the server starts (cold: its
// first report) and then --small-runs times warm, time to first byte and whole, and the server's CPU
// per bundle from /proc, beside the goal (whole bundle < 1 s) and a baseline: the same search's lookup
// report alone (POST /api/generate-report).
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { PHONE_SOURCES, sourceStatusOf } from '@footprint/domain';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { sandboxPayload } from '../../apps/server/src/sandbox/index.ts';
import { fmt, freshDatabase, percentile, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '200' },
    runs: { type: 'string', default: '300' },
    bundle: { type: 'string', default: 'true' },
    /** The bundle of a one-search case, cold and warm: true, false, or only (nothing else). */
    small: { type: 'string', default: 'true' },
    'small-runs': { type: 'string', default: '10' },
    /**
     * Seconds between the server answering /api/health and the cold bundle (a server that has been
     * up); then also until its render threads have been idle for 2 s (a warm-up finished).
     */
    'small-after': { type: 'string', default: '5' },
    /** Run the server of another checkout's build (a baseline), e.g. a worktree of the previous commit. */
    checkout: { type: 'string' },
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
const small = values.small ?? 'true';
const smallRuns = Number(values['small-runs']);
const GOAL_P95_MS = 100;
const GOAL_SMALL_BUNDLE_MS = 1000;

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

/** The rich demo phone's stored answer, as the sandbox gives it (every phone source asked). */
function richPhoneResult() {
  const payloads: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const source of PHONE_SOURCES) {
    try {
      payloads[source] = sandboxPayload(source, { kind: 'tel', value: '919876543210' });
    } catch (error) {
      errors[source] = (error as Error).message;
    }
  }
  const { status } = sourceStatusOf('tel', { payloads, errors, sandbox: true });
  return { payloads, errors, status };
}

/** A case of one search: the rich demo phone, filed under it. */
async function seedSmallCase(url: string, userId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const result = richPhoneResult();
  const { rows: made } = await client.query<{ id: string }>(
    `insert into cases (owner_id, title, reference) values ($1, 'Small case', 'BENCH-SMALL') returning id`,
    [userId],
  );
  const { rows } = await client.query<{ id: string }>(
    `insert into lookups (user_id, kind, query, query_typed, cost, status, result, sandbox, case_reference,
       created_at, completed_at, sources_answered)
     values ($1, 'tel', '919876543210', '919876543210', 1, 'complete', $2, true, 'BENCH-SMALL', now(), now(), $3)
     returning id`,
    [userId, JSON.stringify(result), JSON.stringify(Object.keys(result.payloads))],
  );
  await client.query(`insert into case_items (case_id, lookup_id, added_by) values ($1, $2, $3)`, [
    made[0]!.id,
    rows[0]!.id,
    userId,
  ]);
  await client.end();
  return { caseId: made[0]!.id, lookupId: rows[0]!.id };
}

/** Downloads a path (GET, or POST with a JSON body) on its own connection: time to first byte and whole. */
function download(port: number, token: string, path: string, body?: unknown) {
  return new Promise<{ ttfb: number; total: number; bytes: number; status: number }>((resolve, reject) => {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: payload ? 'POST' : 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
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
    req.end(payload);
  });
}

/** The server's CPU time so far (user + system, every thread), in ms, from /proc. */
const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
};

/**
 * Waits until the server's render threads (the ones reniced to 19) have used no CPU for 2 s, at most
 * 60 s: a warm-up drawn at start (REPORT_WARM) has finished. Answers their CPU time so far, in ms.
 */
async function renderThreadsSettled(pid: number): Promise<number> {
  const niced = () => {
    let ms = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ');
        if (Number(fields[16]) === 19) ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      } catch {
        // The thread ended meanwhile.
      }
    }
    return ms;
  };
  const deadline = Date.now() + 60_000;
  let last = niced();
  let still = 0;
  while (still < 4 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = niced();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return last;
}

/**
 * The bundle of a one-search case: the first one after the server started (cold), then `runs` warm,
 * interleaved with the same search's lookup report alone (the baseline), with the server's CPU each.
 */
async function smallCaseStep(port: number, token: string, pid: number, caseId: string, lookupId: string) {
  const bundlePath = `/api/cases/${caseId}/bundle`;
  const reportBody = { userInput: '9876543210', type: 'tel', results: { lookup_id: lookupId } };
  const timed = async (run: () => ReturnType<typeof download>) => {
    const before = cpuMsOf(pid);
    const result = await run();
    if (result.status !== 200) throw new Error(`answered ${result.status}`);
    return { ...result, cpu: cpuMsOf(pid) - before };
  };
  const cold = await timed(() => download(port, token, bundlePath));
  console.log(`Server RSS after the cold bundle: ${fmt(rssMb(pid), 0)} MiB`);
  const warm: Array<Awaited<ReturnType<typeof timed>>> = [];
  const report: Array<Awaited<ReturnType<typeof timed>>> = [];
  for (let i = 0; i < smallRuns; i++) {
    warm.push(await timed(() => download(port, token, bundlePath)));
    report.push(await timed(() => download(port, token, '/api/generate-report', reportBody)));
  }
  const median = (rows: typeof warm, key: 'ttfb' | 'total' | 'cpu') =>
    percentile(
      rows.map((r) => r[key]),
      50,
    );
  const line = (name: string, rows: typeof warm) =>
    `| ${name} | ${rows.length} | ${fmt(rows[0]!.bytes / 1024, 0)} | ${fmt(median(rows, 'ttfb'))} | ${fmt(median(rows, 'total'))} | ${fmt(
      percentile(
        rows.map((r) => r.total),
        95,
      ),
    )} | ${fmt(median(rows, 'cpu'))} |`;
  console.log(`\nSmall case (1 search: the rich demo phone), load average ${load()}:`);
  console.log(
    '| download | runs | KiB | first byte ms (median) | whole ms (median) | whole ms p95 | server CPU ms (median) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    line(`bundle, cold (the server's first report, ${values['small-after']} s after it started)`, [cold]),
  );
  console.log(line('bundle, warm', warm));
  console.log(line('baseline: its lookup report alone (POST /api/generate-report)', report));
  const whole = median(warm, 'total');
  console.log(
    `Goal: the small bundle in < ${GOAL_SMALL_BUNDLE_MS} ms: cold ${fmt(cold.total)} ms ${cold.total < GOAL_SMALL_BUNDLE_MS ? 'met' : 'NOT MET'}, ` +
      `warm median ${fmt(whole)} ms ${whole < GOAL_SMALL_BUNDLE_MS ? 'met' : 'NOT MET'}; ` +
      `bundle ÷ report alone ${fmt(whole / median(report, 'total'), 2)}x.`,
  );
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
    values.checkout,
  );
  const upAt = performance.now();
  const token = (await seedUsers(db.url, 1, 1_000))[0]!;
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query<{ user_id: string }>('select user_id from auth_tokens limit 1');
  await client.end();
  if (small !== 'false') {
    // First, while the server has drawn no report yet: the cold figure is its first bundle.
    const one = await seedSmallCase(db.url, rows[0]!.user_id);
    const after = Number(values['small-after']) * 1000 - (performance.now() - upAt);
    if (after > 0) await new Promise((resolve) => setTimeout(resolve, after));
    const warmCpu = await renderThreadsSettled(server.pid);
    console.log(
      `Render threads idle ${fmt((performance.now() - upAt) / 1000)} s after the server answered, having used ${fmt(warmCpu, 0)} ms CPU (a warm-up); server RSS ${fmt(rssMb(server.pid), 0)} MiB`,
    );
    await smallCaseStep(port, token, server.pid, one.caseId, one.lookupId);
  }
  if (small !== 'only') await largeCaseSteps(token, rows[0]!.user_id);
} finally {
  agent.destroy();
  await server?.stop();
  if (values.keep) console.log(`Database kept: ${db.url}`);
  else await db.drop();
}

/** The large case: its page, in Chromium, and its bundle (with the 20-search one). */
async function largeCaseSteps(token: string, userId: string) {
  const { main: caseId, other: otherId } = await seed(db.url, userId);
  const casePath = `/api/cases/${caseId}`;

  const first = await get(port, token, casePath);
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
  const history = await get(port, token, '/api/history');
  if (history.status !== 200) throw new Error(`history answered ${history.status}`);

  for (let i = 0; i < 20; i++) {
    await get(port, token, casePath);
    await get(port, token, '/api/history');
  }
  const times = { case: [] as number[], history: [] as number[] };
  let caseBytes = 0;
  let historyBytes = 0;
  for (let i = 0; i < runs; i++) {
    const a = await get(port, token, casePath);
    const b = await get(port, token, '/api/history');
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
      for (let i = 0; i < block; i++) await get(port, token, path);
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
    await browserStep(token, caseId, detail.items.length, detail.entities.length);

  if (withBundle) {
    // The bundle of the 20-search case first (on a server without REPORT_WARM it also starts the report
    // pool's worker thread, whose own heap is most of the first jump in RSS), then the large one twice.
    const pid = server!.pid;
    const bundle = async (id: string, searches: number) => {
      const before = rssMb(pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
      }, 100);
      const result = await download(port, token, `/api/cases/${id}/bundle`);
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
}
