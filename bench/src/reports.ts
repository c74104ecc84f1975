// Benchmark of report rendering. Run: npm run bench:reports [-- --runs 40 --seconds 8 --rounds 3]
// 1. Median and p95 time to render the rich demo phone report with the product's engine (pdfkit),
//    beside headless Chromium printing the same report from HTML (page.pdf), in the same run. The HTML
//    is drawn by the report's own section code (render/html.ts), and both PDFs are read back with
//    pdftotext: a run whose word counts differ by more than 5 % is refused (exit 1).
//    Goals: pdfkit at least 5x faster than a warm Chromium page, median under 150 ms.
// 2. /api/tel p99 while 20 reports render concurrently, beside its idle p99, --rounds times.
//    Goal: within 2x in every round.
// 3. What a report costs the server's request thread (the one that answers lookups): its CPU per
//    report with the 20 report writers alone, beside its CPU per lookup in the idle lookup runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { chromium } from 'playwright-core';
import { renderReport } from '../../apps/server/src/modules/reports/render/index.ts';
import { fmt, freshDatabase, load, percentile, seedUsers, startServer } from './harness.ts';
import { richPhoneHtml, richPhoneJob } from './report-fixture.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const SPEED_GOAL = 5;
const P99_GOAL = 2;
const MAX_WORD_GAP = 0.05;

/** CPU seconds (user + system) of a process's main thread so far, from /proc (Linux). */
function mainThreadCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** 20 clients asking for reports back to back until told to stop; then it posts what they got. */
const REPORT_WRITERS = `
const { parentPort, workerData } = require('node:worker_threads');
let rendering = true;
let rendered = 0;
let failed = 0;
parentPort.once('message', () => { rendering = false; });
Promise.all(workerData.tokens.map(async (token) => {
  while (rendering) {
    const res = await fetch('http://127.0.0.1:' + workerData.port + '/api/generate-report', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
      body: JSON.stringify({ userInput: '9876543210', type: 'tel' }),
    });
    await res.arrayBuffer();
    if (res.ok) rendered += 1;
    else failed += 1;
  }
})).then(() => parentPort.postMessage({ rendered, failed }));
`;

console.log(
  `Machine: ${availableParallelism()} cores, load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} (1, 5, 15 min) at start`,
);

// ---- 1. engine against Chromium ----
const job = richPhoneJob();
const printable = richPhoneHtml(job);
for (let i = 0; i < 5; i++) await renderReport(job); // warm-up
const engine: number[] = [];
let enginePdf: Buffer = Buffer.alloc(0);
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  enginePdf = await renderReport(job);
  engine.push(performance.now() - t0);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
});
// The PDF's page furniture: the header band and 'Report … · Page X of Y' on every page.
const pdfOptions = {
  format: 'A4',
  printBackground: true,
  displayHeaderFooter: true,
  headerTemplate: printable.headerTemplate,
  footerTemplate: printable.footerTemplate,
  margin: printable.margin,
} as const;
const page = await browser.newPage();
const printOnce = async () => {
  await page.setContent(printable.html);
  return page.pdf(pdfOptions);
};
// A server would give each report its own page (no state shared between two users' reports).
const printIsolated = async () => {
  const own = await browser.newPage();
  await own.setContent(printable.html);
  const pdf = await own.pdf(pdfOptions);
  await own.close();
  return pdf;
};
let chromePdf: Buffer = Buffer.alloc(0);
for (let i = 0; i < 3; i++) {
  chromePdf = await printOnce();
  await printIsolated();
}

