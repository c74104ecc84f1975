import { randomUUID } from 'node:crypto';
import { messages, REVIEW_VERDICT_LABELS, type ReviewItem, reviewsMessages } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, dismissToasts, settle } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { screenshot, storeSession, useBrowser } from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

/**
 * Sampled review in the browser: demo-admin sets the share of searches drawn for review to 100 % on
 * /admin/settings; an investigator of a unit makes three searches; the server's own sampler (every
 * minute, searches at least five minutes old) draws them into the queue of the unit's supervisor, who
 * questions one with a note and marks another in order on /reviews; the investigator reads both
 * verdicts under "My searches reviewed".
 *
 * Nothing is put into the database by hand (the e2e server runs on PGlite inside its own process, which
 * a test cannot reach): the server's own sampler draws them. The spec runs its own server, drawing every
 * 2 s searches at least 2 s old (REVIEW_SAMPLE_SECONDS, REVIEW_SAMPLE_LAG_SECONDS; 60 s and 300 s by
 * default), and so that the deployment-wide share (100 %) draws no other spec's searches. The searches
 * are made once the share is set: a run with the share at 0 passes over the searches it covers.
 */

const browser = useBrowser();
const t = messages.reviewsPage;
const s = messages.admin.settings;
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

/** The sampler's lag and period (2 s each here), and time for a slow machine. */
const DRAW_WAIT_MS = 60_000;

