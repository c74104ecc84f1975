// Front-end speed. Run: npm run bench:frontend [-- --runs 3] [-- --lighthouse-runs 1] [-- --no-lighthouse]
// On the production build served by the built server, in Debian's Chromium:
//   - bytes on the wire for /, /login, /dashboard and /results (the last two signed in), as Chromium
//     counts them (CDP Network.loadingFinished encodedDataLength: headers plus the body as sent),
//     median of N cold loads: what the page asked for before its first contentful paint (against
//     the 130 KB goal), and its whole first view (every response until the network is idle: the
//     particle engine and the toast area come after the paint);
//   - Lighthouse (mobile preset: simulated slow 4G and a 4× slower CPU) on / and /login:
//     performance, LCP, accessibility, best practices and the JavaScript it transferred;
//   - LCP of / and /dashboard from the browser's Performance API (desktop, no throttling).
// Baseline in the same run: the same pages with the browser asking for no encoding
// (Accept-Encoding: identity), which is what the server sent every browser before compression.

import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { fmt, freshDatabase, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'lighthouse-runs': { type: 'string', default: '1' },
    'no-lighthouse': { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs));
const lighthouseRuns = Math.max(1, Number(values['lighthouse-runs']));
const WIRE_GOAL_KB = 130;
const LH_PERF_GOAL = 95;
const LH_LCP_GOAL_MS = 2_000;
const LCP_GOAL_MS = 1_500;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const kb = (bytes: number) => bytes / 1024;

async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
  await page.waitForTimeout(300);
}

async function lcpOf(page: Page): Promise<number> {
  await settle(page);
  // A string, not a function: this package is type-checked without the DOM library.
  return page.evaluate<number>(`new Promise((resolve) => {
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      resolve(entries[entries.length - 1].startTime);
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(() => resolve(Number.NaN), 3000);
  })`);
}

interface Wire {
  total: number;
  /** What was asked for before the first contentful paint (the document included). */
  beforePaint: number;
  byType: Record<string, number>;
  files: Array<{ path: string; bytes: number; encoding: string }>;
}

/** Loads `path` cold and adds up what came over the wire, as Chromium's network stack counts it. */
async function wireBytes(context: BrowserContext, url: string): Promise<Wire> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const responses = new Map<string, { path: string; type: string; encoding: string }>();
  const files: Wire['files'] = [];
  const byType: Record<string, number> = {};
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    responses.set(e.requestId, {
      path: new URL(e.response.url).pathname,
      type: e.type.toLowerCase(),
      encoding: headers['content-encoding'] ?? 'none',
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = responses.get(e.requestId);
    if (!r) return;
    files.push({ path: r.path, bytes: e.encodedDataLength, encoding: r.encoding });
    byType[r.type] = (byType[r.type] ?? 0) + e.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'load' });
  await settle(page);
  const early = await page.evaluate<string[]>(`(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const at = fcp ? fcp.startTime : Infinity;
    return performance.getEntriesByType('resource').filter((r) => r.startTime < at).map((r) => new URL(r.name).pathname);
  })()`);
  await page.close();
  const first = new Set([...early, new URL(url).pathname]);
  return {
    total: files.reduce((s, f) => s + f.bytes, 0),
    beforePaint: files.filter((f) => first.has(f.path)).reduce((s, f) => s + f.bytes, 0),
    byType,
    files,
  };
}

async function newContext(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  compressed: boolean,
  token?: string,
) {
  const ctx = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    // Chromium sends "gzip, deflate, br, zstd" by itself; the baseline asks for the plain files.
    extraHTTPHeaders: compressed ? {} : { 'accept-encoding': 'identity' },
  });
  if (token) {
    const expiry = new Date(Date.now() + 86_400_000).toISOString();
    await ctx.addInitScript(
      `localStorage.setItem('auth_token', ${JSON.stringify(token)}); localStorage.setItem('token_expiry', '${expiry}');`,
    );
  }
  return ctx;
}

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  jsKb: number;
  unusedJsKb: number;
  issues: string[];
}

