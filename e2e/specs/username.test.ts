import { readFileSync } from 'node:fs';
import { messages, type SiteCheckAnswer } from '@footprint/domain';
import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import {
  expectNoSidewaysScroll,
  problemsOf,
  storeSession,
  uniqueEmail,
  useBrowser,
} from '../support/browser.ts';
import { makeOfficer, type Officer } from '../support/screens.ts';

/**
 * The username lookup in the browser, against the built product's sandbox site check: the dashboard's
 * third search type (the '@' people type dropped, an invalid name explained under the field and never
 * sent), the results of the README's demo names — the rich handle found on many sites with each
 * account's evidence on demand and the blocked sites by name, a name found nowhere (and not charged) —
 * and the search reopened from the history. The searches spend the credits of a live account made for
 * this file, so its balance is this file's alone.
 */

const browser = useBrowser();
const t = messages.usernameResults;
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

interface UsernameAnswer {
  sitesData?: SiteCheckAnswer;
  credits: number;
  lookup_id: string;
  source_status: Record<string, { status: string; mode: string }>;
}

let officer: Officer;

beforeAll(async () => {
  const adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword);
  officer = await makeOfficer(adminToken, uniqueEmail('username'));
}, 60_000);

async function dashboard(size = desktop): Promise<Page> {
  const page = await browser.newPage(size);
  await storeSession(page, officer.token);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
  await page.getByRole('radio', { name: messages.search.typeUsername }).check({ force: true });
  return page;
}

const field = (page: Page) => page.getByRole('textbox', { name: messages.search.usernameLabel });

async function acceptTerms(page: Page) {
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
}

/** Types `typed` into the username field, searches, and resolves with the answer once /results shows it. */
async function searchName(
  page: Page,
  typed: string,
): Promise<{ answer: UsernameAnswer; response: Response }> {
  await field(page).fill(typed);
  await acceptTerms(page);
  const answered = page.waitForResponse((res) => res.url().includes('/api/username?'), { timeout: 90_000 });
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const response = await answered;
  expect(response.status()).toBe(200);
  await page.waitForURL('**/results');
  return { answer: (await response.json()) as UsernameAnswer, response };
}

const balance = async () =>
  ((await api('/api/user', { token: officer.token })).body as { credits: number }).credits;

