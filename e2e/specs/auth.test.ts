import { messages } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeProblems, screenPicture, settle, viewports } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword, otpFrom, waitForMail } from '../support/api.ts';
import { picture, problemsOf, screenshot, uniqueEmail, useBrowser } from '../support/browser.ts';
import { changingSettings } from '../support/settings.ts';

const browser = useBrowser();

async function fillLogin(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

async function enterOtp(page: Page, code: string) {
  for (const [i, digit] of [...code].entries()) {
    await page.getByLabel(`Digit ${i + 1} of 6`).press(digit);
  }
}

describe('sign-up, new-device sign-in and sign-out', () => {
  it('registers, signs in from a new device with the mailed OTP, reaches the dashboard and logs out', async () => {
    const page = await browser.newPage();
    const email = uniqueEmail('newcomer');

    await page.goto('/register');
    await page.getByLabel('Name').fill('Meera Investigator');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a long passphrase');
    await page.getByLabel('Confirm password', { exact: true }).fill('a long passphrase');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText('Registration successful! Please log in.').waitFor();
    await page.waitForURL('**/login');

    const since = new Date(Date.now() - 1000);
    await fillLogin(page, email, 'a long passphrase');
    await page.waitForURL('**/otp-verification');
    await page.getByText('Verify Your Email').waitFor();
    await page.getByText(`Enter the 6-digit OTP sent to: ${email}`).waitFor();
    await expect.poll(() => page.getByText(/OTP expires in: \d{2}:\d{2}/).count()).toBe(1);
    await screenshot(page, 'otp-verification-desktop');

    const code = otpFrom(await waitForMail(email, /verification code/, since));
    await enterOtp(page, code);
    // Typing advanced focus box by box: the last box holds the last digit.
    expect(await page.getByLabel('Digit 6 of 6').inputValue()).toBe(code[5]);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Credits: 20').waitFor();
    // The accepted code takes the "code sent" toast away: it does not cover the dashboard.
    await expect
      .poll(
        () =>
          page
            .locator('.Toastify__toast')
            .filter({ hasText: /sent to your email/ })
            .count(),
        {
          timeout: 5_000,
        },
      )
      .toBe(0);

    // The device is trusted now: the next sign-in from this browser needs no code.
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('auth_token'),
      expiry: localStorage.getItem('token_expiry'),
      device: localStorage.getItem('device_id'),
    }));
    expect(stored.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(stored.expiry!).getTime()).toBeGreaterThan(Date.now());
    expect(stored.device).toMatch(/^[0-9a-f-]{36}$/);

    const profile = page.getByRole('button', { name: /Profile/ });
    await profile.click();
    const menu = page.locator(`[id="${await profile.getAttribute('aria-controls')}"]`);
    await menu.getByText(email).waitFor();
    await menu.getByText('Meera Investigator').waitFor();
    await screenshot(page, 'dashboard-profile-menu-desktop');
    await menu.getByRole('button', { name: 'Logout' }).click();
    await page.getByText('Logging out...').first().waitFor();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 10_000 });
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    // The token is dead on the server too.
    expect((await api('/api/user', { token: stored.token! })).status).toBe(401);

    await fillLogin(page, email, 'a long passphrase');
    await page.waitForURL('**/dashboard');
    expect(problemsOf(page)).toEqual([]);
  });

  it('shows the server field errors and the toast on a failed login', async () => {
    const page = await browser.newPage();
    await fillLogin(page, 'demo-live@footprint.test', 'wrong password');
    await page.getByText('Login failed. Please check your credentials.').waitFor();
    await page.getByText('These credentials do not match our records.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-error-desktop');
  });

  it('rejects an OTP that is not six digits without calling the server', async () => {
    const page = await browser.newPage();
    await fillLogin(page, 'demo-trial@footprint.test', demoPassword);
    await page.waitForURL('**/otp-verification');
    await enterOtp(page, '123');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.getByText('Invalid OTP value').waitFor();
    await page.getByLabel('Digit 4 of 6').focus();
    // Backspace from the empty fourth box moves back through the boxes, clearing them.
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Digit 2 of 6',
    );
    expect(await page.getByLabel('Digit 3 of 6').inputValue()).toBe('');
    expect(await page.getByLabel('Digit 2 of 6').inputValue()).toBe('');
    expect(await page.getByLabel('Digit 1 of 6').inputValue()).toBe('1');
  });
});

