import { messages } from '@footprint/domain';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * The signed-in layout at the two sizes investigators use (a 1366 × 900 laptop, a 390 × 844 phone):
 * toasts stay clear of the header's credits and profile button, every navigation starts at the top
 * of the page while Back and Forward return to where the reader was, and the history and audit tables
 * keep their important columns in view inside their own frame.
 */

const browser = useBrowser();
const laptop = { width: 1366, height: 900 };
const phone = { width: 390, height: 844 };

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'element is on screen').not.toBeNull();
  const { x, y, width, height } = box!;
  return { left: x, top: y, right: x + width, bottom: y + height };
}

/** The box once it has stopped moving (a toast slides in): two equal readings in a row. */
async function settledBoxOf(locator: Locator): Promise<Box> {
  let last = await boxOf(locator);
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const next = await boxOf(locator);
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  throw new Error('the element kept moving');
}

const overlaps = (a: Box, b: Box): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Within `outer` horizontally, to the pixel (a sticky cell may sit half a pixel off). */
const insideHorizontally = (inner: Box, outer: Box): boolean =>
  inner.left >= outer.left - 1 && inner.right <= outer.right + 1;

/**
 * True when the element is what the browser would hit at its centre: visible, not covered. The page is
 * scrolled up or down to it first (only the page: a table frame keeps its sideways scroll).
 */
const onTop = (locator: Locator) =>
  locator.evaluate((element) => {
    const before = element.getBoundingClientRect();
    window.scrollBy(0, before.top + before.height / 2 - window.innerHeight / 2);
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });

let admin: string;
let officer: { token: string };

