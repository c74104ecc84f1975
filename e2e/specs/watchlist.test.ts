import { messages } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  axeProblems,
  dismissToasts,
  openSignedIn,
  screenPicture,
  settle,
  viewports,
} from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { picture, problemsOf, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * Watchlist: from a phone result the investigator watches the number daily, finds it on /watchlist,
 * runs it now (a paid search, compared with nothing yet: the baseline) and pauses it. A leak search and
 * a username are watched from their results too.
 */

const browser = useBrowser();
const t = messages.watchlist;
let token: string;

beforeAll(async () => {
  // A live account of its own (watches are for live accounts), made by the demo admin.
  const adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const email = uniqueEmail('watcher');
  const password = 'watchful passphrase 42';
  const created = await api('/api/admin/users', {
    token: adminToken,
    body: { name: 'Watch Officer', email, password, app_mode: 'live', credits: 20 },
  });
  expect(created.status).toBe(201);
  token = await apiSignIn(email, password);
});

async function searchPhone(page: Page, digits: string) {
  await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
  await page.getByRole('textbox', { name: 'Phone number' }).fill(digits);
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
  const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  expect((await answer).status()).toBe(200);
  await page.waitForURL('**/results');
}

/** Watches the results the page shows, weekly, from the Watch dialog; resolves with the watch made. */
async function watchWeekly(page: Page): Promise<unknown> {
  await page.getByRole('button', { name: t.watch, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t.watchTitle });
  await dialog.getByRole('radio', { name: t.schedules.weekly }).check();
  const created = page.waitForResponse(
    (res) => res.url().endsWith('/api/watches') && res.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: t.watchRun }).click();
  const answer = await created;
  expect(answer.status()).toBe(201);
  return answer.json();
}

