import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, inject, onTestFailed, onTestFinished } from 'vitest';
import { watchContract } from './contract.ts';
import { productOrigins } from './server.ts';
import { reportWork, resetWork, work } from './work.ts';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = fileURLToPath(new URL('../../docs/screenshots', import.meta.url));

/**
 * Debian's Chromium, headless, with the flags this sandbox needs (no background networking). Debian's
 * launcher adds --enable-gpu-rasterization, which on a machine without a GPU rasterizes and composites
 * every frame through SwiftShader (software GL) in the GPU process: that process alone took most of a
 * core. Skia's own software path draws the same pages for a fraction of it.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-gpu-rasterization',
      '--disable-gpu-compositing',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Puts a real session into the page's storage, as a successful login does: the token and an expiry an
 * hour ahead, on the app's origin at `origin` (the suite's server unless given). Nothing is loaded
 * for it: the page's next document at that origin (the test's next `goto`) finds the session in its
 * storage before any of the web app's code runs, set there once by a script the browser runs first in
 * every document of the page (a reload or a later page keeps what the app has made of it since). It
 * used to load the server's robots.txt to reach the origin, a cold page load of its own (about 0.3 s)
 * before every signed-in page. A second call (another user's session) takes over from the next load.
 */
export async function storeSession(page: Page, token: string, origin = ''): Promise<void> {
  const at = new URL(origin || inject('baseURL')).origin;
  const expiry = new Date(Date.now() + 3_600_000).toISOString();
  const once = `e2e-session-${randomUUID()}`;
  await page.addInitScript(
    ({ at, token, expiry, once }) => {
      // The storage of the test's origin only, and once per tab: sessionStorage is per origin and tab.
      if (window.location.origin !== at || window !== window.top) return;
      if (window.sessionStorage.getItem(once) !== null) return;
      window.sessionStorage.setItem(once, '1');
      window.localStorage.setItem('auth_token', token);
      window.localStorage.setItem('token_expiry', expiry);
    },
    { at, token, expiry, once },
  );
}

/**
 * Opens `path` inside the web app the page already shows, as a link of the app does (the router moves
 * to it; no new document), where a test visits a screen rather than tests how a page loads: a load
 * starts the whole web app again, about three times the CPU of the move. The page starts as a new
 * document would (at the top, nothing focused); what the app keeps in memory (a search's results) stays.
 * A page that does not show the app at that origin yet loads `path` instead. The address changes at
 * once; wait for what the screen shows, as after a `goto`.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const moved = await page
    .evaluate((to) => {
      const url = new URL(to, window.location.href);
      // The router, once started, numbers the history entry it is on: no number, no app to move in.
      const state = window.history.state as { idx?: unknown } | null;
      if (url.origin !== window.location.origin || typeof state?.idx !== 'number') return false;
      // As a new document starts: at the top, nothing focused.
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
      // The router's own entry shape, one past the current: it takes the move as a step forward.
      const entry = { usr: null, key: Math.random().toString(36).slice(2, 10), idx: state.idx + 1 };
      window.history.pushState(entry, '', url);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      return true;
    }, path)
    .catch(() => false);
  if (!moved) await page.goto(path);
}

/** The methods by which a test changes a context itself, beyond its page: such a context is not reused. */
const contextChanges = [
  'addCookies',
  'addInitScript',
  'addListener',
  'clearCookies',
  'clearPermissions',
  'exposeBinding',
  'exposeFunction',
  'grantPermissions',
  'newPage',
  'on',
  'once',
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'setDefaultNavigationTimeout',
  'setDefaultTimeout',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setHTTPCredentials',
  'setOffline',
  'setStorageState',
  'unroute',
  'unrouteAll',
  'waitForEvent',
] as const;
const clockChanges = [
  'fastForward',
  'install',
  'pauseAt',
  'resume',
  'runFor',
  'setFixedTime',
  'setSystemTime',
];

interface ContextWatch {
  /** Whether the test changed the context itself since its page was made. */
  changed: boolean;
  newPage: () => Promise<Page>;
  clearCookies: () => Promise<void>;
  clearPermissions: () => Promise<void>;
}
const watches = new WeakMap<BrowserContext, ContextWatch>();

