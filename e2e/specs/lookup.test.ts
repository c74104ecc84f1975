import {
  type EmailLookupResponse,
  mergePhoneProfile,
  type PhoneLookupResponse,
  PROFILE_SECTIONS,
  SANDBOX_BANNER,
} from '@footprint/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, useBrowser } from '../support/browser.ts';

/**
 * Phone and e-mail search through to the results page, against the built product with sandbox providers
 * (spec §2.3, §2.5, §4 Search and Results, §5, §8). The searches spend credits of demo-admin, a live
 * account no other spec counts the balance of.
 */

// Its tests sign in afresh on a page of their own; the contexts they leave are reused (support/browser.ts).
const browser = useBrowser({ reuseContexts: true });
const account = 'demo-admin@footprint.test';
let token: string;

beforeAll(async () => {
  token = await apiSignIn(account, demoPassword);
});

async function signedInPage(size: { width?: number; height?: number } = {}) {
  const page = await browser.newPage(size);
  await storeSession(page, token);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
  return page;
}

const searchButton = (page: Page) => page.getByRole('button', { name: 'Search', exact: true });
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

/** Runs a search from the dashboard and resolves with the answer the page received. */
async function search<T>(page: Page, type: 'tel' | 'email', value: string): Promise<T> {
  if (type === 'email') await page.getByRole('radio', { name: 'Email' }).check({ force: true });
  else await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
  await page.getByRole('textbox', { name: type === 'tel' ? 'Phone number' : 'Email address' }).fill(value);
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
  const answer = page.waitForResponse((res) =>
    res.url().includes(type === 'tel' ? '/api/tel?' : '/api/email?'),
  );
  await searchButton(page).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  await page.waitForURL('**/results');
  return (await response.json()) as T;
}