describe('username lookup', () => {
  it('finds the rich demo handle on many sites: counts, a profile link, its evidence, the blocked sites by name', async () => {
    const page = await dashboard();
    const input = field(page);
    expect(await input.getAttribute('maxlength')).toBe('64');
    expect(await input.getAttribute('autocapitalize')).toBe('none');
    expect(await input.getAttribute('spellcheck')).toBe('false');
    await page.getByText(messages.search.usernameHint).waitFor();

    // The '@' people write before a handle is dropped before the name is sent.
    const { answer, response } = await searchName(page, '  @rohand90 ');
    expect(new URL(response.url()).searchParams.get('username')).toBe('rohand90');
    const check = answer.sitesData;
    expect(check?.counts.found).toBeGreaterThan(20);

    await page.getByRole('heading', { level: 1, name: '@rohand90' }).waitFor();
    await page.getByText(messages.results.usernameLookup, { exact: true }).waitFor();
    const summary = page.getByRole('region', { name: t.summary });
    const asked = check!.catalogue.scope - check!.counts.not_checked;
    await summary.getByText(t.checkedOf(asked, check!.catalogue.sites)).waitFor();
    for (const state of ['found', 'not_found', 'blocked', 'error', 'not_checked'] as const) {
      await summary
        .getByText(check!.counts[state].toLocaleString('en-US'), { exact: true })
        .first()
        .waitFor();
    }
    // The sandbox answered: the page says so. No AI report for a username, but Watch (a live account:
    // e2e/specs/watchlist.test.ts watches it); its PDF is in the save menu with the exports, and
    // downloads as username-report-<name>.pdf.
    await page.getByText('Sandbox data', { exact: false }).first().waitFor();
    expect(await page.getByRole('button', { name: messages.results.aiReport }).count()).toBe(0);
    expect(await page.getByRole('button', { name: messages.watchlist.watch, exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: messages.results.saveResults }).click();
    await page.getByRole('button', { name: messages.results.saveAsCsv }).waitFor();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: messages.results.saveAsPdf }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('username-report-rohand90.pdf');
    const pdf = readFileSync((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    const found = page.getByRole('list', { name: t.foundListLabel(check!.counts.found) });
    expect(await found.getByRole('listitem').count()).toBe(check!.counts.found);
    const first = check!.sites.find((site) => site.state === 'found')!;
    const profile = found.getByRole('link', { name: first.url, exact: false }).first();
    expect(await profile.getAttribute('target')).toBe('_blank');
    expect(await profile.getAttribute('rel')).toContain('noopener');

    await page.getByRole('button', { name: t.evidenceOf(first.name) }).click();
    await page.getByText(first.evidence!.sha256, { exact: true }).waitFor();
    await page.getByRole('button', { name: `${t.hideEvidence}: ${first.name}` }).waitFor();

    // The blocked sites, by name, under their reasons (a long list opens on request).
    const blocked = check!.sites.filter((site) => site.state === 'blocked');
    expect(blocked.length).toBeGreaterThan(0);
    const unasked = page.getByRole('region', { name: t.unaskedTitle });
    await unasked.locator('summary', { hasText: t.groupTitle.blocked }).click();
    await unasked.getByRole('link', { name: blocked[0]!.name, exact: false }).first().waitFor();

    // The filter narrows the sites to the ones that match.
    await page.getByRole('searchbox', { name: t.filterLabel }).fill(first.name);
    await page.getByText(t.shownOf(1, check!.counts.found)).first().waitFor();
    await page.getByRole('searchbox', { name: t.filterLabel }).fill('');

    await page.setViewportSize(phone);
    await expectNoSidewaysScroll(page);
    expect(problemsOf(page)).toEqual([]);
  }, 120_000);

  it('a name found nowhere says how many sites said no and how many could not say, and costs nothing', async () => {
    const before = await balance();
    const page = await dashboard();
    const { answer } = await searchName(page, 'nobody.demo');
    expect(answer.source_status.sitesData?.status).toBe('not_found');
    const check = answer.sitesData!;
    expect(check.counts.found).toBe(0);
    const unasked = check.counts.blocked + check.counts.error + check.counts.not_checked;

    await page.getByRole('heading', { name: t.noneFoundTitle }).waitFor();
    await page.getByText(t.noneFoundBody(check.counts.not_found, unasked)).waitFor();
    // Not the generic no-results view: the check ran.
    expect(await page.getByRole('heading', { name: messages.results.noResults }).count()).toBe(0);
    expect(answer.credits).toBe(before);
    expect(await balance()).toBe(before);
    await page.setViewportSize(phone);
    await expectNoSidewaysScroll(page);
    expect(problemsOf(page)).toEqual([]);
  }, 120_000);

  it('explains an invalid name under the field and sends nothing', async () => {
    const page = await dashboard();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/username')) asked.push(request.url());
    });
    await field(page).fill('two words');
    await acceptTerms(page);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('.Toastify').getByText(messages.search.invalidUsername).waitFor();
    await page.getByText(messages.search.usernameRule).waitFor();
    expect(await field(page).getAttribute('aria-invalid')).toBe('true');
    expect(await field(page).evaluate((el) => el === document.activeElement)).toBe(true);
    // Typing again clears the explanation.
    await field(page).fill('two_words');
    expect(await page.getByText(messages.search.usernameRule).count()).toBe(0);
    expect(asked).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
  });

  it('reopens the stored username search from the history into the same results, and refreshes it', async () => {
    const page = await dashboard();
    const { answer } = await searchName(page, 'rohand90');
    const check = answer.sitesData!;

    await page.goto('/history');
    await page
      .getByRole('region', { name: messages.history.lookupsTab })
      .getByRole('button', { name: messages.history.openLabel('rohand90') })
      .first()
      .click();
    await page.waitForURL('**/results');
    await page.getByRole('heading', { level: 1, name: '@rohand90' }).waitFor();
    const found = page.getByRole('list', { name: t.foundListLabel(check.counts.found) });
    expect(await found.getByRole('listitem').count()).toBe(check.counts.found);
    const first = check.sites.find((site) => site.state === 'found')!;
    await found.getByText(first.name, { exact: true }).waitFor();
    // A reload keeps it (the state is read back defensively).
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '@rohand90' }).waitFor();

    // Refresh asks the sites again (fresh=1), charged, and shows the new answer in place.
    await page.getByRole('button', { name: messages.answerTime.refresh, exact: true }).click();
    const fresh = page.waitForResponse((res) => res.url().includes('/api/username?'), { timeout: 90_000 });
    await page.getByRole('button', { name: /^Refresh for/ }).click();
    const refreshed = await fresh;
    expect(refreshed.status()).toBe(200);
    expect(new URL(refreshed.url()).searchParams.get('fresh')).toBe('1');
    expect(new URL(refreshed.url()).searchParams.get('username')).toBe('rohand90');
    const again = (await refreshed.json()) as UsernameAnswer;
    expect(again.lookup_id).not.toBe(answer.lookup_id);
    await page.getByRole('heading', { level: 1, name: '@rohand90' }).waitFor();
    await page.getByRole('list', { name: t.foundListLabel(again.sitesData!.counts.found) }).waitFor();
    expect(problemsOf(page)).toEqual([]);
  }, 120_000);
});