describe('/watchlist', () => {
  it('watches a phone result daily, lists it, runs it now and pauses it', async () => {
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, token, '/dashboard');
    await searchPhone(page, '9876543210');

    await page.getByRole('button', { name: t.watch, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t.watchTitle });
    await dialog.waitFor();
    await dialog.getByRole('radio', { name: t.schedules.daily }).check();
    await settle(page);
    await picture(page, screenPicture('watch-dialog', 'desktop'));
    expect(await axeProblems(page, 'watch dialog (desktop)', '[role="dialog"]')).toEqual([]);
    const created = page.waitForResponse(
      (res) => res.url().endsWith('/api/watches') && res.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: t.watchRun }).click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    expect(await answer.json()).toMatchObject({ kind: 'tel', query: '919876543210', schedule: 'daily' });
    await page.locator('.Toastify').getByText(t.watching).waitFor();

    // The sidebar leads to the watchlist (live accounts).
    await page.goto('/dashboard');
    await page
      .getByRole('navigation', { name: messages.layout.mainNav })
      .getByRole('link', { name: t.menuLink })
      .click();
    await page.waitForURL('**/watchlist');
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    const card = page.getByTestId('watch').filter({ hasText: '919876543210' });
    await card.waitFor();
    await card.getByText(t.statuses.active!).waitFor();
    expect(await card.getByLabel(t.schedule).inputValue()).toBe('daily');

    // Run now: a paid search; the first run records what the search finds.
    const ran = page.waitForResponse((res) => /\/api\/watches\/[^/]+\/run$/.test(res.url()));
    await card.getByRole('button', { name: t.runNow }).click();
    const run = await ran;
    expect(run.status()).toBe(200);
    const outcome = (await run.json()).outcome as string;
    // The server's own tick may have run the baseline already; either way the run answered.
    expect(['baseline', 'unchanged']).toContain(outcome);
    await page.locator('.Toastify').getByText(t.outcomes[outcome]!).waitFor();
    await expect.poll(() => card.getByText(t.never).count()).toBe(0);
    await page.getByText(t.noEvents).waitFor();

    await dismissToasts(page);
    await settle(page);
    await picture(page, screenPicture('watchlist', 'desktop'), { fullPage: true });
    expect(await axeProblems(page, 'watchlist (desktop)')).toEqual([]);

    // Pause: the watch says so and offers Resume.
    await card.getByRole('button', { name: t.pause }).click();
    await card.getByText(t.statuses.paused!).waitFor();
    await card.getByRole('button', { name: t.resume }).waitFor();
    const listed = await api('/api/watches', { token });
    expect((listed.body.data as Array<{ status: string }>)[0]?.status).toBe('paused');
    expect(problemsOf(page)).toEqual([]);

    const phone = await browser.newPage(viewports.mobile);
    await openSignedIn(phone, token, '/watchlist');
    await phone.getByTestId('watch').first().waitFor();
    await settle(phone);
    await picture(phone, screenPicture('watchlist', 'mobile'), { fullPage: true });
    expect(await axeProblems(phone, 'watchlist (mobile)')).toEqual([]);

    // On a phone the results bar has room for Watch beside Add to case.
    await phone.goto('/dashboard');
    await searchPhone(phone, '9123456780');
    await phone.getByRole('button', { name: t.watch, exact: true }).click();
    await phone.getByRole('dialog', { name: t.watchTitle }).waitFor();
    await settle(phone);
    await picture(phone, screenPicture('watch-dialog', 'mobile'));
    expect(problemsOf(phone)).toEqual([]);
  });

  it('watches a leak search from its results, weekly', async () => {
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, token, '/leak-data-finder');
    await page.getByRole('combobox', { name: 'Field 1 type' }).selectOption('name');
    await page.getByRole('textbox', { name: 'Field 1 value' }).fill('Rohan Deshmukh');
    const searched = page.waitForResponse((res) => res.url().includes('/api/leak-data-finder/'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect((await searched).status()).toBe(200);

    expect(await watchWeekly(page)).toMatchObject({
      kind: 'leak',
      query_typed: 'Name: Rohan Deshmukh',
      schedule: 'weekly',
    });

    await page.goto('/watchlist');
    const card = page.getByTestId('watch').filter({ hasText: 'Name: Rohan Deshmukh' });
    await card.waitFor();
    expect(await card.getByLabel(t.schedule).inputValue()).toBe('weekly');
    expect(problemsOf(page)).toEqual([]);
  });

  it('watches a username from its results, and lists it as a Username watch', async () => {
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, token, '/dashboard');
    await page.getByRole('radio', { name: messages.search.typeUsername }).check({ force: true });
    await page.getByRole('textbox', { name: messages.search.usernameLabel }).fill('@rohand90');
    const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
    if (!(await terms.isChecked())) await terms.check();
    const searched = page.waitForResponse((res) => res.url().includes('/api/username?'), {
      timeout: 90_000,
    });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect((await searched).status()).toBe(200);
    await page.waitForURL('**/results');

    expect(await watchWeekly(page)).toMatchObject({
      kind: 'username',
      query: 'rohand90',
      query_typed: 'rohand90',
      schedule: 'weekly',
    });
    await page.locator('.Toastify').getByText(t.watching).waitFor();

    await page.goto('/watchlist');
    const card = page.getByTestId('watch').filter({ hasText: '@rohand90' });
    await card.waitFor();
    await card.getByText(t.kinds.username!, { exact: true }).waitFor();
    expect(await card.getByLabel(t.schedule).inputValue()).toBe('weekly');
    expect(problemsOf(page)).toEqual([]);
  });

  it('is not offered to trial accounts', async () => {
    const email = uniqueEmail('trial-watch');
    const password = 'trial passphrase 42';
    const registered = await api('/api/register', {
      body: { name: 'Trial Person', email, password, password_confirmation: password },
    });
    expect(registered.status).toBe(201);
    const trialToken = await apiSignIn(email, password);
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, trialToken, '/watchlist');
    await page.waitForURL('**/upgrade');
    const nav = page.getByRole('navigation', { name: messages.layout.mainNav });
    expect(await nav.getByRole('link', { name: t.menuLink }).count()).toBe(0);
  });
});
