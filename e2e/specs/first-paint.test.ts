import { messages } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { apiSignIn, demoPassword } from '../support/api.ts';
import { storeSession, useBrowser } from '../support/browser.ts';

const browser = useBrowser();

/** The app has taken the prerendered markup's place (main.tsx lifts `inert` at its first commit). */
const live = (page: Awaited<ReturnType<typeof browser.newPage>>) =>
  page.waitForFunction(() => !document.getElementById('root')?.hasAttribute('inert'));

describe('prerendered first paint of / and /login', () => {
  it.each([
    ['/', messages.taglines.proactive],
    ['/login', messages.authPages.login.title],
  ])('%s arrives drawn: its heading is in the HTML, shown without any script', async (path, heading) => {
    const raw = await fetch(new URL(path, browser.baseURL));
    const html = await raw.text();
    expect(raw.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('data-prerendered');
    expect(html).toContain(heading);
    // Strict CSP: no inline script, only the boot file.
    expect(html.match(/<script\b[^>]*>/g)).toEqual([
      expect.stringMatching(/^<script defer src="\/boot\.js"/),
    ]);

    const page = await browser.newPage({ width: 390, height: 844 });
    await page.route('**/*.js', (route) => route.abort());
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    // Without the app nothing in the page can be used yet.
    expect(await page.locator('#root').getAttribute('inert')).toBe('');
  });

  it('the app takes over /login: what is typed stays, the form signs in', async () => {
    const page = await browser.newPage();
    await page.goto('/login');
    // Filled as soon as the test can: the prerendered fields are read-only, so this waits for the app's.
    await page.getByLabel('Email').fill('demo-live@footprint.test');
    await page.getByLabel('Password', { exact: true }).fill(demoPassword);
    expect(await page.getByLabel('Email').inputValue()).toBe('demo-live@footprint.test');
    expect(await page.locator('#root').getAttribute('inert')).toBeNull();
    await page.getByRole('button', { name: messages.authPages.login.submit, exact: true }).click();
    // A new browser: the device is confirmed by e-mail first.
    await page.waitForURL(/\/(otp-verification|dashboard)$/);
  });

  it('the prerendered / becomes the live page: its title, one heading, the navigation', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await live(page);
    expect(await page.title()).toBe(`${messages.brand} — ${messages.taglines.footprint}`);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const nav = page.getByRole('navigation').first();
    expect(await nav.getByRole('link', { name: 'HOME', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    await nav.getByRole('link', { name: 'WHO', exact: true }).click();
    await page.waitForURL('**/about');
    await page.getByRole('heading', { name: 'ABOUT US' }).waitFor();
  });

  it('a signed-in visitor opening the prerendered /login still goes to the dashboard', async () => {
    const token = await apiSignIn('demo-live@footprint.test', demoPassword);
    const page = await browser.newPage();
    await storeSession(page, token);
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    await live(page);
  });
});
