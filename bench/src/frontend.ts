// Front-end speed. Run: npm run bench:frontend [-- --runs 5]
// On the production build served by the built server, in Debian's Chromium:
//   - the JavaScript needed for the first paint of / (every script the page loads before `load`),
//     gzipped, against the 170 KB budget; and which route chunks / does NOT load;
//   - Largest Contentful Paint of / (particles on) and /dashboard (signed in), median of N cold loads,
//     from the browser's Performance API, against the 1.5 s goal.
// Baseline in the same run: the same pages with the browser's cache warm (second load).

import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { fmt, freshDatabase, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Math.max(1, Number(values.runs));
const BUDGET_KB = 170;
const LCP_GOAL_MS = 1_500;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function lcpOf(page: Page): Promise<number> {
  // Wait for the page to settle, then read the last LCP entry the browser reported.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  await page.waitForTimeout(300);
  // A string, not a function: this package is type-checked without the DOM library.
  return page.evaluate<number>(`new Promise((resolve) => {
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      resolve(entries[entries.length - 1].startTime);
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(() => resolve(Number.NaN), 3000);
  })`);
}

const db = await freshDatabase();
const port = 3800 + Math.floor(Math.random() * 90);
const server = await startServer({ DATABASE_URL: db.url, SEED_DEMO: 'false' }, port);
const base = `http://127.0.0.1:${port}`;
const [token] = await seedUsers(db.url, 1, 100);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
try {
  // ---- JavaScript for the first paint of /
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const scripts = new Map<string, number>();
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return;
    const body = await res.body().catch(() => null);
    if (body) scripts.set(new URL(res.url()).pathname, gzipSync(body, { level: 9 }).length);
  });
  await page.goto(`${base}/`, { waitUntil: 'load' });
  await page.waitForTimeout(500);
  // Bodies are read asynchronously: wait until every script response has been measured.
  await page.waitForTimeout(500);
  // "Needed for the first paint": the scripts the browser requested before first contentful paint.
  // The particle engine and route chunks fetched after the paint (deferred on purpose) do not count.
  const timing = await page.evaluate<{
    fcp: number;
    resources: Array<{ path: string; start: number }>;
  }>(`(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      fcp: fcp ? fcp.startTime : Infinity,
      resources: performance.getEntriesByType('resource').map((r) => ({ path: new URL(r.name).pathname, start: r.startTime })),
    };
  })()`);
  const beforePaint = new Set(timing.resources.filter((r) => r.start < timing.fcp).map((r) => r.path));
  const firstPaint = [...scripts.entries()].filter(([path]) => beforePaint.has(path));
  const totalKb = firstPaint.reduce((sum, [, size]) => sum + size, 0) / 1024;
  const allKb = [...scripts.values()].reduce((a, b) => a + b, 0) / 1024;
  const loaded = firstPaint.map(([path]) => path.replace('/assets/', ''));
  const later = [...scripts.keys()]
    .filter((path) => !beforePaint.has(path))
    .map((p) => p.replace('/assets/', ''));
  const forbidden = [...scripts.keys()]
    .map((p) => p.replace('/assets/', ''))
    .filter((name) => /^(ResultsPage|ReviewsMap|Admin|History|Report|Leaflet|leaflet)/i.test(name));
  await context.close();

  // ---- LCP, cold and warm
  const measure = async (path: string, signedIn: boolean) => {
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      if (signedIn) {
        const expiry = new Date(Date.now() + 86_400_000).toISOString();
        await ctx.addInitScript(
          `localStorage.setItem('auth_token', ${JSON.stringify(token)}); localStorage.setItem('token_expiry', '${expiry}');`,
        );
      }
      const p = await ctx.newPage();
      await p.goto(`${base}${path}`, { waitUntil: 'load' });
      cold.push(await lcpOf(p));
      await p.goto(`${base}${path}`, { waitUntil: 'load' });
      warm.push(await lcpOf(p));
      await ctx.close();
    }
    return { cold: median(cold), warm: median(warm) };
  };
  const home = await measure('/', false);
  const dashboard = await measure('/dashboard', true);

  console.log(`\nFront-end speed, production build, Chromium (${runs} runs, median)\n`);
  console.log('| measure | figure | baseline (warm cache) | goal |');
  console.log('|---|---|---|---|');
  console.log(
    `| JS for the first paint of / (gzip) | ${fmt(totalKb)} KB in ${loaded.length} files (all JS by load + 1 s: ${fmt(allKb)} KB) | — | ≤ ${BUDGET_KB} KB |`,
  );
  console.log(
    `| LCP of / (particles on) | ${fmt(home.cold, 0)} ms | ${fmt(home.warm, 0)} ms | < ${LCP_GOAL_MS} ms |`,
  );
  console.log(
    `| LCP of /dashboard (signed in) | ${fmt(dashboard.cold, 0)} ms | ${fmt(dashboard.warm, 0)} ms | < ${LCP_GOAL_MS} ms |`,
  );
  console.log(`\nScripts before the first paint of /: ${loaded.join(', ')}`);
  console.log(`Scripts after it (deferred): ${later.join(', ') || 'none'}`);
  console.log(
    `Route chunks that / must not load, found: ${forbidden.length ? forbidden.join(', ') : 'none'}`,
  );
  const met =
    totalKb <= BUDGET_KB && home.cold < LCP_GOAL_MS && dashboard.cold < LCP_GOAL_MS && forbidden.length === 0;
  console.log(`\nGoals: ${met ? 'met' : 'NOT met'}`);
} finally {
  await browser.close();
  await server.stop();
  await db.drop();
}
