import type { LeakSearchResponse } from '@footprint/domain';
import type { Page, Request, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * The Leak Data Finder (spec §2.6, §4, §5, §7, §8) against the built product and its sandbox leak data:
 * rows and their rules, a multi-row search with the matches marked, paging to the last page of a common
 * name (free after the first charge), an empty answer, and the error answers (staged in the browser).
 * The searches spend the credits of a freshly registered trial account (20 credits), so no other spec
 * counts them.
 */

const browser = useBrowser();
let token: string;

beforeAll(async () => {
  const email = uniqueEmail('leak-finder');
  const password = 'breach hunting passphrase';
  const created = await api('/api/register', {
    body: { name: 'Leak Finder', email, password, password_confirmation: password },
  });
  expect(created.status).toBe(201);
  token = await apiSignIn(email, password);
});

async function finderPage(size: { width?: number; height?: number } = {}) {
  const page = await browser.newPage(size);
  await storeSession(page, token);
  await page.goto('/leak-data-finder');
  await searchButton(page).waitFor();
  return page;
}

const searchButton = (page: Page) => page.getByRole('button', { name: 'Search', exact: true });
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });
const form = (page: Page) => page.getByRole('form', { name: 'Leak Data Finder' });
const rowType = (page: Page, n: number) => page.getByRole('combobox', { name: `Field ${n} type` });
const rowValue = (page: Page, n: number) => page.getByRole('textbox', { name: `Field ${n} value` });
const summary = (page: Page) => page.getByRole('heading', { level: 2 });
const cards = (page: Page) => page.getByRole('article');
const pager = (page: Page) => page.getByRole('navigation', { name: 'Leak results pages' });
const isLeakCall = (url: string) => url.includes('/api/leak-data-finder/');

/** Fills the rows (adding rows as needed) without searching. */
async function fillRows(page: Page, rows: Array<[type: string, value: string]>) {
  for (const [index, [type, value]] of rows.entries()) {
    if (index > 0 && (await rowValue(page, index + 1).count()) === 0) {
      await page.getByRole('button', { name: 'Add field' }).click();
    }
    await rowType(page, index + 1).selectOption(type);
    await rowValue(page, index + 1).fill(value);
  }
}

/** Presses Search and resolves with the answer the page received. */
async function searchFor(page: Page, rows: Array<[type: string, value: string]>) {
  await fillRows(page, rows);
  const answer = page.waitForResponse((res) => isLeakCall(res.url()));
  await searchButton(page).click();
  return readAnswer(await answer);
}

async function readAnswer(response: Response) {
  expect(response.status()).toBe(200);
  const url = new URL(response.url());
  return { url, body: (await response.json()) as LeakSearchResponse };
}

/** Closes every toast, for pictures that show the page rather than the last message. */
async function dismissToasts(page: Page) {
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click();
  await page.locator('.Toastify__toast').first().waitFor({ state: 'detached' });
}

const creditsShown = async (page: Page) =>
  Number(
    (
      await page
        .getByText(/^Credits: \d+$/)
        .first()
        .textContent()
    )?.replace(/\D/g, ''),
  );

