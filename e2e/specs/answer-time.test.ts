import { mergePhoneProfile, type PhoneLookupResponse } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from '../support/a11y.ts';
import { api, apiSignIn } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';
import { search } from '../support/screens.ts';

/**
 * Answers keep their time: the results page says when the sources answered ('Answered dd MMM yyyy,
 * HH:mm'), says a repeat within the cache window was reused (with the case reference of the lookup it
 * reuses), and 'Refresh' runs a fresh, charged lookup after a confirmation that shows its price.
 * A user of its own, so that the balance is this spec's alone.
 */

const browser = useBrowser();
let token: string;

beforeAll(async () => {
  const email = uniqueEmail('answer-time');
  const password = 'answer time passphrase';
  expect(
    (
      await api('/api/register', {
        body: { name: 'Answer Timer', email, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  token = await apiSignIn(email, password);
});

/** The balance the header shows. */
async function shownCredits(page: Page): Promise<number> {
  const text = await page
    .getByText(/^Credits: \d+$/)
    .first()
    .textContent();
  return Number(text?.replace(/\D/g, ''));
}

const answeredLine = (page: Page) => page.locator('.results-bar time');

describe('the time of an answer and a fresh one on request', () => {
  it('says when the sources answered, that a repeat was reused, and refreshes for its price', async () => {
    const page = await browser.newPage({ width: 1366, height: 900 });
    await storeSession(page, token);

    const first = (await search(page, 'tel', '9876543210', 'CASE-TIME-1')) as PhoneLookupResponse;
    expect(first.cached).toBe(false);
    await expect
      .poll(() => answeredLine(page).textContent())
      .toMatch(/^Answered \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    expect(await answeredLine(page).getAttribute('datetime')).toBe(first.answered_at);
    expect(await page.getByText('Case reference CASE-TIME-1').count()).toBe(0);

    // The same search again, under another case reference: reused, free, and the page says so.
    const second = (await search(page, 'tel', '9876543210', 'CASE-TIME-2')) as PhoneLookupResponse;
    expect(second).toMatchObject({ cached: true, answered_at: first.answered_at, credits: first.credits });
    await expect.poll(() => answeredLine(page).textContent()).toMatch(/^Answered .*, reused$/);
    expect(await answeredLine(page).getAttribute('datetime')).toBe(first.answered_at);
    await page.locator('.results-bar').getByText('Case reference CASE-TIME-1').waitFor();
    await expect.poll(() => shownCredits(page)).toBe(first.credits);
    await screenshot(page, 'results-answer-time-desktop');
    expect(await axeProblems(page, 'results-answer-time-desktop', '.results-bar')).toEqual([]);

    // Refresh: a confirmation with the price, then a fresh, charged lookup that replaces the answer.
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Refresh this answer?' });
    await dialog.getByText('A fresh lookup asks every source again and costs 1 credit.').waitFor();
    await dialog.getByText(`Credits: ${first.credits}`).waitFor();
    await screenshot(page, 'results-answer-time-confirm');
    expect(await axeProblems(page, 'results-answer-time-confirm', '[role="dialog"]')).toEqual([]);
    const fresh = page.waitForResponse(
      (res) => res.url().includes('/api/tel?') && res.url().includes('fresh=1'),
    );
    await dialog.getByRole('button', { name: 'Refresh for 1 credit' }).click();
    const answer = (await (await fresh).json()) as PhoneLookupResponse;
    expect(answer).toMatchObject({ cached: false, reused_from: null, credits: first.credits - 1 });
    expect(new Date(answer.answered_at!).getTime()).toBeGreaterThan(new Date(first.answered_at!).getTime());
    await dialog.waitFor({ state: 'detached' });

    await expect.poll(() => answeredLine(page).getAttribute('datetime')).toBe(answer.answered_at);
    expect(await answeredLine(page).textContent()).toMatch(
      /^Answered \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/,
    );
    expect(await page.locator('.results-bar').getByText('Case reference CASE-TIME-1').count()).toBe(0);
    await expect.poll(() => shownCredits(page)).toBe(first.credits - 1);
    // The page's state is the new answer: a reload keeps it.
    await page.reload();
    await expect.poll(() => answeredLine(page).getAttribute('datetime')).toBe(answer.answered_at);
    expect(problemsOf(page)).toEqual([]);
  });

  it('says the same, compactly, in a detail modal, and refreshes it for its price', async () => {
    const page = await browser.newPage({ width: 1366, height: 900 });
    await storeSession(page, token);
    const answer = (await search(page, 'tel', '9876543210', 'CASE-RC-1')) as PhoneLookupResponse;
    const rc = mergePhoneProfile(answer).rcNumbers[0]?.value;
    expect(rc).toBeTruthy();
    const dialog = page.getByRole('dialog', { name: 'RC Details' });
    const modalTime = dialog.locator('time');

    // Bought once...
    const first = page.waitForResponse((res) => res.url().includes('/api/rcfull-details'));
    await page.getByRole('button', { name: `RC Details: ${rc}` }).click();
    const bought = await (await first).json();
    await expect.poll(() => modalTime.getAttribute('datetime')).toBe(bought.answered_at);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    // ...and reused by the server after a reload (the page's own memory of it is gone).
    await page.reload();
    const again = page.waitForResponse((res) => res.url().includes('/api/rcfull-details'));
    await page.getByRole('button', { name: `RC Details: ${rc}` }).click();
    expect(await (await again).json()).toMatchObject({ cached: true, answered_at: bought.answered_at });
    await expect
      .poll(() => modalTime.textContent())
      .toMatch(/^Answered .*, reused · Case reference CASE-RC-1$/);
    const before = await shownCredits(page);

    await dialog.getByRole('button', { name: 'Refresh', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Refresh this answer?' });
    await confirm.getByText('A fresh lookup asks every source again and costs 1 credit.').waitFor();
    const fresh = page.waitForResponse((res) => res.url().includes('/api/rcfull-details'));
    await confirm.getByRole('button', { name: 'Refresh for 1 credit' }).click();
    const response = await fresh;
    expect(response.request().postDataJSON()).toMatchObject({ id_number: rc, fresh: true });
    const renewed = await response.json();
    expect(renewed).toMatchObject({ cached: false, reused_from: null, credits: before - 1 });
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => modalTime.getAttribute('datetime')).toBe(renewed.answered_at);
    expect(await modalTime.textContent()).toMatch(/^Answered \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    await dialog.getByText('Owner Name').waitFor();
    await expect.poll(() => shownCredits(page)).toBe(before - 1);
    await screenshot(page, 'results-answer-time-modal');
    expect(problemsOf(page)).toEqual([]);
  });

  it('fits the answer time and Refresh in the header on a phone', async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await storeSession(page, token);
    await search(page, 'tel', '9876543211', 'CASE-PHONE-1');
    const repeat = (await search(page, 'tel', '9876543211', 'CASE-PHONE-2')) as PhoneLookupResponse;
    expect(repeat.cached).toBe(true);
    await expect.poll(() => answeredLine(page).textContent()).toMatch(/, reused$/);
    const refresh = page.getByRole('button', { name: 'Refresh', exact: true });
    const box = await refresh.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    // Nothing in the header is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'results-answer-time-phone');
    expect(await axeProblems(page, 'results-answer-time-phone', '.results-bar')).toEqual([]);

    // Cancel charges nothing.
    const before = await shownCredits(page);
    await refresh.click();
    const dialog = page.getByRole('dialog', { name: 'Refresh this answer?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await shownCredits(page)).toBe(before);
    expect(problemsOf(page)).toEqual([]);
  });
});
