// Second factors end to end, on a server of its own at http://localhost (a WebAuthn relying party
// needs a host name, not an IP address): set up an authenticator app on the Security page and sign in
// with its code (computed here with the same library an app would use), then add a passkey held by
// Chromium's virtual authenticator (CDP WebAuthn domain) and sign in with it.
import { TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, dismissToasts, screenPicture, settle, viewports } from '../support/a11y.ts';
import { api, otpFrom, waitForMail } from '../support/api.ts';
import { picture, problemsOf, uniqueEmail, useBrowser } from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

const browser = useBrowser();
let server: RunningServer;
let base: string;

beforeAll(async () => {
  server = await startProductServer({ SANDBOX_LEAK_RECORDS: '0' }, { publicHost: 'localhost' });
  base = server.publicUrl;
});
afterAll(async () => {
  await server?.stop();
});

const password = 'a long passphrase';

async function register(prefix: string) {
  const email = uniqueEmail(prefix);
  const res = await api(
    '/api/register',
    { body: { name: 'Officer Second', email, password, password_confirmation: password } },
    server.url,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return email;
}

async function fillLogin(page: Page, email: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** The first sign-in of a browser: password, then the mailed code. */
async function signInWithMailedCode(page: Page, email: string) {
  const since = new Date(Date.now() - 1000);
  await fillLogin(page, email);
  await page.waitForURL('**/otp-verification');
  const code = otpFrom(await waitForMail(email, /verification code/, since, server.url));
  for (const [i, digit] of [...code].entries()) await page.getByLabel(`Digit ${i + 1} of 6`).press(digit);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

async function openSecurity(page: Page) {
  await page.getByRole('button', { name: /^Profile: / }).click();
  // The profile menu's link (the sidebar lists the same page).
  await page.getByRole('banner').getByRole('link', { name: 'Security' }).click();
  await page.waitForURL('**/security');
  await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
}

async function logout(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL(`${base}/`);
}

/** The Security page at both sizes: a picture of each and no serious accessibility problem. */
async function lookAtSecurity(page: Page) {
  for (const size of ['desktop', 'mobile'] as const) {
    await page.setViewportSize(viewports[size]);
    await dismissToasts(page);
    await settle(page);
    await picture(page, screenPicture('security', size), { fullPage: true });
    expect(await axeProblems(page, `security-${size}`)).toEqual([]);
  }
  await page.setViewportSize(viewports.desktop);
}

describe('second factors', () => {
  it('sets up an authenticator app from its QR code and signs in with a code from it', async () => {
    const email = await register('totp');
    const page = await browser.newPage(viewports.desktop);
    await signInWithMailedCode(page, email);
    await openSecurity(page);

    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    const qr = page.getByRole('img', { name: 'QR code for the authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    const app = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
    await page.getByLabel('Code from the app').fill(app.generate());
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();

    const codes = page.getByRole('dialog', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText(/^On since /).waitFor();
    await page.getByText('10 unused recovery codes left.').waitFor();
    await lookAtSecurity(page);
    await logout(page);

    // Next sign-in: the password, then the app's code (the next step's: the one used above is spent).
    await fillLogin(page, email);
    await page.waitForURL('**/two-step-verification');
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    for (const size of ['desktop', 'mobile'] as const) {
      await page.setViewportSize(viewports[size]);
      await settle(page);
      await picture(page, screenPicture('two-step-verification', size));
      expect(await axeProblems(page, `two-step-verification-${size}`)).toEqual([]);
    }
    await page.setViewportSize(viewports.desktop);
    await page.getByLabel('Code from your authenticator app').fill('000000');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /incorrect|already used/ })
      .waitFor();
    await page
      .getByLabel('Code from your authenticator app')
      .fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL('**/dashboard');
    expect(problemsOf(page)).toEqual([]);
  });

  it('adds a passkey held by a virtual authenticator and signs in with it', async () => {
    const email = await register('passkey');
    const page = await browser.newPage(viewports.desktop);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });

    await signInWithMailedCode(page, email);
    await openSecurity(page);
    await page.getByLabel('Passkey name').fill('Virtual laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const codes = page.getByRole('dialog', { name: 'Recovery codes' });
    await codes.waitFor();
    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('list', { name: 'Passkeys' }).getByText('Virtual laptop').waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.rpId).toBe('localhost');

    // Rename it.
    await page.getByRole('button', { name: 'Rename Virtual laptop' }).click();
    await page.getByRole('textbox', { name: 'Passkey name' }).first().fill('Desk laptop');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('list', { name: 'Passkeys' }).getByText('Desk laptop').waitFor();
    await logout(page);

    await fillLogin(page, email);
    await page.waitForURL('**/two-step-verification');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL('**/dashboard');
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(0);
    expect(problemsOf(page)).toEqual([]);
  });
});