beforeAll(async () => {
  admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const email = uniqueEmail('layout');
  const password = 'layout checks passphrase';
  const created = await api('/api/admin/users', {
    body: { name: 'Layout Officer', email, password, app_mode: 'live', credits: 100 },
    token: admin,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  officer = { token: await apiSignIn(email, password) };

  // A history whose rows are as wide as real ones get: corporate and verification kinds, the longest
  // case reference, a long e-mail address.
  const caseReference = `FIR ${'2147/2025 Cyber Cell Pune '.repeat(4)}`.slice(0, 100);
  const searches = [
    api(`/api/tel?number=919876543210&case_reference=${encodeURIComponent(caseReference)}`, {
      token: officer.token,
    }),
    api(
      `/api/email?email=${encodeURIComponent('rohan.suresh.deshmukh.procurement.office@example.test')}&case_reference=${encodeURIComponent(caseReference)}`,
      { token: officer.token },
    ),
    api('/api/corporate-intelligence', {
      body: {
        type: 'corporate_cin',
        data: { id_number: 'U72200MH2015PTC248219' },
        case_reference: caseReference,
      },
      token: officer.token,
    }),
    api('/api/verification-id', {
      body: { type: 'pan', data: { pan: 'BQZPD4821K' }, case_reference: caseReference },
      token: officer.token,
    }),
  ];
  for (const search of searches) {
    const answer = await search;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
});

async function signedInPage(token: string, path: string, size: { width: number; height: number }) {
  const page = await browser.newPage(size);
  await storeSession(page, token);
  await page.goto(path);
  return page;
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

describe('toasts and the header', () => {
  for (const [name, size] of [
    ['desktop', laptop],
    ['mobile', phone],
  ] as const) {
    it(`shows a toast below the header's credits and profile button (${size.width} × ${size.height})`, async () => {
      const page = await signedInPage(officer.token, '/dashboard', size);
      const header = page.getByRole('banner');
      const credits = header.getByText(/^Credits: \d+$/);
      const profile = header.getByRole('button', { name: messages.layout.profileMenu('Layout Officer') });
      await credits.waitFor();
      await profile.waitFor();

      // Search without the terms accepted: the spec's toast.
      await page.getByRole('button', { name: messages.search.submit, exact: true }).click();
      const toast = page.locator('.Toastify__toast').filter({ hasText: messages.search.acceptTerms });
      await toast.waitFor();
      const toastBox = await settledBoxOf(toast);
      expect(toastBox.top).toBeGreaterThanOrEqual((await boxOf(header)).bottom - 0.5);
      expect(overlaps(toastBox, await boxOf(credits))).toBe(false);
      expect(overlaps(toastBox, await boxOf(profile))).toBe(false);
      expect(await onTop(profile)).toBe(true);
      expect(await onTop(credits)).toBe(true);
      await screenshot(page, `toast-header-${name}`);
      expect(problemsOf(page)).toEqual([]);
    });
  }
});

describe("a results page's toast", () => {
  for (const [name, size] of [
    ['desktop', laptop],
    ['mobile', phone],
  ] as const) {
    it(`opens below the results bar, so New Search answers at once (${size.width} × ${size.height})`, async () => {
      const page = await signedInPage(officer.token, '/verification-id', size);
      await page.getByLabel('PAN Number', { exact: true }).fill('BQZPD4821K');
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
      await page.waitForURL('**/verification-results');
      const toast = page.locator('.Toastify__toast').filter({ hasText: 'Found data based on your search' });
      await toast.waitFor();
      const toastBox = await settledBoxOf(toast);
      const bar = page.locator('.results-bar');
      const newSearch = bar.getByRole('button', { name: 'New Search', exact: true });
      expect(toastBox.top).toBeGreaterThanOrEqual((await boxOf(bar)).bottom - 0.5);
      expect(overlaps(toastBox, await boxOf(newSearch))).toBe(false);
      await screenshot(page, `toast-results-bar-${name}`);
      // The toast is still up (5 s): the button takes the click now, not once the toast has gone.
      expect(await toast.isVisible()).toBe(true);
      await newSearch.click({ timeout: 2_000 });
      await page.waitForURL('**/verification-id');
      // Off the results page the toasts open under the header again.
      expect(
        await page.evaluate(() => document.documentElement.style.getPropertyValue('--toast-clearance')),
      ).toBe('');
      expect(problemsOf(page)).toEqual([]);
    });
  }
});

describe('scroll on navigation', () => {
  it('starts every new page at the top on a phone, and Back and Forward return to where the reader was', async () => {
    const page = await signedInPage(officer.token, '/corporate', phone);
    await page.getByRole('combobox', { name: 'Search type' }).waitFor();
    const deepest = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(deepest, '/corporate is taller than the phone screen').toBeGreaterThan(150);
    await page.evaluate(() => window.scrollTo(0, 150));
    await expect.poll(() => scrollY(page)).toBe(150);

    // The drawer's Help link: a page long enough to have stayed scrolled.
    await page.getByRole('button', { name: messages.layout.openMenu }).click();
    const drawer = page.getByRole('dialog', { name: messages.layout.menu });
    await drawer.getByRole('link', { name: messages.mainNav.help, exact: true }).click();
    await page.waitForURL('**/help');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(
      await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
    ).toBeGreaterThan(150);
    await expect.poll(() => scrollY(page)).toBe(0);

    // Read down the help page, then go back: the form is where it was left, and forward again.
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(() => scrollY(page)).toBe(400);
    await page.goBack();
    await page.waitForURL('**/corporate');
    await expect.poll(() => scrollY(page)).toBe(150);
    await page.goForward();
    await page.waitForURL('**/help');
    await expect.poll(() => scrollY(page)).toBe(400);

    // A link in the header's profile menu from the bottom of a page: the top of the next one.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => scrollY(page)).toBeGreaterThan(150);
    await page
      .getByRole('banner')
      .getByRole('button', { name: messages.layout.profileMenu('Layout Officer') })
      .click();
    await page.getByRole('link', { name: messages.history.menuLink }).click();
    await page.waitForURL('**/history');
    await expect.poll(() => scrollY(page)).toBe(0);
    expect(problemsOf(page)).toEqual([]);
  });
});

/**
 * At 1366 px the page never scrolls sideways, the table does inside its frame, and the named columns
 * and the row's action (the last column) are in the frame's view, not covered by anything.
 */
async function expectColumnsInView(page: Page, frameName: string, columns: string[], action: string) {
  const frame = page.getByRole('region', { name: frameName });
  await frame.locator('tbody tr').first().waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(laptop.width);
  const frameBox = await boxOf(frame);
  for (const column of columns) {
    const header = frame.getByRole('columnheader', { name: column, exact: true });
    expect(insideHorizontally(await boxOf(header), frameBox), `column ${column} in view`).toBe(true);
    expect(await onTop(header), `column ${column} not covered`).toBe(true);
  }
  const buttons = frame.getByRole('button', { name: action });
  expect(await buttons.count()).toBeGreaterThan(0);
  for (const button of await buttons.all()) {
    expect(insideHorizontally(await boxOf(button), frameBox), `${action} in view`).toBe(true);
    expect(await onTop(button), `${action} not covered`).toBe(true);
  }
  // Scrolled to its far end, the row's first column and its action are still there.
  await frame.evaluate((element) => {
    element.scrollLeft = element.scrollWidth;
  });
  const first = frame.getByRole('columnheader').first();
  expect(insideHorizontally(await boxOf(first), frameBox)).toBe(true);
  expect(await onTop(first)).toBe(true);
  await frame.evaluate((element) => {
    element.scrollLeft = 0;
  });
}

describe('wide tables at 1366 px', () => {
  it('keeps the history table in its frame with time, kind, query and Open in view', async () => {
    const page = await signedInPage(officer.token, '/history', laptop);
    await expectColumnsInView(
      page,
      messages.history.lookupsTab,
      [messages.history.time, messages.history.kind, messages.history.query],
      messages.history.open,
    );
    await screenshot(page, 'history-table-1366');
    expect(problemsOf(page)).toEqual([]);
  });

  it('keeps the audit table in its frame with time, user, action, outcome and Details in view', async () => {
    const page = await signedInPage(admin, '/admin/audit', laptop);
    const a = messages.admin.audit;
    await expectColumnsInView(
      page,
      messages.admin.nav.audit,
      [a.time, a.actor, a.action, a.outcome],
      a.details,
    );
    await page.getByRole('region', { name: messages.admin.nav.audit }).scrollIntoViewIfNeeded();
    await screenshot(page, 'audit-table-1366');
    expect(problemsOf(page)).toEqual([]);
  });
});