const mail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.org`;
const people = {
  supervisor: { name: 'Inspector Kavya Menon', email: mail('reviews-supervisor') },
  investigator: { name: 'Constable Rohan Pillai', email: mail('reviews-investigator') },
};
const password = 'reviews spec passphrase 7';
const searches = {
  filed: { path: '/api/tel?number=919876543210&case_reference=FIR-118%2F2026', shown: '+91 9876543210' },
  phone: { path: '/api/tel?number=919812345678', shown: '+91 9812345678' },
  email: { path: '/api/email?email=meera.sample%40example.org', shown: 'meera.sample@example.org' },
};

let server: RunningServer;
let adminToken: string;
const tokens = { supervisor: '', investigator: '' };

const call = (path: string, init: Parameters<typeof api>[1] = {}) => api(path, init, server.url);

beforeAll(async () => {
  server = await startProductServer({
    SANDBOX_LEAK_RECORDS: '0',
    REVIEW_SAMPLE_SECONDS: '2',
    REVIEW_SAMPLE_LAG_SECONDS: '2',
  });
  adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword, server.url);
  for (const key of ['supervisor', 'investigator'] as const) {
    const created = await call('/api/admin/users', {
      token: adminToken,
      body: { ...people[key], password, app_mode: 'live', credits: 50 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    tokens[key] = await apiSignIn(people[key].email, password, server.url);
  }
  // One unit: the supervisor reviews its investigator.
  const unit = await call('/api/units', {
    token: adminToken,
    body: { name: 'Eastbank Police Station', parent_id: null },
  });
  expect(unit.status, JSON.stringify(unit.body)).toBe(201);
  for (const [key, role] of [
    ['supervisor', 'supervisor'],
    ['investigator', 'investigator'],
  ] as const) {
    const member = await call(`/api/units/${unit.body.id}/members`, {
      token: adminToken,
      body: { email: people[key].email, role },
    });
    expect(member.status, JSON.stringify(member.body)).toBe(201);
  }
}, 180_000);

afterAll(() => server?.stop());

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

async function open(token: string, path: string, size = desktop) {
  const page = await browser.newPage(size);
  await storeSession(page, token, server.url);
  await page.goto(`${server.url}${path}`);
  return page;
}

/** The cards of drawn searches (the list in the page's main region, not the menu's). */
const cards = (page: Page) => page.getByRole('main').getByRole('listitem');

/** The card of a drawn search, by its query as the page shows it. */
const card = (page: Page, shown: string) =>
  cards(page).filter({ has: page.getByRole('heading', { name: shown, exact: true }) });

async function expectAccessibleAt(page: Page, screen: string) {
  await expect
    .poll(() =>
      page
        .getByRole('status')
        .filter({ hasText: /^Loading/ })
        .count(),
    )
    .toBe(0);
  await settle(page);
  expect(await axeProblems(page, screen)).toEqual([]);
}

describe('sampled review', () => {
  it('an admin sets the share of searches drawn for review on the settings page', async () => {
    const page = await open(adminToken, '/admin/settings');
    const share = page.getByRole('spinbutton', { name: s.reviewShare });
    await expect.poll(() => share.inputValue()).toBe('0');
    // Over 100 is refused under the field, before anything is sent.
    await share.fill('150');
    await page.getByRole('button', { name: s.save }).click();
    await page.getByText('The review share percent field must be a number from 0 to 100.').waitFor();
    expect(await share.getAttribute('aria-invalid')).toBe('true');
    await share.fill('100');
    await page.getByRole('button', { name: s.save }).click();
    await toast(page, messages.admin.saved).waitFor();
    expect((await call('/api/admin/settings', { token: adminToken })).body.review_share_percent).toBe(100);
  });

  it(
    "the server's sampler draws the investigator's searches into the supervisor's queue",
    async () => {
      for (const search of Object.values(searches)) {
        const answer = await call(search.path, { token: tokens.investigator });
        expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
      }
      const until = Date.now() + DRAW_WAIT_MS;
      let open: ReviewItem[] = [];
      while (Date.now() < until) {
        const answer = await call('/api/reviews?status=open', { token: tokens.supervisor });
        expect(answer.status).toBe(200);
        open = answer.body.data as ReviewItem[];
        if (open.length >= 3) break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      expect(open).toHaveLength(3);
      expect(open.map((item) => item.kind).sort()).toEqual(['email', 'tel', 'tel']);
      expect(open.every((item) => item.searcher.email === people.investigator.email)).toBe(true);
      // Nobody reviews their own: the investigator's queue is empty, their own list holds the three.
      expect((await call('/api/reviews?status=open', { token: tokens.investigator })).body.data).toEqual([]);
      expect((await call('/api/reviews/mine', { token: tokens.investigator })).body.data).toHaveLength(3);
    },
    DRAW_WAIT_MS + 30_000,
  );

  it('the supervisor questions one search with a note and marks another in order', async () => {
    const page = await open(tokens.supervisor, '/dashboard');
    await page.getByRole('link', { name: t.menuLink, exact: true }).click();
    await page.waitForURL('**/reviews');
    await page.getByRole('heading', { level: 1, name: t.title }).waitFor();
    expect(
      await page.getByRole('tab', { name: t.toReviewTab, exact: true }).getAttribute('aria-selected'),
    ).toBe('true');
    await card(page, searches.filed.shown).waitFor();
    expect(await cards(page).count()).toBe(3);
    // The filed search carries its case reference; the e-mail search its kind.
    await card(page, searches.filed.shown).getByText('FIR-118/2026').waitFor();
    await card(page, searches.email.shown)
      .getByText(messages.history.kinds.email!, { exact: true })
      .waitFor();
    await card(page, searches.phone.shown).getByText(people.investigator.name).waitFor();

    // The queue with its three searches, at both sizes.
    await expectAccessibleAt(page, 'reviews-supervisor (desktop)');
    await screenshot(page, 'reviews-supervisor-desktop');
    const small = await open(tokens.supervisor, '/reviews', phone);
    await card(small, searches.filed.shown).waitFor();
    await expectAccessibleAt(small, 'reviews-supervisor (mobile)');
    await screenshot(small, 'reviews-supervisor-mobile');

    // A question without a note is refused under the field; with one it is sent.
    await page.getByRole('button', { name: t.questionLabel(searches.filed.shown) }).click();
    const note = page.getByRole('textbox', { name: t.noteLabel });
    await expect.poll(() => note.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.getByRole('button', { name: t.sendQuestion }).click();
    await page.getByText(reviewsMessages.noteRequired).waitFor();
    expect(await note.getAttribute('aria-invalid')).toBe('true');
    await expectAccessibleAt(page, 'reviews-question-refused (desktop)');
    await note.fill('Filed under FIR 118/2026, but the FIR names no phone number. Which lead was this?');
    await page.getByRole('button', { name: t.sendQuestion }).click();
    await toast(page, t.questioned).waitFor();
    await card(page, searches.filed.shown).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: t.inOrderLabel(searches.phone.shown) }).click();
    await toast(page, t.markedInOrder).waitFor();
    await card(page, searches.phone.shown).waitFor({ state: 'detached' });
    expect(await cards(page).count()).toBe(1);
    // The reviewed card has left: the focus is on the list's count, not lost to the page's top.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(t.count(1));

    // Both are listed under Reviewed with their verdicts.
    await dismissToasts(page);
    await page.getByRole('tab', { name: t.reviewedTab, exact: true }).click();
    await card(page, searches.filed.shown).getByText(REVIEW_VERDICT_LABELS.questioned).first().waitFor();
    await card(page, searches.phone.shown).getByText(REVIEW_VERDICT_LABELS.in_order).first().waitFor();
    expect(await page.getByRole('button', { name: t.inOrder }).count()).toBe(0);
    await expectAccessibleAt(page, 'reviews-reviewed (desktop)');

    // A second verdict on the same search is refused by the server.
    const again = await call(`/api/reviews/${(await reviewed())[0]!.lookup_id}`, {
      token: tokens.supervisor,
      body: { verdict: 'in_order' },
    });
    expect(again.status).toBe(409);
  });

  it('the investigator reads both verdicts under My searches reviewed', async () => {
    const page = await open(tokens.investigator, '/dashboard');
    await page.getByRole('link', { name: t.menuLink, exact: true }).click();
    await page.waitForURL('**/reviews');
    // No queue of their own: only their reviewed searches, without tabs.
    await page.getByRole('heading', { level: 2, name: t.mineTab }).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    const filed = card(page, searches.filed.shown);
    await filed.getByText(REVIEW_VERDICT_LABELS.questioned).first().waitFor();
    await filed
      .getByText('Filed under FIR 118/2026, but the FIR names no phone number.', { exact: false })
      .waitFor();
    await filed.getByText(people.supervisor.name, { exact: false }).waitFor();
    await card(page, searches.phone.shown).getByText(REVIEW_VERDICT_LABELS.in_order).first().waitFor();
    await card(page, searches.email.shown).getByText(t.awaiting).waitFor();
    await expectAccessibleAt(page, 'reviews-mine (desktop)');
    await screenshot(page, 'reviews-mine-desktop');

    const small = await open(tokens.investigator, '/reviews', phone);
    await card(small, searches.filed.shown).getByText(REVIEW_VERDICT_LABELS.questioned).first().waitFor();
    await expectAccessibleAt(small, 'reviews-mine (mobile)');
    const widths = await small.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      screen: window.innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    await screenshot(small, 'reviews-mine-mobile');
  });
});

async function reviewed(): Promise<ReviewItem[]> {
  return (await call('/api/reviews?status=done', { token: tokens.supervisor })).body.data as ReviewItem[];
}