/** Wraps the context's own changing methods (and its clock's) to note their use; support calls the originals. */
function watchOf(context: BrowserContext): ContextWatch {
  let watch = watches.get(context);
  if (watch) return watch;
  const found: ContextWatch = {
    changed: false,
    newPage: context.newPage.bind(context),
    clearCookies: context.clearCookies.bind(context),
    clearPermissions: context.clearPermissions.bind(context),
  };
  const note = (target: object, names: readonly string[]) => {
    for (const name of names) {
      const original = (target as Record<string, unknown>)[name];
      if (typeof original !== 'function') continue;
      Object.defineProperty(target, name, {
        configurable: true,
        value: (...args: unknown[]) => {
          found.changed = true;
          return (original as (...a: unknown[]) => unknown).apply(target, args);
        },
      });
    }
  };
  note(context, contextChanges);
  note(context.clock, clockChanges);
  watches.set(context, found);
  watch = found;
  return watch;
}

/**
 * Opens one browser per spec file; `newPage()` gives every test its own clean page, closed when the
 * test ends (after its picture on failure), so that a spec's earlier pages stop drawing: the product's
 * pages animate, and every open page draws every frame. `keep: true` keeps a page for later tests of the
 * spec (closed with the browser).
 *
 * Each page gets a browser context (a profile) of its own. With `reuseContexts`, a spec lets a later
 * test's page have an earlier test's context, once nothing of the earlier test is left in it: its page
 * closed, the storage of every origin it showed cleared (local and session storage, IndexedDB, cookies,
 * caches, service workers), its permissions taken back. What stays is the HTTP cache of the web app's
 * files, so the next page starts the app from compiled code: a signed-in page in a fresh context cost
 * twice the CPU of one in a used context (1.0 s against 0.5 s on the 2-core machine). A context the
 * test changed itself (through `page.context()`: routes, permissions, cookies, init scripts, listeners,
 * its clock), one with other pages left open, a failed test's and a kept page's are closed instead,
 * never reused. The specs that reuse contexts were run with it in the full suite.
 *
 * Pages ask for reduced motion, as a visitor may: the public pages' particle field then stands still and
 * is drawn once, where moving it costs this machine's software rendering most of a core for as long as a
 * public page is open. `motion: true` gives a test the moving product (the tests of the motion itself).
 */
export function useBrowser(setup: { reuseContexts?: boolean } = {}) {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** Contexts ready for another test, by motion preference. */
  const idle = new Map<boolean, BrowserContext[]>([
    [false, []],
    [true, []],
  ]);
  const reuse = setup.reuseContexts === true;
  const baseURL = inject('baseURL');
  let file = '';
  beforeAll(async () => {
    resetWork();
    browser = await launchChromium();
  });
  beforeEach(({ task }) => {
    file = task.file.name;
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    await browser?.close();
    reportWork(file);
  });
  return {
    baseURL,
    async newPage(
      options: { width?: number; height?: number; keep?: boolean; motion?: boolean } = {},
    ): Promise<Page> {
      const motion = Boolean(options.motion);
      const viewport = { width: options.width ?? 1280, height: options.height ?? 800 };
      const ready = idle.get(motion) ?? [];
      let context = options.keep ? undefined : ready.pop();
      let created: Page | undefined;
      if (context) {
        work.reused += 1;
        created = await watchOf(context).newPage();
        await created.setViewportSize(viewport);
      } else {
        context = await browser.newContext({
          baseURL,
          viewport,
          reducedMotion: motion ? 'no-preference' : 'reduce',
        });
        contexts.push(context);
        work.contexts += 1;
        created = reuse ? await watchOf(context).newPage() : await context.newPage();
      }
      const page = created;
      const own = context;
      const watch = reuse ? watchOf(own) : undefined;
      if (watch) watch.changed = false;
      // The origins whose storage the page used: cleared before the context serves another test.
      const origins = new Set<string>();
      page.on('framenavigated', (frame) => {
        const url = frame.url();
        if (/^https?:/.test(url)) origins.add(new URL(url).origin);
      });
      const close = async (failed: boolean) => {
        if (options.keep) return;
        const drop = async () => {
          contexts.splice(contexts.indexOf(own), 1);
          await own.close().catch(() => {});
        };
        if (failed || !watch || watch.changed) return drop();
        try {
          for (const origin of origins) {
            await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
          }
          await page.close();
          if (own.pages().length > 0 || watch.changed) return drop();
          await watch.clearCookies();
          await watch.clearPermissions();
          ready.push(own);
        } catch {
          await drop();
        }
      };
      // Registered first, so it runs after the test's other end-of-test checks (they run in reverse).
      // A failed test keeps its page for the picture below, which closes it after.
      onTestFinished(async ({ task }) => {
        if (task.result?.state !== 'fail') await close(false);
      });
      page.setDefaultTimeout(15_000);
      page.on('load', () => {
        work.loads += 1;
      });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy|Refused to/.test(msg.text()))
          problems.push(msg.text());
      });
      // A violation the page's own code catches (a library probing for eval, say) never reaches the
      // console; Chromium still files it as an issue (the DevTools Issues panel, Lighthouse).
      const cdp = await own.newCDPSession(page);
      cdp.on('Audits.issueAdded', ({ issue }) => {
        const csp = issue.details.contentSecurityPolicyIssueDetails;
        if (issue.code !== 'ContentSecurityPolicyIssue' || !csp) return;
        const at = csp.sourceCodeLocation;
        problems.push(
          `CSP issue: ${csp.violatedDirective} (${csp.contentSecurityPolicyViolationType})${at ? ` at ${at.url}:${at.lineNumber}:${at.columnNumber}` : ''}`,
        );
      });
      await cdp.send('Audits.enable');
      (page as Page & { problems: string[] }).problems = problems;
      // Every request the page makes (documents, scripts, pictures, tiles, fetches) must go to the
      // product server: an outside host would learn what the investigator is looking at.
      const thirdParty: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (!/^(https?|wss?):/i.test(url)) return; // data:, blob:, about: never leave the browser
        const origin = new URL(url).origin;
        if (origin === new URL(baseURL).origin || productOrigins.has(origin)) return;
        thirdParty.push(`${request.method()} ${url} (${request.resourceType()})`);
      });
      (page as Page & { thirdParty: string[] }).thirdParty = thirdParty;
      // Every API answer the page receives must keep the OpenAPI document's contract.
      const contract = watchContract(
        page,
        (origin) => origin === new URL(baseURL).origin || productOrigins.has(origin),
      );
      // Every page of every test runs under the server's strict Content-Security-Policy: a refused
      // script, style, image or connection, or an uncaught error, fails the test that caused it.
      onTestFinished(async ({ task }) => {
        if (task.result?.state === 'fail') return;
        const broken = await contract.settle();
        if (broken.length > 0) {
          throw new Error(`The page received answers that break the OpenAPI document:\n${broken.join('\n')}`);
        }
        if (problems.length > 0) {
          throw new Error(
            `The page reported problems (CSP violations or uncaught errors):\n${problems.join('\n')}`,
          );
        }
        if (thirdParty.length > 0) {
          throw new Error(`The page sent requests to other origins:\n${thirdParty.join('\n')}`);
        }
      });
      // A failing test leaves a picture of what the browser showed, for whoever reads the CI log.
      onTestFailed(async ({ task }) => {
        const dir = fileURLToPath(new URL('../../test-results', import.meta.url));
        mkdirSync(dir, { recursive: true });
        const name = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
        await page.screenshot({ path: `${dir}/${name}.png` }).catch(() => {});
        console.log(
          `[e2e] failed at ${page.url()}; screenshot test-results/${name}.png; problems: ${problems.join(' | ')}`,
        );
        await close(true);
      });
      return page;
    },
  };
}

