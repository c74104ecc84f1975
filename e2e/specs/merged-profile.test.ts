import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from '../support/a11y.ts';
import { api, apiSignIn } from '../support/api.ts';
import { screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * The merged profile on the results page (docs/capabilities.md, 'Merged profile and analysis'): each
 * value's provenance, the filter, conflicts, and the phone size. That the PDFs, the saved files, a bulk
 * row and the case say the same as the page is proven in one-evidence.test.ts.
 */

const browser = useBrowser();
let token: string;

beforeAll(async () => {
  const email = uniqueEmail('merger');
  const password = 'merged profile passphrase';
  expect(
    (
      await api('/api/register', {
        body: { name: 'Merge Checker', email, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  token = await apiSignIn(email, password);
});

async function results(
  type: 'tel' | 'email',
  value: string,
  size?: { width: number; height: number },
  prepare?: (page: Page) => Promise<unknown>,
) {
  const page = await browser.newPage(size ?? { width: 1366, height: 900 });
  await storeSession(page, token);
  await prepare?.(page);
  await page.goto('/dashboard');
  if (type === 'email') await page.getByRole('radio', { name: 'Email' }).check({ force: true });
  await page.getByRole('textbox', { name: type === 'tel' ? 'Phone number' : 'Email address' }).fill(value);
  await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL('**/results');
  await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
  return page;
}

/** The merged values of one attribute as the page shows them. */
async function shown(page: Page, attribute: string): Promise<string[]> {
  return page
    .locator(`[data-merged-attribute="${attribute}"] [data-merged-value]`)
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-merged-value') ?? ''));
}

describe('merged profile: the rich demo phone', () => {
  it('shows where each value comes from, from the keyboard', async () => {
    const page = await results('tel', '9876543210');
    const row = page.locator('[data-merged-attribute="Phone"] [data-merged-value="+919876543210"]');
    const toggle = row.getByRole('button', { name: /^Where \+919876543210 comes from:/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const panel = page.locator(`#${(await toggle.getAttribute('aria-controls'))!.replace(/:/g, '\\:')}`);
    await panel.waitFor();
    // The OSINT records name their breach; the sandbox answered; each line says when.
    expect(await panel.getByText('via OSINT').count()).toBeGreaterThan(0);
    expect(await panel.getByText('Sandbox', { exact: true }).count()).toBeGreaterThan(0);
    expect(
      await panel.getByText(/^answered \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/).count(),
    ).toBeGreaterThan(0);
    await screenshot(page, 'results-merged-provenance');
    // The merged profile with a provenance panel open has no serious accessibility problem.
    expect(await axeProblems(page, 'results-merged-provenance', '[data-merged-attribute="Phone"]')).toEqual(
      [],
    );
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('narrows every section with the filter, and says when nothing matches', async () => {
    const page = await results('tel', '9876543210');
    const filter = page.getByRole('searchbox', { name: 'Filter the results' });
    await filter.fill('+9198765');
    await expect.poll(() => page.locator('[data-merged-attribute]').count()).toBe(1);
    expect(await shown(page, 'Phone')).toEqual(['+919876543210']);
    await filter.fill('zzz-no-such-thing');
    await page.getByText('Nothing matches ‘zzz-no-such-thing’').waitFor();
    expect(await page.locator('[data-merged-attribute]').count()).toBe(0);
    await page.getByRole('status').getByRole('button', { name: 'Clear filter' }).click();
    expect(await filter.inputValue()).toBe('');
    await expect.poll(() => page.locator('[data-merged-attribute]').count()).toBeGreaterThan(5);
  });

  it('marks a conflict where the sources disagree on a single-valued fact', async () => {
    // The rich answer as the browser receives it, with every OSINT record giving another date of birth.
    const page = await results('tel', '9876543210', { width: 1366, height: 900 }, (p) =>
      p.route('**/api/tel?**', async (route) => {
        const response = await route.fetch();
        const answer = await response.json();
        for (const record of answer.osintData?.data ?? []) record.dob = '01/01/1985';
        await route.fulfill({ response, json: answer });
      }),
    );
    expect(await shown(page, 'Date of birth')).toEqual(['1990-04-17', '1985-01-01']);
    const card = page.locator('[data-merged-attribute="Date of birth"]');
    await card.getByText('Sources disagree').waitFor();
    expect(await card.getByText('Conflict', { exact: true }).count()).toBe(2);
    // A fact the sources agree on carries no conflict mark.
    expect(await page.locator('[data-merged-attribute="Gender"]').getByText('Conflict').count()).toBe(0);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'results-merged-conflict');
  });

  it('fits a phone screen', async () => {
    const page = await results('tel', '9876543210', { width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('heading', { name: 'Merged profile' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'results-merged-phone-mobile');
  });
});

describe('merged profile: the rich demo e-mail', () => {
  it('fits a phone screen', async () => {
    const page = await results('email', 'rich.demo@example.test', { width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('heading', { name: 'Merged profile' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'results-merged-email-mobile');
  });
});