async function runLighthouse(url: string, compressed: boolean): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, logLevel: 'error', output: 'json' },
      {
        extends: 'lighthouse:default',
        settings: {
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          ...(compressed ? {} : { extraHeaders: { 'Accept-Encoding': 'identity' } }),
        },
      },
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const scripts = (
      audits['resource-summary']?.details as { items?: Array<Record<string, unknown>> }
    )?.items?.find((i) => i.resourceType === 'script');
    const unused = audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined;
    const failing = (id: string) =>
      (categories[id]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${id}: ${audits[ref.id]?.title}`);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      lcpMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      jsKb: kb(Number(scripts?.transferSize ?? 0)),
      unusedJsKb: kb(unused?.overallSavingsBytes ?? 0),
      issues: [...failing('accessibility'), ...failing('best-practices')],
    };
  } finally {
    chrome.kill();
  }
}

const db = await freshDatabase();
const port = 3800 + Math.floor(Math.random() * 90);
const server = await startServer({ DATABASE_URL: db.url, SEED_DEMO: 'false' }, port);
const base = `http://127.0.0.1:${port}`;
const [token] = await seedUsers(db.url, 1, 100);
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
const pages: Array<{ path: string; signedIn: boolean }> = [
  { path: '/', signedIn: false },
  { path: '/login', signedIn: false },
  { path: '/dashboard', signedIn: true },
  { path: '/results', signedIn: true },
];
try {
  // ---- Bytes on the wire, compressed and not
  const wire: Array<{ path: string; compressed: Wire; plain: Wire }> = [];
  for (const { path, signedIn } of pages) {
    const samples: Record<'compressed' | 'plain', Wire[]> = { compressed: [], plain: [] };
    for (let i = 0; i < runs; i++) {
      for (const compressed of [true, false]) {
        const ctx = await newContext(browser, compressed, signedIn ? token : undefined);
        samples[compressed ? 'compressed' : 'plain'].push(await wireBytes(ctx, `${base}${path}`));
        await ctx.close();
      }
    }
    const pick = (xs: Wire[]) => {
      const m = median(xs.map((x) => x.total));
      return xs.find((x) => x.total === m) as Wire;
    };
    wire.push({ path, compressed: pick(samples.compressed), plain: pick(samples.plain) });
  }

  // ---- LCP in the browser (desktop, no throttling), cold, median of N
  const lcp = async (path: string, signedIn: boolean, compressed: boolean) => {
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const ctx = await newContext(browser, compressed, signedIn ? token : undefined);
      const p = await ctx.newPage();
      await p.goto(`${base}${path}`, { waitUntil: 'load' });
      xs.push(await lcpOf(p));
      await ctx.close();
    }
    return median(xs);
  };
  const lcps = [
    { path: '/', compressed: await lcp('/', false, true), plain: await lcp('/', false, false) },
    {
      path: '/dashboard',
      compressed: await lcp('/dashboard', true, true),
      plain: await lcp('/dashboard', true, false),
    },
  ];
  await browser.close();

  // ---- Lighthouse, mobile preset
  const lh: Array<{ path: string; compressed: LighthouseFigures; plain: LighthouseFigures }> = [];
  if (!values['no-lighthouse']) {
    for (const path of ['/', '/login']) {
      const best = async (compressed: boolean) => {
        const results: LighthouseFigures[] = [];
        for (let i = 0; i < lighthouseRuns; i++)
          results.push(await runLighthouse(`${base}${path}`, compressed));
        const m = median(results.map((r) => r.performance));
        return results.find((r) => r.performance === m) as LighthouseFigures;
      };
      lh.push({ path, compressed: await best(true), plain: await best(false) });
    }
  }

  console.log(
    `\nFront-end speed, production build, Chromium (${runs} runs, median; Lighthouse ${lighthouseRuns} run(s) per page)\n`,
  );
  console.log('| measure | figure | baseline (no compression) | goal |');
  console.log('|---|---|---|---|');
  let met = true;
  for (const { path, compressed, plain } of wire) {
    const ok = kb(compressed.beforePaint) <= WIRE_GOAL_KB;
    met &&= ok;
    console.log(
      `| bytes on the wire before the first paint of \`${path}\` | ${fmt(kb(compressed.beforePaint))} KB | ${fmt(kb(plain.beforePaint))} KB | ≤ ${WIRE_GOAL_KB} KB: ${ok ? 'met' : 'NOT met'} |`,
    );
  }
  for (const { path, compressed, plain } of wire) {
    console.log(
      `| bytes on the wire, whole first view of \`${path}\` | ${fmt(kb(compressed.total))} KB (JS ${fmt(kb(compressed.byType.script ?? 0))}, CSS ${fmt(kb(compressed.byType.stylesheet ?? 0))}, HTML ${fmt(kb(compressed.byType.document ?? 0))}) in ${compressed.files.length} responses | ${fmt(kb(plain.total))} KB (JS ${fmt(kb(plain.byType.script ?? 0))}) | — |`,
    );
  }
  for (const { path, compressed, plain } of lcps) {
    const ok = compressed < LCP_GOAL_MS;
    met &&= ok;
    console.log(
      `| LCP of \`${path}\`, desktop, no throttling | ${fmt(compressed, 0)} ms | ${fmt(plain, 0)} ms | < ${fmt(LCP_GOAL_MS, 0)} ms: ${ok ? 'met' : 'NOT met'} |`,
    );
  }
  for (const { path, compressed: c, plain: p } of lh) {
    const perfOk = c.performance >= LH_PERF_GOAL;
    const lcpOk = c.lcpMs <= LH_LCP_GOAL_MS;
    const a11yOk = c.accessibility === 100 && c.bestPractices === 100;
    met &&= perfOk && lcpOk && a11yOk;
    console.log(
      `| Lighthouse mobile \`${path}\`: performance | ${c.performance} | ${p.performance} | ≥ ${LH_PERF_GOAL}: ${perfOk ? 'met' : 'NOT met'} |`,
    );
    console.log(
      `| Lighthouse mobile \`${path}\`: LCP | ${fmt(c.lcpMs / 1000, 1)} s | ${fmt(p.lcpMs / 1000, 1)} s | ≤ ${fmt(LH_LCP_GOAL_MS / 1000, 1)} s: ${lcpOk ? 'met' : 'NOT met'} |`,
    );
    console.log(
      `| Lighthouse mobile \`${path}\`: JS transferred (unused) | ${fmt(c.jsKb)} KB (${fmt(c.unusedJsKb)} KB) | ${fmt(p.jsKb)} KB (${fmt(p.unusedJsKb)} KB) | — |`,
    );
    console.log(
      `| Lighthouse mobile \`${path}\`: accessibility / best practices | ${c.accessibility} / ${c.bestPractices} | ${p.accessibility} / ${p.bestPractices} | 100 / 100: ${a11yOk ? 'met' : 'NOT met'} |`,
    );
  }
  for (const { path, compressed } of wire) {
    const list = [...compressed.files]
      .sort((a, b) => b.bytes - a.bytes)
      .map((f) => `${f.path.replace('/assets/', '')} ${fmt(kb(f.bytes))} KB (${f.encoding})`);
    console.log(`\n\`${path}\` loads: ${list.join(', ')}`);
  }
  for (const { path, compressed } of lh) {
    if (compressed.issues.length)
      console.log(`\nLighthouse \`${path}\` audits below full marks: ${compressed.issues.join('; ')}`);
  }
  console.log(`\nGoals: ${met ? 'met' : 'NOT met'}`);
} finally {
  await browser.close().catch(() => {});
  await server.stop();
  await db.drop();
}
