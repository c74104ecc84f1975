import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type A11yProblem, expectAccessible, hasFocus, tabTo, viewports } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword, otpFrom, waitForMail } from '../support/api.ts';
import { problemsOf, useBrowser } from '../support/browser.ts';
import { activeLabel, focusInside, heading1, look, SCREEN_TOUR_MS, tourPages } from '../support/screens.ts';
import { changingSettings } from '../support/settings.ts';

/**
 * The public and sign-in screens of the product at 1440×900 and 390×844 (the screen tours are three
 * files: this one, screens-signed-in and screens-keyboard). Each is saved as
 * docs/screenshots/screen-<name>-<desktop|mobile>.png and checked with axe-core (WCAG 2.0, 2.1 and 2.2,
 * A and AA): no violation. The keyboard alone works the OTP boxes and the public menu on a phone.
 * demo-trial signs in through the OTP screen, and its page then sees /upgrade. E2E_TIMINGS=1 prints how
 * long each look took (settling, axe, picture).
 */

const browser = useBrowser();
const { newPage, pageAs } = tourPages(browser);

let adminToken: string;
let registrationBefore: unknown;

beforeAll(async () => {
  adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword);
  registrationBefore = (await api('/api/admin/settings', { token: adminToken })).body.registration_enabled;
});

afterAll(async () => {
  // The settings are deployment-wide and the e2e server is shared: leave them as found.
  if (adminToken && registrationBefore !== undefined) {
    await api('/api/admin/settings', {
      method: 'PATCH',
      token: adminToken,
      body: { registration_enabled: registrationBefore },
    });
  }
});

describe('public screens', { timeout: SCREEN_TOUR_MS }, () => {
  it('marketing and policy pages, a placeholder and the 404', async () => {
    const page = await newPage();
    const found: A11yProblem[] = [];
    const screens: Array<[name: string, path: string]> = [
      ['home', '/'],
      ['about', '/about'],
      ['contact', '/contact-us'],
      ['privacy', '/privacy'],
      ['terms', '/terms-conditions'],
      ['refund', '/refund-policy'],
      ['attributions', '/attributions'],
      ['placeholder', '/pricing'],
      ['not-found', '/no/such/page'],
    ];
    for (const [name, path] of screens) {
      await page.goto(path);
      await page.getByRole('navigation').first().waitFor();
      if (name === 'not-found') await page.getByText('404 - Page Not Found').waitFor();
      if (name === 'attributions') {
        // The notices of both site lists, with their licence texts as the server ships them.
        await page.getByRole('heading', { name: 'Maigret', level: 2 }).waitFor();
        await page.getByRole('heading', { name: 'Sherlock', level: 2 }).waitFor();
        expect(await page.getByText(/Permission is hereby granted, free of charge/).count()).toBe(2);
        expect(
          await page
            .getByRole('contentinfo')
            .getByRole('link', { name: 'Attributions' })
            .getAttribute('href'),
        ).toBe('/attributions');
      }
      found.push(...(await look(page, name)));
    }
    // The public menu on a phone.
    await page.goto('/');
    found.push(
      ...(await look(page, 'public-menu', {
        sizes: ['mobile'],
        whole: false,
        scope: '#public-nav-panel',
        atSize: async () => {
          await page.getByRole('button', { name: 'Menu', exact: true }).click();
          await page.getByRole('button', { name: 'Close menu' }).waitFor();
        },
      })),
    );
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });

  it('sign-in, registration and password screens', async () => {
    const page = await newPage();
    const found: A11yProblem[] = [];
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    found.push(...(await look(page, 'login')));
    await page.goto('/register');
    await page.getByRole('button', { name: 'Register', exact: true }).waitFor();
    found.push(...(await look(page, 'register')));
    await page.goto('/forgot-password');
    await page.getByRole('button', { name: 'Submit', exact: true }).waitFor();
    found.push(...(await look(page, 'forgot-password')));
    await page.goto(
      `/password-reset/${'a'.repeat(64)}?email=${encodeURIComponent('demo-live@footprint.test')}`,
    );
    await page.getByLabel('Confirm password', { exact: true }).waitFor();
    found.push(...(await look(page, 'password-reset')));

    // Registration closed by the admin: the 403 page.
    await changingSettings(async () => {
      const closed = await api('/api/admin/settings', {
        method: 'PATCH',
        token: adminToken,
        body: { registration_enabled: false },
      });
      expect(closed.status).toBe(200);
      try {
        await page.goto('/register');
        await page.getByText('Registration is currently disabled.').waitFor();
        found.push(...(await look(page, 'register-disabled')));
      } finally {
        await api('/api/admin/settings', {
          method: 'PATCH',
          token: adminToken,
          body: { registration_enabled: registrationBefore },
        });
      }
    });
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });
});

