import { fileURLToPath } from 'node:url';
import { type PhoneLookupResponse, SANDBOX_BANNER, sourcePanel, sourceStatusOf } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from '../support/a11y.ts';
import { apiSignIn, demoPassword } from '../support/api.ts';
import { picture, problemsOf, storeSession, useBrowser } from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

/**
 * The results page's source panel (what became of every source, live or sandbox) and the search
 * screens of a deployment that has no source for a search: on the suite's sandbox server, then on a
 * server of its own with the sandbox off and no vendor configured, where every search is unavailable.
 * Pictures of the open panel go to test-results/source-panel/ (not docs/screenshots).
 */

const browser = useBrowser();
const pictures = fileURLToPath(new URL('../../test-results/source-panel', import.meta.url));

const pictureOf = (page: Page, name: string) => picture(page, `${pictures}/${name}.png`);

/** Runs a phone search from the dashboard and resolves with the answer the page received. */
async function phoneSearch(page: Page, digits: string): Promise<PhoneLookupResponse> {
  await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
  await page.getByRole('textbox', { name: 'Phone number' }).fill(digits);
  await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
  const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  await page.waitForURL('**/results');
  return (await response.json()) as PhoneLookupResponse;
}

describe('the source panel on the results page', () => {
  let token: string;
  beforeAll(async () => {
    token = await apiSignIn('demo-admin@footprint.test', demoPassword);
  });

  for (const size of [
    { name: 'desktop', width: 1366, height: 900 },
    { name: 'mobile', width: 390, height: 844 },
  ]) {
    it(`sums up the sources in one line that opens onto each source's status (${size.name})`, async () => {
      const page = await browser.newPage(size);
      await storeSession(page, token);
      await page.goto('/dashboard');
      const answer = await phoneSearch(page, '9123456780');
      const expected = sourcePanel(
        sourceStatusOf('tel', {
          payloads: answer as unknown as Record<string, unknown>,
          errors: answer.errors,
          status: answer.source_status,
          sandbox: answer.sandbox === true,
        }),
      );
      expect(expected.derived).toBe(false);
      expect(expected.total).toBe(11);
      expect(expected.answered).toBeLessThan(expected.total);

      const summary = page.locator('summary').filter({ hasText: expected.summary });
      await summary.waitFor();
      expect(expected.summary).toMatch(/^\d+ of 11 sources answered · \d+ not found$/);
      await page.getByText(SANDBOX_BANNER).waitFor();
      const list = page.getByRole('list', { name: 'Sources' });
      expect(await list.isVisible()).toBe(false);

      await summary.click();
      await list.waitFor();
      expect(await list.getByRole('listitem').count()).toBe(11);
      const missing = expected.lines.find((line) => line.state === 'not_found')!;
      const row = list.getByRole('listitem').filter({ hasText: missing.label });
      expect(await row.textContent()).toContain('Not found');
      expect(await row.textContent()).toContain('Sandbox (synthetic data)');
      const answered = list.getByRole('listitem').filter({ hasText: 'Answered' });
      expect(await answered.count()).toBe(expected.answered);
      // What went wrong is listed before what answered.
      expect(await list.getByRole('listitem').first().textContent()).toContain('Not found');

      expect(await axeProblems(page, `source panel (${size.name})`, '.source-panel')).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      await summary.scrollIntoViewIfNeeded();
      await pictureOf(page, `results-source-panel-${size.name}`);
      await summary.click();
      expect(await list.isVisible()).toBe(false);
      expect(problemsOf(page)).toEqual([]);
    });
  }
});

describe('a deployment with the sandbox off and no vendor', () => {
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    server = await startProductServer({ SANDBOX: 'false', SANDBOX_LEAK_RECORDS: '0' });
    token = await apiSignIn('demo-live@footprint.test', demoPassword, server.url);
  });
  afterAll(() => server?.stop());

  it('says the phone and e-mail lookups are not available and offers no search', async () => {
    const page = await browser.newPage({ width: 1366, height: 900 });
    await storeSession(page, token, server.url);
    let searched = false;
    page.on('request', (request) => {
      if (/\/api\/(tel|email)\?/.test(request.url())) searched = true;
    });
    await page.goto(`${server.url}/dashboard`);
    const phoneNote = page.getByText(
      'Phone lookups are not available in this deployment (no source configured).',
    );
    await phoneNote.waitFor();
    await page
      .getByText('Email lookups are not available in this deployment (no source configured).')
      .waitFor();
    const submit = page.getByRole('button', { name: 'Search', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Phone' }).isDisabled()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Phone number' }).isDisabled()).toBe(true);
    expect(await axeProblems(page, 'search unavailable', 'form')).toEqual([]);
    await pictureOf(page, 'search-unavailable-desktop');

    await page.goto(`${server.url}/corporate`);
    await page
      .getByText('GSTIN Details searches are not available in this deployment (no source configured).')
      .waitFor();
    expect(await page.getByRole('option', { name: 'GSTIN Details (not available)' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Search', exact: true }).isDisabled()).toBe(true);
    expect(searched).toBe(false);
    expect(problemsOf(page)).toEqual([]);
  });
});
