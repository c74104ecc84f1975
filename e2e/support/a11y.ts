import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshotDir, storeSession } from './browser.ts';
import { work } from './work.ts';

/** The two screen sizes every screen is looked at in (desktop and phone). */
export const viewports = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof viewports;

/**
 * Puts a signed-in session into the page's storage the way the web app keeps it, then opens `path` (on
 * the suite's server): one page load, the session there before the app's code runs (storeSession).
 */
export async function openSignedIn(page: Page, token: string, path: string): Promise<void> {
  await storeSession(page, token);
  await page.goto(path);
}

/**
 * Waits until the page stands still: fonts loaded, images decoded, and every finite animation (page
 * fade-ins, dialog and menu entrances) finished. Endless ones (the particle canvas, spinners) are left.
 */
export async function settle(page: Page): Promise<void> {
  const started = Date.now();
  await page.evaluate(async () => {
    await document.fonts.ready;
    // Images that fail (map tiles from a server this sandbox cannot reach) count as done too.
    const images = Array.from(document.images).filter((img) => !img.complete);
    const loaded = Promise.all(
      images.map(
        (img) =>
          new Promise((resolve) => {
            img.addEventListener('load', resolve, { once: true });
            img.addEventListener('error', resolve, { once: true });
          }),
      ),
    );
    await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 3000))]);
    for (let round = 0; round < 5; round += 1) {
      const running = document.getAnimations().filter((animation) => {
        const timing = animation.effect?.getComputedTiming();
        return animation.playState === 'running' && timing && timing.endTime !== Number.POSITIVE_INFINITY;
      });
      if (running.length === 0) break;
      await Promise.race([
        Promise.all(running.map((animation) => animation.finished.catch(() => undefined))),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  work.settles += 1;
  work.settleMs += Date.now() - started;
}

export interface A11yProblem {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * The rule sets every page is held to: WCAG 2.0, 2.1 and 2.2, levels A and AA (axe-core's tags; 2.2
 * added only AA rules, such as target size).
 */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** axe-core's source: the very copy @axe-core/playwright injects (its own dependency, its version). */
const axeSource: string = (
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))('axe-core') as {
    source: string;
  }
).source;

/**
 * Runs axe-core in the page itself (legacy mode: the product has no frames), as AxeBuilder's legacy
 * mode does, but puts axe into a document only once. AxeBuilder evaluates axe's half a megabyte of
 * source twice on every call: that took as long as the check itself, and a screen is checked at two
 * sizes, its dialogs and states on the same document. A later call on the same document finds axe
 * there (a client-side navigation keeps the document; a load starts a new one). axe clears its own
 * caches at the end of every run, so each run reads the page afresh. A page with frames goes through
 * AxeBuilder, which injects into every frame.
 */
async function runAxe(page: Page, scope?: string): Promise<AxeResults> {
  // Only the violations are detailed (the passes of a long results page take seconds to describe).
  const options = { resultTypes: ['violations'], runOnly: { type: 'tag', values: wcagTags } };
  if (page.frames().length > 1) {
    // options() replaces the run options, so it comes before withTags().
    const builder = new AxeBuilder({ page })
      .options({ resultTypes: ['violations'] })
      .withTags(wcagTags)
      .setLegacyMode(true);
    if (scope) builder.include(scope);
    return builder.analyze();
  }
  type Axe = {
    run(context: unknown, options: unknown): Promise<AxeResults>;
    configure(spec: unknown): void;
  };
  const present = await page.evaluate(
    () => typeof (window as unknown as { axe?: Partial<Axe> }).axe?.run === 'function',
  );
  if (!present) {
    await page.evaluate(axeSource);
    await page.evaluate(() =>
      (window as unknown as { axe: Axe }).axe.configure({
        allowedOrigins: ['<same_origin>'],
        branding: { application: 'playwright' },
      }),
    );
  }
  const outcome = await page.evaluate(
    ({ context, options }) =>
      (window as unknown as { axe: Axe }).axe
        .run(context, options)
        .then((results) => ({ results, error: null }))
        .catch((error: Error) => ({ results: null, error: error.message })),
    // The context AxeBuilder gives axe: the scope, or (nothing included) the whole document.
    { context: { include: scope ? [scope] : [], exclude: [] }, options },
  );
  if (!outcome.results) throw new Error(`axe: ${outcome.error}`);
  return outcome.results;
}

/**
 * axe-core (the WCAG 2.0, 2.1 and 2.2 A and AA rules) on what the page shows now; returns every
 * violation, whatever its impact, each with the elements it found them on.
 */
export async function axeProblems(page: Page, screen: string, scope?: string): Promise<A11yProblem[]> {
  const started = Date.now();
  const results = await runAxe(page, scope);
  work.axeRuns += 1;
  work.axeMs += Date.now() - started;
  const problems: A11yProblem[] = [];
  for (const violation of results.violations) {
    // WCAG 2.5.8's 'equivalent' exception: the map's pins may crowd each other where places are near,
    // and every place they mark is in the list beside the map (ReviewsMap), which meets the size.
    if (violation.id === 'target-size') {
      violation.nodes = violation.nodes.filter((node) => !node.html.includes('leaflet-marker-icon'));
      if (violation.nodes.length === 0) continue;
    }
    const entry = {
      screen,
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.slice(0, 6).map((node) => {
        const target = node.target.join(' ');
        const why = node.failureSummary?.split('\n').slice(1, 2).join(' ').trim();
        return why ? `${target} (${why})` : target;
      }),
    };
    problems.push(entry);
  }
  return problems;
}

/** Fails with every finding, readably, when axe found anything. */
export function expectAccessible(found: A11yProblem[]): void {
  const lines = found.map(
    (p) => `${p.screen}: ${p.impact} ${p.rule} (${p.help})\n    ${p.targets.join('\n    ')}`,
  );
  expect(lines, lines.join('\n')).toEqual([]);
}

/**
 * Waits for the signed-in page to have drawn (its main heading shown, nothing loading any more) and to
 * stand still, then runs axe on it: every violation, named after `screen`.
 */
export async function axeLoadedPage(page: Page, screen: string): Promise<A11yProblem[]> {
  await page.locator('main h1').first().waitFor();
  await expect
    .poll(() =>
      page
        .getByRole('status')
        .filter({ hasText: /^Loading/ })
        .count(),
    )
    .toBe(0);
  await settle(page);
  return axeProblems(page, screen);
}

/** The screenshot path of a screen at a size: docs/screenshots/screen-<name>-<desktop|mobile>.png. */
export function screenPicture(name: string, size: ViewportName): string {
  mkdirSync(screenshotDir, { recursive: true });
  return `${screenshotDir}/screen-${name}-${size}.png`;
}

/** Closes every toast, so that the picture shows the screen rather than the last message. */
export async function dismissToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const close of Array.from(document.querySelectorAll<HTMLElement>('.Toastify__close-button'))) {
      close.click();
    }
  });
  await expect.poll(() => page.locator('.Toastify__toast').count(), { timeout: 8000 }).toBe(0);
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, and returns how many presses it took; fails
 * when the control is not reached within `limit` presses, or when the focused control shows no focus
 * indicator (its outline, shadow, border or background must differ from its unfocused look).
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { limit = 60, backwards = false }: { limit?: number; backwards?: boolean } = {},
): Promise<number> {
  // The target's element is found once: asking whether it has the focus is then one quick call after
  // each press, where the locator searched the whole page by role and name every time (most of a long
  // walk's time on a results page). It is looked up again when the page has replaced it.
  let element = await target.elementHandle().catch(() => null);
  const reached = async (): Promise<boolean> => {
    const state = element
      ? await element
          .evaluate((el) => (el.isConnected ? el === document.activeElement : null))
          .catch(() => null)
      : null;
    if (state !== null) return state;
    await element?.dispose().catch(() => {});
    element = await target.elementHandle({ timeout: 5_000 }).catch(() => null);
    return target.evaluate((el) => el === document.activeElement).catch(() => false);
  };
  for (let presses = 1; presses <= limit; presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await reached()) {
      await element?.dispose().catch(() => {});
      expect(await focusIsVisible(page), `no visible focus on ${await describeFocus(page)}`).toBe(true);
      return presses;
    }
  }
  await element?.dispose().catch(() => {});
  throw new Error(`not reached with ${limit} presses of Tab; focus is on ${await describeFocus(page)}`);
}

/** Whether the focused element looks different from how it looks without the focus. */
export async function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    const look = (node: HTMLElement) => {
      const style = getComputedStyle(node);
      return [
        style.outlineStyle === 'none'
          ? 'none'
          : `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
        style.boxShadow,
        style.borderColor,
        style.backgroundColor,
        style.color,
      ].join('|');
    };
    // A control may show its focus on a wrapper (`:has(:focus-visible)`): compare up to two ancestors too.
    const chain = [el, el.parentElement, el.parentElement?.parentElement].filter(
      (node): node is HTMLElement => node instanceof HTMLElement,
    );
    const focused = chain.map(look);
    el.blur();
    const unfocused = chain.map(look);
    el.focus();
    return focused.some((value, i) => value !== unfocused[i]);
  });
}

export async function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return 'nothing';
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    return `<${el.tagName.toLowerCase()}${el.id ? ` id="${el.id}"` : ''}> "${name}"`;
  });
}

/** Whether `locator`'s element has the focus. */
export const hasFocus = (locator: Locator): Promise<boolean> =>
  locator.evaluate((el) => el === document.activeElement);
