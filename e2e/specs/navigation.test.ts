import { describe, expect, it } from 'vitest';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, useBrowser } from '../support/browser.ts';

const browser = useBrowser();

/** Puts a real session into the browser's storage, as a successful login would. */
async function signedInPage(email: string) {
  const token = await apiSignIn(email, demoPassword);
  const page = await browser.newPage();
  await storeSession(page, token);
  return { page, token };
}

describe('public pages', () => {
  it('renders the landing page with the side navigation and footer', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await page.getByText('FIND YOUR DIGITAL FOOTPRINT').first().waitFor();
    const nav = page.getByRole('navigation').first();
    for (const entry of ['HOME', 'LOGIN', 'WHO', 'PRIVACY', 'CONTACT']) {
      await nav.getByRole('link', { name: entry, exact: true }).waitFor();
    }
    expect(await nav.getByRole('link', { name: 'HOME', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    await nav.getByRole('link', { name: 'WHO', exact: true }).click();
    await page.waitForURL('**/about');
    await page.getByRole('heading', { name: 'ABOUT US' }).waitFor();
    expect(await nav.getByRole('link', { name: 'WHO', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    for (const [label, path] of [
      ['Support', '/contact-us'],
      ['Company', '/about'],
      ['Terms', '/terms-conditions'],
      ['Refund', '/refund-policy'],
    ]) {
      expect(
        await page
          .getByRole('contentinfo')
          .getByRole('link', { name: label, exact: true })
          .getAttribute('href'),
      ).toBe(path);
    }
    expect(problemsOf(page)).toEqual([]);
  });

  it('shows the policy pages with their sections', async () => {
    const page = await browser.newPage();
    await page.goto('/privacy');
    for (let i = 1; i <= 8; i++)
      await page
        .getByRole('heading', { name: new RegExp(`^${i}\\.`) })
        .first()
        .waitFor();
    await page.goto('/refund-policy');
    for (const heading of ['Refund Policy', 'No Returns or Refunds', 'Non-Transferable', 'Need Help']) {
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
    await page.goto('/contact-us');
    await page.getByRole('heading', { name: 'CONTACT US' }).waitFor();
    await page.goto('/terms-conditions');
    await page
      .getByText(/Gandhinagar, Gujarat/)
      .first()
      .waitFor();
    await page.goto('/pricing');
    expect(await page.getByText('404 - Page Not Found').count()).toBe(0);
  });

  it('shows the 404 page for an unknown path, with a way back home', async () => {
    const page = await browser.newPage();
    const res = await page.goto('/no/such/page');
    expect(res?.status()).toBe(200);
    await page.getByText('404 - Page Not Found').waitFor();
    await page.getByText("The page you are looking for doesn't exist or has been moved.").waitFor();
    await screenshot(page, 'not-found-desktop');
    await page
      .getByRole('link', { name: /back|home/i })
      .or(page.getByRole('button', { name: /back|home/i }))
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});

describe('guards', () => {
  it('sends a visitor without a session from signed-in pages to /login', async () => {
    const page = await browser.newPage();
    for (const path of ['/dashboard', '/leak-data-finder', '/corporate', '/results', '/help']) {
      await page.goto(path);
      await page.waitForURL('**/login');
    }
  });

  it('sends a signed-in user away from guest-only pages to /dashboard', async () => {
    const { page } = await signedInPage('demo-live@footprint.test');
    for (const path of ['/login', '/register', '/forgot-password']) {
      await page.goto(path);
      await page.waitForURL('**/dashboard');
    }
    await page.getByText('Credits: 500').waitFor();
    await screenshot(page, 'dashboard-desktop');
  });

  it('applies the 401 rule once: token cleared, toast, back to /login', async () => {
    const { page, token } = await signedInPage('demo-live@footprint.test');
    await page.goto('/dashboard');
    await page.getByText('Credits: 500').waitFor();
    // The session dies on the server while the page is open.
    expect((await api('/api/logout', { method: 'POST', token })).status).toBe(200);
    await page.reload();
    await page.waitForURL('**/login');
    await page.getByText('Session expired. Please log in again.').first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('token_expiry'))).toBeNull();
  });

  it('logs out when the stored expiry has passed', async () => {
    const { page } = await signedInPage('demo-live@footprint.test');
    await page.clock.install();
    await page.goto('/dashboard');
    await page.getByText('Credits: 500').waitFor();
    await page.evaluate(() =>
      localStorage.setItem('token_expiry', new Date(Date.now() - 1000).toISOString()),
    );
    await page.clock.runFor(61_000);
    await page.getByText('Session expired. Please log in again.').first().waitFor();
    await page.waitForURL((url) => url.pathname === '/login' || url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });
});

describe('main layout', () => {
  it('shows every sidebar item and hides it on mobile behind the menu button', async () => {
    const { page } = await signedInPage('demo-live@footprint.test');
    await page.goto('/dashboard');
    const sidebar = page.getByRole('navigation', { name: 'Main' }).first();
    for (const item of [
      'Email Search',
      'Phone Search',
      'Leak Data Finder',
      'Corporate Intelligence',
      'Verified ID',
      'Logout',
      'Help',
    ]) {
      await sidebar.getByText(item, { exact: true }).waitFor();
    }
    await page
      .getByText(new RegExp(`${new Date().getFullYear()}.*All rights reserved`))
      .first()
      .waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    await screenshot(page, 'sidebar-mobile');
    await page.getByRole('button', { name: 'Close menu' }).click();
  });
});
