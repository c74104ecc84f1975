// Front-end speed. Run: npm run bench:frontend [-- --runs 3] [-- --lighthouse-runs 5] [-- --no-lighthouse]
//   [-- --baseline-ref main]
// On the production build served by the built server, in Debian's Chromium:
//   - bytes on the wire for /, /login, /dashboard and /results (the last two signed in), as Chromium
//     counts them (CDP Network.loadingFinished encodedDataLength: headers plus the body as sent),
//     median of N cold loads: what the page asked for before its first contentful paint (against
//     the 130 KB goal), and its whole first view (every response until the network is idle: the
//     particle engine and the toast area come after the paint);
//   - Lighthouse (mobile preset: simulated slow 4G and a 4× slower CPU) on the same four pages, the
//     last two signed in (the session's token put in localStorage before the audit, which then keeps
//     storage): performance, FCP, LCP, TBT, accessibility, best practices and the JavaScript it
//     transferred; each figure the median of 5 runs (--lighthouse-runs), every run printed (one run
//     of mobile /login scored 91 and the next 99: a single run is not a figure);
//   - LCP of / and /dashboard from the browser's Performance API (desktop, no throttling).
// Baseline in the same run, page by page beside each figure: by default the same pages with the
// browser asking for no encoding (Accept-Encoding: identity), which is what the server sent every
// browser before compression; with --baseline-ref REF, the web app as commit REF builds it (its
// apps/web and packages/domain, built with this checkout's node_modules), served by a second server
// on the same database.

import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { fmt, freshDatabase, root, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'lighthouse-runs': { type: 'string', default: '5' },
    'no-lighthouse': { type: 'boolean', default: false },
    'baseline-ref': { type: 'string' },
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

/** What is measured: a server, and whether the browser asks it for the plain files. */
interface Target {
  base: string;
  identity: boolean;
}

async function newContext(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  target: Target,
  token?: string,
) {
  const ctx = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    // Chromium sends "gzip, deflate, br, zstd" by itself; the identity baseline asks for the plain files.
    extraHTTPHeaders: target.identity ? { 'accept-encoding': 'identity' } : {},
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
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  jsKb: number;
  unusedJsKb: number;
  issues: string[];
}

/** Each Lighthouse figure the median of the runs; the audits below full marks of the median run by score. */
function medianOf(runs: LighthouseFigures[]): LighthouseFigures {
  const of = (key: Exclude<keyof LighthouseFigures, 'issues'>) => median(runs.map((r) => r[key]));
  const performance = of('performance');
  return {
    performance,
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
    fcpMs: of('fcpMs'),
    lcpMs: of('lcpMs'),
    tbtMs: of('tbtMs'),
    jsKb: of('jsKb'),
    unusedJsKb: of('unusedJsKb'),
    issues: runs.find((r) => r.performance === performance)?.issues ?? [],
  };
}

const lighthouseLine = (r: LighthouseFigures) =>
  `performance ${r.performance}, FCP ${fmt(r.fcpMs / 1000, 1)} s, LCP ${fmt(r.lcpMs / 1000, 1)} s, TBT ${fmt(r.tbtMs, 0)} ms, accessibility ${r.accessibility}, best practices ${r.bestPractices}`;

async function runLighthouse(target: Target, path: string, token?: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    if (token) {
      // Signed in as the app keeps a session: the token in the origin's localStorage, set from a page
      // that loads none of the app's files (so nothing is cached before the audit). The audit then
      // keeps storage (disableStorageReset) instead of clearing it.
      const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const page = await (cdp.contexts()[0] ?? (await cdp.newContext())).newPage();
      await page.goto(`${target.base}/robots.txt`);
      const expiry = new Date(Date.now() + 86_400_000).toISOString();
      await page.evaluate(
        `localStorage.setItem('auth_token', ${JSON.stringify(token)}); localStorage.setItem('token_expiry', '${expiry}');`,
      );
      await page.close();
    }
    const result = await lighthouse(
      `${target.base}${path}`,
      { port: chrome.port, logLevel: 'error', output: 'json' },
      {
        extends: 'lighthouse:default',
        settings: {
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          disableStorageReset: token !== undefined,
          ...(target.identity ? { extraHeaders: { 'Accept-Encoding': 'identity' } } : {}),
        },
      },
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
    const { categories, audits, finalDisplayedUrl, runtimeError } = result.lhr;
    // A run that failed scores 0: say why, beside the figures.
    if (runtimeError)
      console.log(`Lighthouse ${path} (${target.base}): ${runtimeError.code} ${runtimeError.message}`);
    // A signed-in page that ends on /login measured the wrong page.
    if (new URL(finalDisplayedUrl).pathname !== path)
      throw new Error(`Lighthouse on ${path} ended on ${finalDisplayedUrl}`);
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
      fcpMs: audits['first-contentful-paint']?.numericValue ?? Number.NaN,
      lcpMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbtMs: audits['total-blocking-time']?.numericValue ?? Number.NaN,
      jsKb: kb(Number(scripts?.transferSize ?? 0)),
      unusedJsKb: kb(unused?.overallSavingsBytes ?? 0),
      issues: [...failing('accessibility'), ...failing('best-practices')],
    };
  } finally {
    chrome.kill();
  }
}

