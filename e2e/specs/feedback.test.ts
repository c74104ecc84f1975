import { messages } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * What the screens say back, against the built product and its sandbox: the phone search field takes
 * only what a phone number is written with and says clearly when the number is not one; a credit
 * report for a person without credit history is one clear message; an OTP resend inside the server's
 * cooldown says how long to wait and counts it down on the button.
 */

const browser = useBrowser();
const toasts = (page: Page) => page.locator('.Toastify__toast');
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

let admin: string;

/** A live account of this spec's own, so its balance and its OTP challenges are its own. */
async function newOfficer(prefix: string, credits = 100) {
  const email = uniqueEmail(prefix);
  const password = `${prefix} passphrase 42`;
  const created = await api('/api/admin/users', {
    body: { name: 'Feedback Officer', email, password, app_mode: 'live', credits },
    token: admin,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { email, password };
}

async function signedInPage(path: string, prefix: string, credits = 100) {
  const { email, password } = await newOfficer(prefix, credits);
  const page = await browser.newPage({ width: 1366, height: 900 });
  await storeSession(page, await apiSignIn(email, password));
  await page.goto(path);
  return page;
}

beforeAll(async () => {
  admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
});

const mmss = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

/** The seconds a resend button counting down shows, e.g. 59 of 'Resend OTP (00:59)'. */
function secondsOf(label: string): number {
  const match = /^Resend OTP \((\d{2}):(\d{2})\)$/.exec(label);
  expect(match, label).not.toBeNull();
  return Number(match![1]) * 60 + Number(match![2]);
}

describe('phone search field', () => {
  it('drops letters as they are typed or pasted, searches a number written with separators, and says when it is not a number', async () => {
    const page = await signedInPage('/dashboard', 'phone-field');
    const phone = page.getByRole('textbox', { name: messages.search.phoneLabel });
    await phone.waitFor();

    await phone.pressSequentially('98765abc 43210xyz');
    expect(await phone.inputValue()).toBe('98765 43210');
    await phone.fill('');
    await phone.pressSequentially('+91 (98765) 432-10');
    expect(await phone.inputValue()).toBe('+91 (98765) 432-10');
    // A pasted line: the words go, the number stays.
    await phone.fill('Registered mobile of the subject: 98765 43210');
    expect(await phone.inputValue()).toBe('98765 43210');

    // Not a number once the letters are gone: the spec's toast and, under the field, what a number is.
    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    await phone.fill('98765 abcde');
    expect(await phone.inputValue()).toBe('98765 ');
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/tel?')) calls += 1;
    });
    await page.getByRole('button', { name: messages.search.submit, exact: true }).click();
    await toast(page, messages.search.invalidPhone).waitFor();
    const hint = messages.search.phoneRule('91');
    await page.getByText(hint).waitFor();
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    expect(await phone.evaluate((el) => el === document.activeElement)).toBe(true);
    // Typing again clears the message.
    await phone.pressSequentially('1');
    expect(await page.getByText(hint).count()).toBe(0);
    expect(calls).toBe(0);

    // Written with the dial code and separators, it searches the 10 digits.
    await phone.fill('+91 98765-43210');
    const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
    await page.getByRole('button', { name: messages.search.submit, exact: true }).click();
    const response = await answer;
    expect(new URL(response.url()).searchParams.get('number')).toBe('919876543210');
    expect(response.status()).toBe(200);
    await page.waitForURL('**/results');
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('credit report without credit history', () => {
  it('says so once, stays on the form and charges nothing', async () => {
    const page = await signedInPage('/corporate', 'no-history');
    await page.getByRole('combobox', { name: 'Search type' }).selectOption('credit_report');
    await page.getByLabel('Mobile', { exact: true }).fill('9876543210');
    // The sandbox's PAN without credit history (apps/server/src/sandbox/providers/intel-common.ts).
    await page.getByLabel('PAN', { exact: true }).fill('ZZZPZ9999Z');
    await page.getByLabel('Name', { exact: true }).fill('Rohan Suresh Deshmukh');
    await page.getByRole('radio', { name: 'Male', exact: true }).check();
    await page.getByRole('checkbox', { name: /consent/i }).check();

    const answer = page.waitForResponse((res) => res.url().endsWith('/api/corporate-intelligence'));
    await page.getByRole('button', { name: 'Download Report', exact: true }).click();
    const response = await answer;
    expect(response.status()).toBe(422);
    const body = (await response.json()) as { credits: number };
    expect(body.credits).toBe(100);

    await toasts(page).first().waitFor();
    // Give any further toast or navigation the time to show: there is none.
    await page.waitForTimeout(1_000);
    expect(await toasts(page).allTextContents()).toEqual([
      `${messages.creditReport.noHistory}${messages.intelPages.creditsRemaining(100)}`,
    ]);
    expect(new URL(page.url()).pathname).toBe('/corporate');
    expect(await page.getByLabel('PAN', { exact: true }).inputValue()).toBe('ZZZPZ9999Z');
    expect(await page.getByText('Credits: 100', { exact: true }).count()).toBeGreaterThan(0);
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('OTP resend inside the cooldown', () => {
  it("shows the server's wait and counts it down on a disabled button", async () => {
    const { email, password } = await newOfficer('otp-cooldown');
    const page = await browser.newPage();
    await page.clock.install();
    await page.goto('/login');
    await page.getByLabel(messages.authPages.email).fill(email);
    await page.getByLabel(messages.authPages.password, { exact: true }).fill(password);
    await page.getByRole('button', { name: messages.authPages.login.submit, exact: true }).click();
    await page.waitForURL('**/otp-verification');

    // The code runs out in the browser long before the server's resend cooldown does.
    await page.clock.fastForward('10:05');
    const resend = page.getByRole('button', { name: new RegExp(`^${messages.otp.resend}`) });
    await resend.waitFor();
    const answer = page.waitForResponse((res) => res.url().endsWith('/api/resend-otp'));
    await resend.click();
    const response = await answer;
    expect(response.status()).toBe(429);
    const body = (await response.json()) as { message: string; retry_after: number };
    expect(body.retry_after).toBeGreaterThan(5);
    expect(body.message).toBe(messages.otp.cooldown(body.retry_after));

    await toast(page, body.message).waitFor();
    expect(await toast(page, messages.otp.resendFailed).count()).toBe(0);
    expect(await resend.isDisabled()).toBe(true);
    const label = async () => (await resend.textContent())?.trim() ?? '';
    const shown = secondsOf(await label());
    expect(Math.abs(shown - body.retry_after)).toBeLessThanOrEqual(1);

    // The countdown runs with the clock, and the button comes back when the wait is over.
    await page.clock.fastForward(3_000);
    await expect.poll(label).toBe(messages.otp.resendIn(mmss(shown - 3)));
    expect(await resend.isDisabled()).toBe(true);
    await page.clock.fastForward((shown - 2) * 1_000);
    await expect.poll(label).toBe(messages.otp.resend);
    expect(await resend.isDisabled()).toBe(false);
    expect(problemsOf(page)).toEqual([]);
  });
});