describe('leak finder rows', () => {
  it('checks every row with the spec messages before calling, warns on a fifth row, clears a retyped row', async () => {
    const page = await finderPage({ width: 1440, height: 900 });
    const calls: Request[] = [];
    page.on('request', (request) => {
      if (isLeakCall(request.url())) calls.push(request);
    });

    await page.getByRole('heading', { level: 1, name: 'Leak Data Finder' }).waitFor();
    expect(await rowValue(page, 1).getAttribute('maxlength')).toBe('50');
    expect(await rowType(page, 1).inputValue()).toBe('name');
    expect(await page.getByRole('button', { name: /^Remove field/ }).count()).toBe(0);

    // An empty row.
    await searchButton(page).click();
    await toast(page, 'This field is required!').waitFor();
    await form(page).getByText('This field is required!', { exact: true }).waitFor();
    expect(await rowValue(page, 1).getAttribute('aria-invalid')).toBe('true');

    // Four rows, each wrong in its own way: every message under its row, the first one toasted.
    await fillRows(page, [
      ['name', 'Rohan 2'],
      ['phone', '987654321'],
      ['username', 'ab'],
      ['email', 'not-an-email'],
    ]);
    // Typing clears a row's message until the next search.
    expect(await form(page).getByText('This field is required!', { exact: true }).count()).toBe(0);
    await searchButton(page).click();
    await toast(page, 'Name must contain only letters.').waitFor();
    for (const message of [
      'Name must contain only letters.',
      'Invalid phone number',
      'Invalid username format',
      'Invalid email format',
    ]) {
      await form(page).getByText(message, { exact: true }).waitFor();
    }
    const described = await rowValue(page, 3).getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe('Invalid username format');
    expect(await rowValue(page, 2).getAttribute('placeholder')).toMatch(/phone/i);
    await dismissToasts(page);
    await screenshot(page, 'leaks-desktop');

    // A fifth row is refused with the spec's warning.
    await page.getByRole('button', { name: 'Add field' }).click();
    await toast(page, 'You can only add 4 fields').waitFor();
    expect(await page.getByRole('combobox', { name: /^Field \d type$/ }).count()).toBe(4);

    // Changing a row's type clears its value; removing a row takes it away.
    await rowType(page, 2).selectOption('username');
    expect(await rowValue(page, 2).inputValue()).toBe('');
    await page.getByRole('button', { name: 'Remove field 4' }).click();
    expect(await page.getByRole('combobox', { name: /^Field \d type$/ }).count()).toBe(3);

    expect(calls).toHaveLength(0);
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('leak search', () => {
  it('finds the demo person by name and phone together, marks the matches and charges once', async () => {
    const page = await finderPage({ width: 1440, height: 900 });
    const before = await creditsShown(page);
    // Hold the answer a moment so the overlay can be seen.
    await page.route('**/api/leak-data-finder/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await fillRows(page, [
      ['name', 'Rohan Deshmukh'],
      ['phone', '9876543210'],
    ]);
    const answer = page.waitForResponse((res) => isLeakCall(res.url()));
    await searchButton(page).click();
    await page.getByRole('status').getByText('Searching...', { exact: true }).waitFor();
    const { url, body } = await readAnswer(await answer);
    await page.unrouteAll();

    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('per_page')).toBe('10');
    expect(body.total).toBeGreaterThan(0);
    expect(body.credits).toBe(before - 1);
    await page.getByText(`Credits: ${body.credits}`).first().waitFor();
    const pages = Math.ceil(body.total / 10);
    await summary(page)
      .getByText(pages > 1 ? `Page 1 of ${pages} pages.` : `${body.total} Results Found`, { exact: true })
      .waitFor();

    expect(await cards(page).count()).toBe(body.data.length);
    const first = cards(page).first();
    expect(await first.getByRole('heading', { level: 3 }).textContent()).toBe(body.data[0]!.source.name);
    // Rows are ANDed: every record matched both, and both are marked in every card.
    for (const record of body.data) expect(record.matched).toEqual(expect.arrayContaining(['name', 'phone']));
    const marks = (await first.locator('mark').allTextContents()).map((text) => text.toLowerCase());
    expect(marks).toEqual(expect.arrayContaining(['rohan', 'deshmukh']));
    expect(marks.some((text) => text.replace(/\D/g, '').endsWith('9876543210'))).toBe(true);
    await first.getByRole('button', { name: 'Copy phone' }).waitFor();
    // The page scrolled to the results; the picture shows the rows that found them too.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'leaks-results-desktop');

    // The same rows again are already paid for.
    const again = page.waitForResponse((res) => isLeakCall(res.url()));
    await searchButton(page).click();
    const repeat = await readAnswer(await again);
    expect(repeat.body.cached).toBe(true);
    expect(repeat.body.credits).toBe(body.credits);
    expect(problemsOf(page)).toEqual([]);
  });

  it('pages to the last page of a common name for free, with ellipses and the page text', async () => {
    const page = await finderPage({ width: 1440, height: 900 });
    const first = await searchFor(page, [['name', 'Priya Sharma']]);
    expect(first.body.total).toBeGreaterThan(10 * 8);
    const pages = Math.ceil(first.body.total / 10);
    await summary(page).getByText(`Page 1 of ${pages} pages.`, { exact: true }).waitFor();
    if (first.body.total_capped) {
      await page.getByText(/^More than 10,000 matches: showing the first 10,000\./).waitFor();
    }

    const nav = pager(page);
    expect(await nav.getByRole('button', { name: 'Page 1', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await nav.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    for (const n of [2, 3, 4]) await nav.getByRole('button', { name: `Page ${n}`, exact: true }).waitFor();
    expect(await nav.getByRole('button', { name: 'Page 5', exact: true }).count()).toBe(0);
    expect(await nav.getByText('…').count()).toBe(1);

    // To the last page, from the keyboard.
    const last = nav.getByRole('button', { name: `Page ${pages}`, exact: true });
    await last.focus();
    const answer = page.waitForResponse((res) => isLeakCall(res.url()));
    await page.keyboard.press('Enter');
    const end = await readAnswer(await answer);
    expect(end.url.searchParams.get('page')).toBe(String(pages));
    expect(end.body.cached).toBe(true);
    expect(end.body.credits).toBe(first.body.credits);
    await summary(page).getByText(`Page ${pages} of ${pages} pages.`, { exact: true }).waitFor();
    expect(await cards(page).count()).toBe(first.body.total - (pages - 1) * 10);
    expect(await summary(page).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(
      await nav.getByRole('button', { name: `Page ${pages}`, exact: true }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await nav.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    for (const n of [pages - 3, pages - 2, pages - 1]) {
      await nav.getByRole('button', { name: `Page ${n}`, exact: true }).waitFor();
    }
    expect(await nav.getByText('…').count()).toBe(1);
    // Every record on the page answers the name.
    for (const card of await cards(page).all()) {
      expect((await card.locator('mark').allTextContents()).map((t) => t.toLowerCase())).toEqual(
        expect.arrayContaining(['priya', 'sharma']),
      );
    }

    const back = page.waitForResponse((res) => isLeakCall(res.url()));
    await nav.getByRole('button', { name: 'Previous' }).click();
    expect((await readAnswer(await back)).url.searchParams.get('page')).toBe(String(pages - 1));
    await summary(page)
      .getByText(`Page ${pages - 1} of ${pages} pages.`, { exact: true })
      .waitFor();
    expect(await nav.getByText('…').count()).toBe(1);
    await page.getByText(`Credits: ${first.body.credits}`).first().waitFor();
  });

  it('says so when nothing matches, and charges nothing for it', async () => {
    const page = await finderPage();
    const before = await creditsShown(page);
    const { body } = await searchFor(page, [['username', 'no_such_handle_4242']]);
    expect(body.total).toBe(0);
    // "No record" is refunded, as for every kind (README, "Credits").
    expect(body.credits).toBe(before);
    await summary(page).getByText('No results found.', { exact: true }).waitFor();
    expect(await cards(page).count()).toBe(0);
    expect(await pager(page).count()).toBe(0);
  });

  it('reads well on a phone', async () => {
    const page = await finderPage({ width: 390, height: 844 });
    await searchFor(page, [
      ['name', 'Rohan Deshmukh'],
      ['phone', '9876543210'],
    ]);
    await cards(page).first().waitFor();
    // The demo identity's records are synthetic sandbox data, and the page says so.
    expect(await page.locator('.sandbox-banner').isVisible()).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'leaks-mobile');
  });
});

describe('leak search answers staged in the browser', () => {
  const staged = (total: number, records = Math.min(total, 10)): LeakSearchResponse => ({
    data: Array.from({ length: records }, (_, i) => ({
      id: String(i + 1),
      source: { name: `Staged Breach ${i + 1}`, breach_date: '2021-06-01', description: 'A staged source.' },
      name: 'Staged Person',
      email: null,
      phone: null,
      username: null,
      address: null,
      other: { favourite_colour: 'teal' },
      matched: ['name'],
      origins: [{ kind: 'local', name: 'Local index' }],
    })),
    origin_status: [{ kind: 'local', name: 'Local index', status: 'ok', records: total }],
    total,
    total_capped: false,
    page: 1,
    per_page: 10,
    credits: 5,
    cached: false,
    lookup_id: 'staged',
    sandbox: false,
  });

  it('shows exactly 10 results as one page, and reports failures the spec way', async () => {
    const page = await finderPage();
    await rowValue(page, 1).fill('Staged Person');

    // Exactly 10: one page, so the count, not 'Page 1 of 1 pages.', and no pagination.
    await page.route('**/api/leak-data-finder/**', (route) => route.fulfill({ json: staged(10) }));
    await searchButton(page).click();
    await summary(page).getByText('10 Results Found', { exact: true }).waitFor();
    expect(await cards(page).count()).toBe(10);
    expect(await pager(page).count()).toBe(0);
    await cards(page).first().getByText('Favourite Colour', { exact: true }).waitFor();
    // The breach description opens from the card header.
    await cards(page).first().getByRole('button', { name: 'About this breach' }).click();
    await cards(page).first().getByText('A staged source.', { exact: true }).waitFor();
    await page.unrouteAll();

    await page.route('**/api/leak-data-finder/**', (route) =>
      route.fulfill({ status: 500, json: { error: 'Leak index unavailable.', message: 'Server Error' } }),
    );
    await searchButton(page).click();
    await toast(page, 'Leak index unavailable.').waitFor();
    // A failed new search leaves no stale answer on screen.
    expect(await cards(page).count()).toBe(0);
    await page.unrouteAll();

    // No source could answer (an empty index, no leak vendor): the server's 503 says so, and that
    // nothing was charged.
    const unavailable =
      'Leak Data Finder searches are not available in this deployment: no source for them is configured. No credits were charged.';
    await page.route('**/api/leak-data-finder/**', (route) =>
      route.fulfill({ status: 503, json: { message: unavailable } }),
    );
    await searchButton(page).click();
    await toast(page, unavailable).waitFor();
    expect(await cards(page).count()).toBe(0);
    await page.unrouteAll();

    await page.route('**/api/leak-data-finder/**', (route) => route.abort('connectionfailed'));
    await searchButton(page).click();
    await toast(page, 'Something went wrong. Please try again.').waitFor();
    await page.unrouteAll();

    await page.route('**/api/leak-data-finder/**', (route) =>
      route.fulfill({ status: 402, json: { message: 'Insufficient credits.', credits: 0 } }),
    );
    await searchButton(page).click();
    await toast(page, 'Insufficient credits.').waitFor();
    await page.getByText('Credits: 0').first().waitFor();
    await page.unrouteAll();

    // With no credits the browser refuses first, before it even looks at the rows.
    await rowValue(page, 1).fill('');
    const calls: string[] = [];
    page.on('request', (request) => {
      if (isLeakCall(request.url())) calls.push(request.url());
    });
    await searchButton(page).click();
    await toast(page, 'Insufficient credits. Please upgrade your plan.').waitFor();
    expect(await form(page).getByText('This field is required!', { exact: true }).count()).toBe(0);
    expect(calls).toHaveLength(0);
  });
});