describe('the password strength meter', () => {
  it('says in words how strong a new password is, announces it politely, and is accessible at both sizes', async () => {
    const page = await browser.newPage();
    await page.goto('/register');
    const meter = page.getByTestId('password-strength');
    await meter.getByText(messages.passwordRules.hint).waitFor();
    const status = meter.locator('[aria-live="polite"]');
    expect(await status.count()).toBe(1);

    const password = page.getByLabel('Password', { exact: true });
    await password.fill('password1234');
    await expect.poll(() => status.textContent()).toBe(`${messages.passwordRules.strengthLabel}: Weak`);
    // Short ones never read better than very weak: the server needs 12 characters.
    await password.fill('Zq!8r#Lm2');
    await expect.poll(() => status.textContent()).toBe(`${messages.passwordRules.strengthLabel}: Very weak`);
    await password.fill('violet tractor humming quietly');
    await expect
      .poll(() => status.textContent())
      .toBe(`${messages.passwordRules.strengthLabel}: Very strong`);

    for (const size of ['desktop', 'mobile'] as const) {
      await page.setViewportSize(viewports[size]);
      await settle(page);
      expect(await axeProblems(page, `register-strength-${size}`)).toEqual([]);
      await picture(page, screenPicture('register-strength', size), { fullPage: true });
    }

    // The server refuses a common password even when the meter was ignored.
    await page.setViewportSize(viewports.desktop);
    await page.getByLabel('Name').fill('Strength Tester');
    await page.getByLabel('Email').fill(uniqueEmail('strength'));
    await password.fill('password1234');
    await page.getByLabel('Confirm password', { exact: true }).fill('password1234');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText(messages.passwordRules.common).waitFor();
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('password reset', () => {
  it('sends the link, resets the password and lets the new one in', async () => {
    const email = uniqueEmail('forgetful');
    const created = await api('/api/register', {
      body: {
        name: 'Arjun Forgetful',
        email,
        password: 'original secret',
        password_confirmation: 'original secret',
      },
    });
    expect(created.status).toBe(201);
    const page = await browser.newPage();
    const since = new Date(Date.now() - 1000);
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Password reset link sent successfully!').waitFor();

    const mail = await waitForMail(email, /Reset your Footprint password/, since);
    const link = /(http:\/\/\S+\/password-reset\/\S+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();
    await page.goto(link!);
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByLabel('New password', { exact: true }).fill('replacement secret');
    await page.getByLabel('Confirm password', { exact: true }).fill('replacement secret');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Your password has been reset! And Click the Back to redirect to login').waitFor();
    await page
      .getByRole('link', { name: /back to login/i })
      .first()
      .click();
    await page.waitForURL('**/login');

    await fillLogin(page, email, 'original secret');
    await page.getByText('These credentials do not match our records.').waitFor();
    await fillLogin(page, email, 'replacement secret');
    await page.waitForURL('**/otp-verification');
  });

  it('shows the password errors of a mismatched reset', async () => {
    const page = await browser.newPage();
    await page.goto('/password-reset/some-token?email=someone%40example.test');
    await page.getByLabel('New password', { exact: true }).fill('first secret');
    await page.getByLabel('Confirm password', { exact: true }).fill('second secret');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect
      .poll(() => page.getByText(/confirmation does not match|do not match/i).count())
      .toBeGreaterThan(0);
  });
});

describe('registration switched off', () => {
  it('replaces the form with the 403 page while an admin has registration disabled', async () => {
    const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
    await changingSettings(async () => {
      const off = await api('/api/admin/settings', {
        method: 'PATCH',
        body: { registration_enabled: false },
        token: admin,
      });
      expect(off.status).toBe(200);
      try {
        const page = await browser.newPage();
        await page.goto('/register');
        await page.getByText('Forbidden').first().waitFor();
        await page.getByText('Registration is currently disabled.').waitFor();
        await screenshot(page, 'register-disabled-desktop');
        await page
          .getByRole('button', { name: 'Go Back Home' })
          .or(page.getByRole('link', { name: 'Go Back Home' }))
          .click();
        await page.waitForURL((url) => url.pathname === '/');
      } finally {
        await api('/api/admin/settings', {
          method: 'PATCH',
          body: { registration_enabled: true },
          token: admin,
        });
      }
    });
  });
});