/** demo-trial's page, signed in through the OTP screen by the keyboard test below. */
let trialPage: Page | undefined;

describe('OTP screen', { timeout: SCREEN_TOUR_MS }, () => {
  it('looks right, and its boxes work from the keyboard: type, backspace, arrows, paste, Enter', async () => {
    const page = await newPage(true);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const email = 'demo-trial@footprint.test';
    const since = new Date(Date.now() - 1000);
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(demoPassword);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL('**/otp-verification');
    const box = (n: number) => page.getByLabel(`Digit ${n} of 6`);
    await box(1).waitFor();
    const found = await look(page, 'otp-verification');
    const code = otpFrom(await waitForMail(email, /verification code/, since));

    const values = () => Promise.all([1, 2, 3, 4, 5, 6].map((n) => box(n).inputValue()));
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    // The first box has the focus; typing moves on box by box.
    await box(1).focus();
    await page.keyboard.type('1234');
    expect(await values()).toEqual(['1', '2', '3', '4', '', '']);
    expect(await focused()).toBe('Digit 5 of 6');
    // Backspace in an empty box clears the one before and moves there; in a full box it clears it.
    await page.keyboard.press('Backspace');
    expect(await values()).toEqual(['1', '2', '3', '', '', '']);
    expect(await focused()).toBe('Digit 4 of 6');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('Digit 3 of 6');
    await page.keyboard.press('Backspace');
    expect(await values()).toEqual(['1', '2', '', '', '', '']);
    expect(await focused()).toBe('Digit 3 of 6');
    // Typing over a box replaces its digit.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('9');
    expect(await values()).toEqual(['1', '9', '', '', '', '']);
    expect(await focused()).toBe('Digit 3 of 6');
    // Letters are refused.
    await page.keyboard.type('x');
    expect(await values()).toEqual(['1', '9', '', '', '', '']);
    // Pasting the whole code (with spaces, as mail clients copy it) fills every box.
    await page.evaluate(
      (text) => navigator.clipboard.writeText(text),
      ` ${code.slice(0, 3)} ${code.slice(3)} `,
    );
    await page.keyboard.press('ControlOrMeta+V');
    expect(await values()).toEqual([...code]);
    expect(await focused()).toBe('Digit 6 of 6');
    // Tab reaches Verify; Enter sends the code.
    await tabTo(page, page.getByRole('button', { name: 'Verify', exact: true }), { limit: 3 });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    // The particle field of /login, loading while the page moved on, left nothing behind in <body>.
    expect(await page.locator('body > canvas').count()).toBe(0);
    trialPage = page;
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('signed-in screens', { timeout: SCREEN_TOUR_MS }, () => {
  it('upgrade notice for a trial account', async () => {
    const page =
      trialPage ?? (await pageAs(await apiSignIn('demo-trial@footprint.test', demoPassword), '/dashboard'));
    await page.goto('/corporate');
    await page.waitForURL('**/upgrade');
    await heading1(page, 'Not Availabe for trial').waitFor();
    expectAccessible(await look(page, 'upgrade'));
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('keyboard alone', { timeout: SCREEN_TOUR_MS }, () => {
  it('the public menu on a phone: Enter opens it on the current page, Tab past its end or Escape closes it', async () => {
    const page = await newPage();
    await page.setViewportSize(viewports.mobile);
    await page.goto('/about');
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await tabTo(page, menu, { limit: 4 });
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await activeLabel(page)).toBe('WHO');
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await hasFocus(menu)).toBe(true);
    // Open again; Tab runs through the links and, past the last, closes the menu behind it.
    await page.keyboard.press('Enter');
    const contact = page.locator('#public-nav-panel').getByRole('link', { name: 'CONTACT' });
    await tabTo(page, contact, { limit: 6 });
    await page.keyboard.press('Tab');
    expect(await focusInside(page, '#public-nav-panel')).toBe(false);
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    // A link chosen with Enter goes there.
    await menu.focus();
    await page.keyboard.press('Enter');
    await tabTo(page, contact, { limit: 6 });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/contact-us');
    expect(problemsOf(page)).toEqual([]);
  });
});