describe('search screen', () => {
  it('checks terms, then the input, with the spec messages; the type toggle clears and focuses the input', async () => {
    const page = await signedInPage();
    await page.getByText('FIND YOUR DIGITAL FOOTPRINT').waitFor();
    const phone = page.getByRole('textbox', { name: 'Phone number' });
    // The 10 characters of spec §2.3 are the number's 10 digits: the field also takes spaces, '+', '-'
    // and parentheses, and cuts itself once the rest is stripped (feedback.test.ts).
    expect(await phone.getAttribute('maxlength')).toBeNull();
    expect(await phone.getAttribute('inputmode')).toBe('numeric');
    expect(await page.getByRole('link', { name: 'Terms of Services, Policies' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    await page.getByRole('button', { name: /Country code: India \+91/ }).waitFor();
    await screenshot(page, 'search-dashboard-desktop');

    await phone.fill('98765');
    await searchButton(page).click();
    await toast(page, 'Please accept the terms before submitting').waitFor();

    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    await searchButton(page).click();
    await toast(page, 'Please enter a valid phone number').waitFor();
    await phone.fill('98765abcde');
    await searchButton(page).click();
    expect(await toast(page, 'Please enter a valid phone number').count()).toBeGreaterThan(0);

    await page.getByRole('radio', { name: 'Email' }).check({ force: true });
    const email = page.getByRole('textbox', { name: 'Email address' });
    await expect.poll(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await email.inputValue()).toBe('');
    expect(await email.getAttribute('maxlength')).toBe('100');
    await email.fill('not an@email');
    await searchButton(page).click();
    await toast(page, 'Please enter a valid email address').waitFor();
    expect(page.url()).toMatch(/\/dashboard$/);
    expect(problemsOf(page)).toEqual([]);
  });

  it('says what went wrong when a search fails: server error, no answer, no credits', async () => {
    const page = await signedInPage();
    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');

    // Failures are staged in the browser: the real server never sees these searches.
    await page.route('**/api/tel?*', (route) =>
      route.fulfill({ status: 500, json: { message: 'Upstream is down.' } }),
    );
    await searchButton(page).click();
    await toast(page, 'Upstream is down.').waitFor();
    await page.unrouteAll();

    await page.route('**/api/tel?*', (route) => route.abort('connectionfailed'));
    await searchButton(page).click();
    await toast(page, 'Something went wrong.').waitFor();
    await page.unrouteAll();

    await page.route('**/api/tel?*', (route) =>
      route.fulfill({ status: 402, json: { message: 'Insufficient credits.', credits: 0 } }),
    );
    await searchButton(page).click();
    await toast(page, 'Insufficient credits.').waitFor();
    await page.getByText('Credits: 0').first().waitFor();
    // With no credits left the browser refuses before calling the server.
    await searchButton(page).click();
    await toast(page, 'Insufficient credits. Please upgrade your plan.').waitFor();
    expect(page.url()).toMatch(/\/dashboard$/);
  });

  it('picks a country from the searchable list with the keyboard', async () => {
    const page = await signedInPage();
    const trigger = page.getByRole('button', { name: /Country code:/ });
    await trigger.click();
    const filter = page.getByRole('combobox', { name: 'Search country or dial code' });
    const options = page.getByRole('option');
    expect(await options.count()).toBe(38);
    await filter.fill('44');
    await page.getByRole('option', { name: /United Kingdom/ }).waitFor();
    await filter.press('Enter');
    await page.getByRole('button', { name: /Country code: United Kingdom \+44/ }).waitFor();

    await trigger.click();
    await filter.fill('no such place');
    expect(await options.count()).toBe(38);
    await filter.fill('India');
    await filter.press('Enter');
    await page.getByRole('button', { name: /Country code: India \+91/ }).waitFor();

    await trigger.press('ArrowDown');
    await filter.press('Escape');
    expect(await options.count()).toBe(0);
  });
});

describe('phone results', () => {
  // One search serves both: the profile's sections first, then its RC, challan, UPI and credit report
  // dialogs (a second search of the same number would draw the same results page again).
  it('shows every profile section of the rich demo number, the tiles and the sandbox banner; opens the RC, challan, UPI and credit report modals from the profile', async () => {
    const page = await signedInPage();
    const answer = await search<PhoneLookupResponse>(page, 'tel', '9876543210');
    expect(answer.sandbox).toBe(true);

    await page.getByRole('heading', { name: '+91 9876543210' }).waitFor();
    await page.getByText(SANDBOX_BANNER).waitFor();
    // The merged profile leads; every source's own values are one click away under 'Source records'.
    await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
    await page.getByRole('heading', { name: 'Lawful next steps' }).waitFor();
    await page.getByRole('heading', { name: /^Timeline/ }).waitFor();
    await screenshot(page, 'results-phone-desktop');
    await page.locator('summary').filter({ hasText: 'Source records' }).click();
    const profile = mergePhoneProfile(answer);
    const titles = PROFILE_SECTIONS.filter(({ key }) => profile[key].length > 0).map(({ title }) => title);
    expect(titles.length).toBeGreaterThan(10);
    for (const title of titles) {
      await page
        .getByRole('heading', { name: new RegExp(`^${title}`) })
        .first()
        .waitFor();
    }
    for (const tile of ['Phone Status', 'Phone IMSI', 'Whatsapp Business Account']) {
      await page.getByText(tile, { exact: true }).waitFor();
    }
    await page.getByText('Marked as Spam', { exact: true }).waitFor();
    await page.getByRole('link', { name: /Facebook profile/ }).waitFor();
    await page.getByRole('button', { name: 'AI Report' }).waitFor();
    await page.getByRole('button', { name: 'Save Results' }).waitFor();
    await page.getByText(`Credits: ${answer.credits}`).first().waitFor();
    await page.getByRole('heading', { name: /^Records/ }).waitFor();
    await page.getByRole('button', { name: 'Additional Information' }).first().click();
    await page.getByRole('heading', { name: /^Records/ }).scrollIntoViewIfNeeded();
    await screenshot(page, 'results-phone-records');

    await page.getByRole('button', { name: 'Copy searched value' }).click();
    await page.getByText('Copied!').waitFor();

    // The full-size picture locks page scroll while it is open.
    await page.getByRole('button', { name: /Open full-size image 1/ }).click();
    await page.getByRole('dialog').waitFor();
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('');

    // The dialogs of the profile, opened from the merged profile (the source records closed again).
    await page.locator('summary').filter({ hasText: 'Source records' }).click();
    const rc = profile.rcNumbers[0]?.value;
    const upi = profile.upiIds[0]?.value;
    expect(rc && upi).toBeTruthy();
    const dialog = page.getByRole('dialog');

    await page.getByRole('button', { name: `RC Details: ${rc}` }).click();
    await dialog.getByRole('heading', { name: 'RC Details' }).waitFor();
    await dialog.getByText('Owner Name').waitFor();
    // The curated order: the owner first, the colour after the vehicle, whatever the answer's key order.
    const labels = await dialog.locator('dt').allTextContents();
    expect(labels[0]).toBe('Owner Name');
    expect(labels.indexOf('Color')).toBeGreaterThan(labels.indexOf('Maker Model'));
    expect(await dialog.locator('dd').first().textContent()).toMatch(/\S/);
    // Dates in the domain's format.
    const registered = labels.indexOf('Registration Date');
    expect(await dialog.locator('dd').nth(registered).textContent()).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}$/);
    await dialog.getByRole('button', { name: 'Download pdf' }).waitFor();
    expect(await dialog.getByText(/client id/i).count()).toBe(0);
    const size = page.viewportSize();
    await page.setViewportSize({ width: 1366, height: 900 });
    await screenshot(page, 'results-modal-rc');
    if (size) await page.setViewportSize(size);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    await page.getByRole('button', { name: `Challan Details: ${rc}` }).click();
    await dialog.getByRole('heading', { name: 'Challan Details' }).waitFor();
    // The challans are one table: a header row, a row per challan, amounts in rupees.
    const challans = dialog.getByRole('region', { name: 'Challans' }).locator('table');
    await challans.locator('tbody tr').first().waitFor();
    expect((await challans.locator('thead th').allTextContents()).slice(0, 2)).toEqual([
      'Challan Number',
      'Challan Date',
    ]);
    expect(await challans.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await challans.locator('tbody').textContent()).toMatch(/₹\d/);
    await screenshot(page, 'results-modal-challan');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    await page.getByRole('button', { name: `UPI Details: ${upi}` }).click();
    await dialog.getByRole('heading', { name: 'UPI Details' }).waitFor();
    await dialog.getByText('Full Name').waitFor();
    await screenshot(page, 'results-modal-upi');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Credit Report:/ }).click();
    await dialog.getByRole('heading', { name: 'Credit Report Request' }).waitFor();
    const pan = profile.identityProofs.find((entry) => entry.key === 'PAN Number')?.value;
    expect(await dialog.getByLabel('PAN', { exact: true }).inputValue()).toBe(pan);
    expect(await dialog.getByLabel('PAN', { exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByRole('checkbox').isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Download Report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please select gender.' }).waitFor();
    await screenshot(page, 'results-modal-credit-report');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    await page.getByRole('button', { name: 'New Search' }).click();
    await page.waitForURL('**/dashboard');
    expect(problemsOf(page)).toEqual([]);
  });

  it('fits a 390 px phone screen without sideways scrolling', async () => {
    const page = await signedInPage({ width: 390, height: 844 });
    await search<PhoneLookupResponse>(page, 'tel', '9876543210');
    await page.getByText(SANDBOX_BANNER).waitFor();
    await page.getByRole('heading', { name: /^Name/ }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'results-phone-mobile');

    // The RC modal on a phone: owner first, nothing wider than the screen.
    const rc = page.getByRole('button', { name: /^RC Details: / }).first();
    await rc.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Owner Name').waitFor();
    expect((await dialog.locator('dt').allTextContents())[0]).toBe('Owner Name');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'results-modal-rc-mobile');
  });

  it('shows a sparse answer with the sources that did not answer', async () => {
    const page = await signedInPage();
    await search<PhoneLookupResponse>(page, 'tel', '9123456780');
    await page.getByText('Phone Status', { exact: true }).waitFor();
    await page
      .locator('summary')
      .filter({ hasText: /\d+ of 11 sources answered · \d+ not found$/ })
      .click();
    await page.getByRole('list', { name: 'Sources' }).getByText('Not found').first().waitFor();
  });
});

describe('e-mail results', () => {
  it('shows the account card, the breaches grid and the reviewed locations on a map', async () => {
    const page = await signedInPage();
    const answer = await search<EmailLookupResponse>(page, 'email', 'rich.demo@example.test');
    await page.getByText(SANDBOX_BANNER).waitFor();
    await page.getByRole('heading', { name: 'Account Provider profile' }).waitFor();
    await page.getByRole('heading', { name: 'Avatar service' }).waitFor();

    const breaches = page.locator('section', { has: page.getByRole('heading', { name: /^Found breaches/ }) });
    await breaches.waitFor();
    expect(
      await breaches
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading') })
        .count(),
    ).toBe(answer.data.hibpData?.length);
    await page.getByRole('heading', { name: /^Internet Presence/ }).waitFor();
    await screenshot(page, 'results-email-desktop');

    const located = (answer.data.emailData?.maps_result?.reviews ?? []).filter(
      (review) => typeof review.latitude === 'number' && typeof review.longitude === 'number',
    );
    expect(located.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Show map' }).click();
    await expect.poll(() => page.locator('.leaflet-marker-icon').count()).toBe(located.length);
    await page.getByText(located[0]!.latitude!.toFixed(5), { exact: false }).first().waitFor();
    await page.locator('.leaflet-marker-icon').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'results-email-map');
    expect(problemsOf(page)).toEqual([]);
  });

  it('shows the no-results page for an address nothing knows', async () => {
    const page = await signedInPage();
    await search<EmailLookupResponse>(page, 'email', 'nobody@example.test');
    await page.getByRole('heading', { name: 'No results found' }).waitFor();
    await page.getByRole('link', { name: 'Start a new search' }).click();
    await page.waitForURL('**/dashboard');
  });

  it('shows the no-results page when /results is opened without a search', async () => {
    const page = await signedInPage();
    await page.goto('/results');
    await page.getByRole('heading', { name: 'No results found' }).waitFor();
    expect(await page.getByRole('link', { name: 'Start a new search' }).getAttribute('href')).toBe(
      '/dashboard',
    );
  });
});