export const problemsOf = (page: Page): string[] => (page as Page & { problems?: string[] }).problems ?? [];

/** Requests the page sent to an origin other than the product server's, as `METHOD url (type)`. */
export const thirdPartyRequestsOf = (page: Page): string[] =>
  (page as Page & { thirdParty?: string[] }).thirdParty ?? [];

/**
 * Whether this run keeps pictures of the screens (docs/screenshots, for people to look at). CI sets
 * `E2E_PICTURES=off`: its checkout is thrown away with them, and drawing them took about a fifth of the
 * screen tours' time. Nothing is asserted on a kept picture; a failed test's picture is kept regardless.
 */
export const picturesKept = process.env.E2E_PICTURES !== 'off';

/** Pictures the page to `path` (a PNG), when this run keeps pictures. */
export async function picture(page: Page, path: string, options: { fullPage?: boolean } = {}) {
  if (!picturesKept) return;
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, ...options });
}

/** Pictures the page as docs/screenshots/<name>.png, when this run keeps pictures. */
export async function screenshot(page: Page, name: string) {
  await picture(page, `${screenshotDir}/${name}.png`);
}

/**
 * Holds the page's requests to `url` until the returned function is called; they then go on to the
 * server (to see what a screen shows while it waits).
 */
export async function holdRequests(page: Page, url: string | RegExp): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

export const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;

/**
 * How many pixels a table region (TableScroller, named `label`) overflows at a laptop's 1366 × 900:
 * 0 when every column, its last button included, is in view without scrolling. The page keeps its
 * size afterwards.
 */
export async function tableOverflowAtLaptop(page: Page, label: string): Promise<number> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 1366, height: 900 });
  const region = page.getByRole('region', { name: label, exact: true }).first();
  await region.waitFor();
  const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
  if (before) await page.setViewportSize(before);
  return overflow;
}

/** Nothing on the page is wider than the screen: no sideways scroll. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
}
