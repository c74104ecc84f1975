import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  type A11yProblem,
  axeProblems,
  dismissToasts,
  openSignedIn,
  screenPicture,
  settle,
  type ViewportName,
  viewports,
} from './a11y.ts';
import { api, apiSignIn } from './api.ts';
import { openInApp, picture, picturesKept, type useBrowser } from './browser.ts';

/**
 * What the screen tours (specs/screens-*.test.ts) share: the README's demo identities, a look at a
 * screen at both sizes, the pages they open, the live account each file makes for its searches. The
 * tours were one file; they are three (public and sign-in screens; the signed-in and admin screens;
 * the keyboard alone), so that the suite's two workers share them and finish together.
 */

/** The README's demo identities. */
export const demo = {
  phone: '9876543210',
  email: 'rich.demo@example.test',
  leakName: 'Rohan Deshmukh',
  leakCommonName: 'Priya Sharma',
  /** The username lookup's demo names: found on many sites, and found nowhere. */
  username: 'rohand90',
  usernameNowhere: 'nobody.demo',
  usernameBlocked: 'blocked.demo',
  gstin: '27AADCN4821K1ZC',
  pan: 'BQZPD4821K',
  panName: 'Rohan Deshmukh',
  caseReference: 'CASE-2025-0417',
};

/**
 * Each test here is a tour of several screens, each drawn at two sizes, pictured and checked with axe,
 * with every API answer held to the OpenAPI document: longer than one screen's test, so a longer limit.
 */
export const SCREEN_TOUR_MS = 150_000;

/**
 * Looks at what `page` shows at both sizes (or the ones given): settles, runs axe, closes the toasts,
 * saves the picture (the whole page, or only the screen for dialogs and menus), and leaves the page at
 * the desktop size. Returns the serious and critical axe findings.
 */
export async function look(
  page: Page,
  name: string,
  options: {
    sizes?: ViewportName[];
    whole?: boolean;
    /** A dialog or menu: axe checks only it (the page behind was checked on its own). */
    scope?: string;
    atSize?: (size: ViewportName) => Promise<void>;
  } = {},
): Promise<A11yProblem[]> {
  const { sizes = ['desktop', 'mobile'], whole = true, scope, atSize } = options;
  const found: A11yProblem[] = [];
  for (const size of sizes) {
    const started = Date.now();
    await page.setViewportSize(viewports[size]);
    // The pointer rests in a corner, so no row or button shows its hover look in the picture.
    await page.mouse.move(1, viewports[size].height - 2);
    await atSize?.(size);
    await settle(page);
    const settled = Date.now();
    found.push(...(await axeProblems(page, `${name} (${size})`, scope)));
    const checked = Date.now();
    if (await page.locator('.Toastify__toast').count()) {
      await dismissToasts(page);
      await settle(page);
    }
    if (whole && picturesKept) {
      // The whole page in one picture, drawn as on a screen that tall: a full-page capture would leave
      // the fixed sidebar and background at the height of the first screen.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      if (height > viewports[size].height) {
        await page.setViewportSize({ width: viewports[size].width, height: Math.min(height, 6000) });
        await settle(page);
      }
    }
    await picture(page, screenPicture(name, size));
    if (process.env.E2E_TIMINGS) {
      console.log(
        `[screen] ${name} ${size}: settle ${settled - started} ms, axe ${checked - settled} ms, picture ${Date.now() - checked} ms`,
      );
    }
  }
  await page.setViewportSize(viewports.desktop);
  return found;
}

/**
 * The pages of a tour: at the desktop size (asking for reduced motion, as every page of the suite does:
 * the particles stand still and the page and dialog entrances are cut short, so the pictures are
 * stable); `keep` keeps a page for later tests (a page is closed when its test ends).
 */
export function tourPages(browser: ReturnType<typeof useBrowser>) {
  const newPage = (keep = false): Promise<Page> => browser.newPage({ ...viewports.desktop, keep });
  return {
    newPage,
    async pageAs(token: string, path: string, keep = false): Promise<Page> {
      const page = await newPage(keep);
      await openSignedIn(page, token, path);
      return page;
    },
  };
}

export const heading1 = (page: Page, name?: string | RegExp) =>
  page.getByRole('heading', { level: 1, ...(name ? { name } : {}) }).first();

const searchForms = {
  tel: { radio: 'Phone', field: 'Phone number', path: '/api/tel?' },
  email: { radio: 'Email', field: 'Email address', path: '/api/email?' },
  username: { radio: 'Username', field: 'Username', path: '/api/username?' },
} as const;

/**
 * Runs a dashboard search (the dashboard opened in the app the page shows) under a case reference (the
 * demo's unless given), waits for the results page, and resolves with the answer the page got.
 */
export async function search(
  page: Page,
  type: keyof typeof searchForms,
  value: string,
  caseReference: string = demo.caseReference,
): Promise<unknown> {
  const form = searchForms[type];
  await openInApp(page, '/dashboard');
  await page.getByRole('radio', { name: form.radio }).check({ force: true });
  await page.getByRole('textbox', { name: form.field }).fill(value);
  await page.getByLabel(/^Case reference/).fill(caseReference);
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
  const answer = page.waitForResponse((res) => res.url().includes(form.path));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  await page.waitForURL('**/results');
  return response.json();
}

export interface Officer {
  name: string;
  email: string;
  password: string;
  id: string;
  token: string;
}

/** A live account with 200 credits, made by the admin for one file's searches, and its session. */
export async function makeOfficer(adminToken: string, email: string): Promise<Officer> {
  const officer = { name: 'Inspector Kavya Rao', email, password: 'screens passphrase 9' };
  const created = await api('/api/admin/users', {
    body: { ...officer, app_mode: 'live', credits: 200 },
    token: adminToken,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = (created.body.user as { id: string }).id;
  return { ...officer, id, token: await apiSignIn(officer.email, officer.password) };
}

/** The accessible name (or text) of the focused element. */
export const activeLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
  });

/** Whether the focus is inside `selector`. */
export const focusInside = (page: Page, selector: string) =>
  page.evaluate((sel) => Boolean(document.activeElement?.closest(sel)), selector);