/** Pages and words of a PDF as poppler reads it back (the same tool for both renderers). */
const work = mkdtempSync(join(tmpdir(), 'fp-bench-reports-'));
function readBack(name: string, pdf: Buffer): { pages: number; words: number } {
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  const pdftotext = process.env.PDFTOTEXT_PATH ?? '/usr/bin/pdftotext';
  let text: string;
  try {
    text = execFileSync(pdftotext, ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } catch (error) {
    console.error(
      `Cannot read the PDFs back: ${pdftotext} failed (${(error as Error).message}). Install poppler-utils.`,
    );
    process.exit(1);
  }
  return {
    pages: text.split('\f').filter((p) => p.trim()).length,
    words: text.split(/\s+/).filter(Boolean).length,
  };
}
const pdfkitText = readBack('pdfkit', enginePdf);
const chromeText = readBack('chromium', chromePdf);
rmSync(work, { recursive: true, force: true });
const wordGap = Math.abs(pdfkitText.words - chromeText.words) / Math.max(pdfkitText.words, chromeText.words);
console.log('\nSame content check (pdftotext):\n\n| renderer | pages | words |\n|---|---|---|');
console.log(`| pdfkit | ${pdfkitText.pages} | ${pdfkitText.words} |`);
console.log(`| Chromium page.pdf | ${chromeText.pages} | ${chromeText.words} |`);
console.log(`\nwords differ by ${fmt(wordGap * 100, 1)} % (at most ${MAX_WORD_GAP * 100} % allowed)`);
if (!(wordGap <= MAX_WORD_GAP)) {
  await browser.close();
  console.error(
    `\nRefused: the Chromium PDF has ${chromeText.words} words and the pdfkit PDF ${pdfkitText.words} (${fmt(wordGap * 100, 1)} % apart, more than ${MAX_WORD_GAP * 100} %). The two do not print the same content, so their times cannot be compared.`,
  );
  process.exit(1);
}

const chrome: number[] = [];
const chromeIsolated: number[] = [];
for (let i = 0; i < Math.min(runs, 20); i++) {
  let t0 = performance.now();
  await printOnce();
  chrome.push(performance.now() - t0);
  t0 = performance.now();
  await printIsolated();
  chromeIsolated.push(performance.now() - t0);
}
await browser.close();
const em = percentile(engine, 50);
const cm = percentile(chrome, 50);
const ci = percentile(chromeIsolated, 50);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
console.log(
  `\nRich demo phone report, ${runs} renders (Chromium: ${chrome.length} of each kind)\n\n| renderer | median ms | p95 ms |\n|---|---|---|`,
);
console.log(`| pdfkit (Footprint report engine) | ${fmt(em)} | ${fmt(percentile(engine, 95))} |`);
console.log(`| Chromium page.pdf, one warm page reused | ${fmt(cm)} | ${fmt(percentile(chrome, 95))} |`);
console.log(
  `| Chromium page.pdf, a new page per report | ${fmt(ci)} | ${fmt(percentile(chromeIsolated, 95))} |`,
);
console.log(
  `\nspeed-up against a warm page = ${fmt(cm / em, 1)}x (goal >= ${SPEED_GOAL}x: ${verdict(cm / em >= SPEED_GOAL)}); against a page per report ${fmt(ci / em, 1)}x`,
);
console.log(`pdfkit median ${fmt(em)} ms (goal < 150 ms: ${verdict(em < 150)})`);

// ---- 2. lookups while reports render ----
const db = await freshDatabase();
const port = 3800 + Math.floor(Math.random() * 90);
const server = await startServer(
  { DATABASE_URL: db.url, RATE_LIMIT_ENABLED: 'false', LOOKUP_CACHE_HOURS: '0' },
  port,
);
let met = 0;
try {
  const workers = 20;
  const tokens = await seedUsers(db.url, workers + 20);
  const token = (w: number) => tokens[w]!;
  // Each round asks for numbers no earlier round asked for (no cache can answer them).
  const tel = (w: number, i: number) => `/api/tel?number=91${7_100_000_000 + w * 100_000 + i}`;
  // Each report writer needs a stored lookup of its own to render.
  for (let r = 0; r < 20; r++) {
    await fetch(`http://127.0.0.1:${port}/api/tel?number=919876543210`, {
      headers: { authorization: `Bearer ${tokens[workers + r]}` },
    });
  }
  // One set of keep-alive connections for every lookup load, warm before the first measurement.
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
  await load({ port, seconds: 2, workers, token, agent, path: tel });
  const p99 = (run: Awaited<ReturnType<typeof load>>) =>
    percentile(
      run.samples.filter((s) => s.status === 200).map((s) => s.ms),
      99,
    );
  /**
   * 20 clients asking for reports back to back. They run on a thread of their own: they are other
   * people's browsers, so the PDFs they download must not queue on the event loop that times lookups.
   */
  const startWriters = () => {
    const writers = new Worker(REPORT_WRITERS, {
      eval: true,
      workerData: { port, tokens: tokens.slice(workers, workers + 20) },
    });
    const tally = new Promise<{ rendered: number; failed: number }>((resolve, reject) => {
      writers.once('message', resolve);
      writers.once('error', reject);
    });
    return {
      async stop() {
        writers.postMessage('stop');
        const result = await tally;
        await writers.terminate();
        return result;
      },
    };
  };
  const summary: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    const base = round * 20_000;
    // Both loads are timed after their first second: the 20 clients start in the same millisecond, and
    // the reports need a moment to be rendering in earnest.
    const idle = await load({
      port,
      seconds,
      warmup: 1,
      workers,
      token,
      agent,
      path: (w, i) => tel(w, base + i),
    });
    const writers = startWriters();
    const busy = await load({
      port,
      seconds,
      workers,
      token,
      agent,
      warmup: 1,
      path: (w, i) => tel(w, base + 10_000 + i),
    });
    const { rendered, failed } = await writers.stop();
    console.log(
      `\nRound ${round} of ${rounds}: /api/tel with ${workers} concurrent users, ${seconds} s each; reports rendered during the busy run: ${rendered}${failed ? ` (${failed} failed)` : ''}; load average ${loadavg()[0]!.toFixed(2)}`,
    );
    console.log(
      '\n| /api/tel | req/s | p50 ms | p99 ms | in the server (Server-Timing app) p99 ms |\n|---|---|---|---|---|',
    );
    for (const [name, run] of [
      ['idle', idle],
      ['while 20 reports render', busy],
    ] as const) {
      const ok = run.samples.filter((s) => s.status === 200);
      const ms = ok.map((s) => s.ms);
      const inServer = ok
        .map((s) => Number(/app;dur=([\d.]+)/.exec(s.serverTiming ?? '')?.[1]))
        .filter(Number.isFinite);
      console.log(
        `| ${name} | ${fmt(ms.length / run.seconds, 0)} | ${fmt(percentile(ms, 50))} | ${fmt(percentile(ms, 99))} | ${fmt(percentile(inServer, 99))} |`,
      );
    }
    const ratio = p99(busy) / p99(idle);
    if (ratio <= P99_GOAL) met += 1;
    summary.push(fmt(ratio, 2));
    console.log(
      `\np99 ratio busy : idle = ${fmt(ratio, 2)} (goal <= ${P99_GOAL}: ${verdict(ratio <= P99_GOAL)})`,
    );
  }
  console.log(
    `\np99 ratios: ${summary.join(', ')}; goal <= ${P99_GOAL}x in ${rounds} of ${rounds} rounds: ${verdict(met === rounds)} (${met} of ${rounds})`,
  );

  // ---- 3. what a report costs the request thread, beside what a lookup costs it ----
  let before = mainThreadCpu(server.pid);
  const lookupsAlone = await load({
    port,
    seconds,
    workers,
    token,
    agent,
    path: (w, i) => tel(w, 90_000 + i),
  });
  const perLookup = ((mainThreadCpu(server.pid) - before) * 1000) / lookupsAlone.samples.length;
  before = mainThreadCpu(server.pid);
  const alone = startWriters();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const { rendered } = await alone.stop();
  const perReport = ((mainThreadCpu(server.pid) - before) * 1000) / Math.max(rendered, 1);
  console.log(
    `\nThe server's request thread (the one that answers lookups), from /proc: ${fmt(perReport, 2)} ms of CPU per report (${rendered} reports, nothing else running) against ${fmt(perLookup, 2)} ms per lookup (${lookupsAlone.samples.length} lookups, nothing else running): a report costs it ${fmt(perReport / perLookup, 1)} lookups`,
  );
  agent.destroy();
} finally {
  await server.stop();
  await db.drop();
}
