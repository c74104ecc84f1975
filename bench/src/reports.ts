// Benchmark of report rendering. Run: npm run bench:reports [-- --runs 40 --seconds 8]
// 1. Median and p95 time to render the rich demo phone report with the product's engine (pdfkit),
//    beside headless Chromium printing the same content from HTML (page.pdf), in the same run.
//    Goals: at least 5x faster than Chromium, median under 150 ms.
// 2. /api/tel p99 while 20 reports render concurrently, beside its idle p99. Goal: within 2x.
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { renderReport } from '../../apps/server/src/modules/reports/render/index.ts';
import { fmt, freshDatabase, load, percentile, seedUsers, startServer } from './harness.ts';
import { richPhoneHtml, richPhoneJob } from './report-fixture.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '40' }, seconds: { type: 'string', default: '8' } },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);

// ---- 1. engine against Chromium ----
const job = richPhoneJob();
const html = richPhoneHtml(job);
for (let i = 0; i < 5; i++) await renderReport(job); // warm-up
const engine: number[] = [];
let pages = 0;
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const pdf = await renderReport(job);
  engine.push(performance.now() - t0);
  pages = (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
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
const page = await browser.newPage();
const printOnce = async () => {
  await page.setContent(html);
  return page.pdf({ format: 'A4', printBackground: true });
};
// A server would give each report its own page (no state shared between two users' reports).
const printIsolated = async () => {
  const own = await browser.newPage();
  await own.setContent(html);
  const pdf = await own.pdf({ format: 'A4', printBackground: true });
  await own.close();
  return pdf;
};
for (let i = 0; i < 3; i++) {
  await printOnce();
  await printIsolated();
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
console.log(`Rich demo phone report (${pages} pages), ${runs} renders (Chromium: ${chrome.length})`);
console.log('\n| renderer | median ms | p95 ms |\n|---|---|---|');
console.log(`| pdfkit (Footprint report engine) | ${fmt(em)} | ${fmt(percentile(engine, 95))} |`);
console.log(`| Chromium page.pdf, one warm page reused | ${fmt(cm)} | ${fmt(percentile(chrome, 95))} |`);
const ci = percentile(chromeIsolated, 50);
console.log(
  `| Chromium page.pdf, a new page per report | ${fmt(ci)} | ${fmt(percentile(chromeIsolated, 95))} |`,
);
console.log(
  `\nspeed-up = ${fmt(cm / em, 1)}x against a reused page, ${fmt(ci / em, 1)}x against a page per report (goal >= 5x); median ${fmt(em)} ms (goal < 150 ms)`,
);

// ---- 2. lookups while reports render ----
const db = await freshDatabase();
const port = 3800 + Math.floor(Math.random() * 90);
const server = await startServer(
  { DATABASE_URL: db.url, RATE_LIMIT_ENABLED: 'false', LOOKUP_CACHE_HOURS: '0' },
  port,
);
try {
  const workers = 20;
  const tokens = await seedUsers(db.url, workers + 20);
  const token = (w: number) => tokens[w]!;
  const tel = (w: number, i: number) => `/api/tel?number=91${7_100_000_000 + w * 100_000 + i}`;
  // Each report writer needs a stored lookup of its own to render.
  for (let r = 0; r < 20; r++) {
    await fetch(`http://127.0.0.1:${port}/api/tel?number=919876543210`, {
      headers: { authorization: `Bearer ${tokens[workers + r]}` },
    });
  }
  await load({ port, seconds: 2, workers, token, path: tel });
  const idle = await load({ port, seconds, workers, token, path: (w, i) => tel(w, 50_000 + i) });
  let rendering = true;
  let rendered = 0;
  const writers = Array.from({ length: 20 }, async (_, r) => {
    while (rendering) {
      const res = await fetch(`http://127.0.0.1:${port}/api/generate-report`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[workers + r]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ userInput: '9876543210', type: 'tel' }),
      });
      await res.arrayBuffer();
      if (res.ok) rendered += 1;
    }
  });
  const busy = await load({ port, seconds, workers, token, path: (w, i) => tel(w, 90_000 + i) });
  rendering = false;
  await Promise.all(writers);
  const p99 = (run: typeof idle) =>
    percentile(
      run.samples.filter((s) => s.status === 200).map((s) => s.ms),
      99,
    );
  console.log(
    `\n/api/tel with ${workers} concurrent users, ${seconds} s each; report renders during the busy run: ${rendered}`,
  );
  console.log('\n| /api/tel | req/s | p50 ms | p99 ms |\n|---|---|---|---|');
  for (const [name, run] of [
    ['idle', idle],
    ['while 20 reports render', busy],
  ] as const) {
    const ok = run.samples.filter((s) => s.status === 200).map((s) => s.ms);
    console.log(
      `| ${name} | ${fmt(ok.length / run.seconds, 0)} | ${fmt(percentile(ok, 50))} | ${fmt(percentile(ok, 99))} |`,
    );
  }
  console.log(`\np99 ratio busy : idle = ${fmt(p99(busy) / p99(idle), 2)} (goal <= 2)`);
} finally {
  await server.stop();
  await db.drop();
}