/**
 * The web app as commit `ref` builds it, with that commit's packages/domain, in .bench-baseline/
 * inside this checkout (so that its other imports resolve to this checkout's node_modules). Returns
 * its dist directory.
 */
function buildBaseline(ref: string): string {
  const dir = join(root, '.bench-baseline', ref.replace(/[^\w.-]+/g, '_'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules/@footprint'), { recursive: true });
  symlinkSync('../../packages/domain', join(dir, 'node_modules/@footprint/domain'));
  const paths = 'apps/web packages/domain tsconfig.base.json';
  execSync(`git archive ${JSON.stringify(ref)} ${paths} | tar -x -C ${JSON.stringify(dir)}`, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync('npm', ['run', 'build'], {
    cwd: join(dir, 'apps/web'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return join(dir, 'apps/web/dist');
}

const baselineRef = values['baseline-ref'];
const baselineDist = baselineRef ? buildBaseline(baselineRef) : undefined;
const baselineLabel = baselineRef ? `baseline (${baselineRef})` : 'baseline (no compression)';
const db = await freshDatabase();
const port = 3800 + Math.floor(Math.random() * 90);
const server = await startServer({ DATABASE_URL: db.url, SEED_DEMO: 'false' }, port);
const baselineServer = baselineDist
  ? await startServer({ DATABASE_URL: db.url, SEED_DEMO: 'false', WEB_DIST: baselineDist }, port + 100)
  : undefined;
const current: Target = { base: `http://127.0.0.1:${port}`, identity: false };
const baseline: Target = baselineServer
  ? { base: `http://127.0.0.1:${port + 100}`, identity: false }
  : { base: current.base, identity: true };
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
const load = () => {
  const [one, five, fifteen] = os.loadavg().map((n) => n.toFixed(2));
  return `${one}, ${five}, ${fifteen}`;
};
console.log(`load average at the start: ${load()}`);
try {
  // ---- Bytes on the wire, this build and the baseline alternating
  const wire: Array<{ path: string; current: Wire; baseline: Wire }> = [];
  for (const { path, signedIn } of pages) {
    const samples: Record<'current' | 'baseline', Wire[]> = { current: [], baseline: [] };
    for (let i = 0; i < runs; i++) {
      for (const which of ['current', 'baseline'] as const) {
        const target = which === 'current' ? current : baseline;
        const ctx = await newContext(browser, target, signedIn ? token : undefined);
        samples[which].push(await wireBytes(ctx, `${target.base}${path}`));
        await ctx.close();
      }
    }
    const pick = (xs: Wire[]) => {
      const m = median(xs.map((x) => x.total));
      return xs.find((x) => x.total === m) as Wire;
    };
    wire.push({ path, current: pick(samples.current), baseline: pick(samples.baseline) });
  }

  // ---- LCP in the browser (desktop, no throttling), cold, median of N
  const lcp = async (path: string, signedIn: boolean, target: Target) => {
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const ctx = await newContext(browser, target, signedIn ? token : undefined);
      const p = await ctx.newPage();
      await p.goto(`${target.base}${path}`, { waitUntil: 'load' });
      xs.push(await lcpOf(p));
      await ctx.close();
    }
    return median(xs);
  };
  const lcps = [];
  for (const { path, signedIn } of [pages[0], pages[2]] as typeof pages) {
    lcps.push({
      path,
      current: await lcp(path, signedIn, current),
      baseline: await lcp(path, signedIn, baseline),
    });
  }
  await browser.close();
  console.log(`load average after the browser measures: ${load()}`);

  // ---- Lighthouse, mobile preset, this build and the baseline alternating; the median run by score
  const lh: Array<{ path: string; current: LighthouseFigures; baseline: LighthouseFigures }> = [];
  if (!values['no-lighthouse']) {
    for (const { path, signedIn } of pages) {
      const results: Record<'current' | 'baseline', LighthouseFigures[]> = { current: [], baseline: [] };
      for (let i = 0; i < lighthouseRuns; i++) {
        for (const which of ['current', 'baseline'] as const) {
          const target = which === 'current' ? current : baseline;
          results[which].push(await runLighthouse(target, path, signedIn ? token : undefined));
        }
      }
      for (const which of ['current', 'baseline'] as const) {
        results[which].forEach((r, i) => {
          console.log(
            `Lighthouse ${path}, ${which === 'current' ? 'this build' : baselineLabel}, run ${i + 1} of ${lighthouseRuns}: ${lighthouseLine(r)}`,
          );
        });
      }
      lh.push({ path, current: medianOf(results.current), baseline: medianOf(results.baseline) });
      console.log(
        `Lighthouse ${path}, median of ${lighthouseRuns}: ${lighthouseLine(lh.at(-1)!.current)} (${baselineLabel}: ${lighthouseLine(lh.at(-1)!.baseline)}); load average ${load()}`,
      );
    }
  }

  console.log(
    `\nFront-end speed, production build, Chromium (${runs} runs, median; Lighthouse: each figure the median of ${lighthouseRuns} runs per page); load average at the end: ${load()}\n`,
  );
  console.log(`| measure | figure | ${baselineLabel} | goal |`);
  console.log('|---|---|---|---|');
  let met = true;
  for (const { path, current: c, baseline: b } of wire) {
    const ok = kb(c.beforePaint) <= WIRE_GOAL_KB;
    met &&= ok;
    console.log(
      `| bytes on the wire before the first paint of \`${path}\` | ${fmt(kb(c.beforePaint))} KB | ${fmt(kb(b.beforePaint))} KB | ≤ ${WIRE_GOAL_KB} KB: ${ok ? 'met' : 'NOT met'} |`,
    );
  }
  const view = (w: Wire) =>
    `${fmt(kb(w.total))} KB (JS ${fmt(kb(w.byType.script ?? 0))}, CSS ${fmt(kb(w.byType.stylesheet ?? 0))}, HTML ${fmt(kb(w.byType.document ?? 0))}) in ${w.files.length} responses`;
  for (const { path, current: c, baseline: b } of wire) {
    console.log(`| bytes on the wire, whole first view of \`${path}\` | ${view(c)} | ${view(b)} | — |`);
  }
  for (const { path, current: c, baseline: b } of lcps) {
    const ok = c < LCP_GOAL_MS;
    met &&= ok;
    console.log(
      `| LCP of \`${path}\`, desktop, no throttling | ${fmt(c, 0)} ms | ${fmt(b, 0)} ms | < ${fmt(LCP_GOAL_MS, 0)} ms: ${ok ? 'met' : 'NOT met'} |`,
    );
  }
  for (const { path, current: c, baseline: b } of lh) {
    // The speed goals are for the pages a visitor lands on; every page must be accessible and sound.
    const speedGoal = path === '/' || path === '/login';
    const perfOk = c.performance >= LH_PERF_GOAL;
    const lcpOk = c.lcpMs <= LH_LCP_GOAL_MS;
    const a11yOk = c.accessibility === 100 && c.bestPractices === 100;
    met &&= (!speedGoal || (perfOk && lcpOk)) && a11yOk;
    const goal = (ok: boolean, text: string) => (speedGoal ? `${text}: ${ok ? 'met' : 'NOT met'}` : '—');
    console.log(
      `| Lighthouse mobile \`${path}\`: performance | ${c.performance} | ${b.performance} | ${goal(perfOk, `≥ ${LH_PERF_GOAL}`)} |`,
    );
    console.log(
      `| Lighthouse mobile \`${path}\`: FCP / LCP / TBT | ${fmt(c.fcpMs / 1000, 1)} s / ${fmt(c.lcpMs / 1000, 1)} s / ${fmt(c.tbtMs, 0)} ms | ${fmt(b.fcpMs / 1000, 1)} s / ${fmt(b.lcpMs / 1000, 1)} s / ${fmt(b.tbtMs, 0)} ms | ${goal(lcpOk, `LCP ≤ ${fmt(LH_LCP_GOAL_MS / 1000, 1)} s`)} |`,
    );
    console.log(
      `| Lighthouse mobile \`${path}\`: JS transferred (unused) | ${fmt(c.jsKb)} KB (${fmt(c.unusedJsKb)} KB) | ${fmt(b.jsKb)} KB (${fmt(b.unusedJsKb)} KB) | — |`,
    );
    console.log(
      `| Lighthouse mobile \`${path}\`: accessibility / best practices | ${c.accessibility} / ${c.bestPractices} | ${b.accessibility} / ${b.bestPractices} | 100 / 100: ${a11yOk ? 'met' : 'NOT met'} |`,
    );
  }
  for (const { path, current: c } of wire) {
    const list = [...c.files]
      .sort((a, b) => b.bytes - a.bytes)
      .map((f) => `${f.path.replace('/assets/', '')} ${fmt(kb(f.bytes))} KB (${f.encoding})`);
    console.log(`\n\`${path}\` loads: ${list.join(', ')}`);
  }
  for (const { path, current: c } of lh) {
    if (c.issues.length)
      console.log(`\nLighthouse \`${path}\` audits below full marks: ${c.issues.join('; ')}`);
  }
  console.log(`\nGoals: ${met ? 'met' : 'NOT met'}`);
} finally {
  await browser.close().catch(() => {});
  await baselineServer?.stop();
  await server.stop();
  await db.drop();
}
