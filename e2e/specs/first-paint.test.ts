import { messages } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { apiSignIn, demoPassword } from '../support/api.ts';
import { holdRequests, storeSession, useBrowser } from '../support/browser.ts';

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

describe('prerendered frame of the signed-in pages', () => {
  /** The frame scripts/prerender.ts writes for a signed-in path (app/layouts/main/LayoutSkeleton.tsx). */
  const frame = '#root > [aria-busy="true"]';

  it.each(['/dashboard', '/results'])(
    '%s arrives as the frame and a spinner, brotli-compressed, shown without any script',
    async (path) => {
      const raw = await fetch(new URL(path, browser.baseURL), { headers: { 'accept-encoding': 'br' } });
      const html = await raw.text();
      expect(raw.headers.get('content-type')).toMatch(/text\/html/);
      expect(raw.headers.get('content-encoding')).toBe('br');
      expect(html).toContain('<div id="root" data-shell="">');
      expect(html).toContain('aria-busy="true"');
      expect(html).toContain(`<span class="sr-only">${messages.layout.loading}</span>`);
      // Strict CSP: no inline script or style, only the boot file.
      expect(html.match(/<script\b[^>]*>/g)).toEqual([
        expect.stringMatching(/^<script defer src="\/boot\.js"/),
      ]);
      expect(html).not.toMatch(/<style\b|\sstyle="/);
      // Nobody's data: it is the same page for every visitor.
      expect(html).not.toContain('Credits');

      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const page = await browser.newPage(viewport);
        await page.route('**/*.js', (route) => route.abort());
        await page.goto(path);
        await page.getByRole('status').filter({ hasText: messages.layout.loading }).waitFor();
        expect(await page.locator(frame).isVisible()).toBe(true);
        // Nothing in the frame can be focused or pressed before the app is there.
        expect(await page.locator('#root :is(a, button, input, [tabindex])').count()).toBe(0);
      }
    },
  );

  it('the app draws the frame again while the user loads, then the page, and nothing moves', async () => {
    const token = await apiSignIn('demo-live@footprint.test', demoPassword);
    const page = await browser.newPage({ width: 390, height: 844 });
    await storeSession(page, token);
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const release = await holdRequests(page, '**/api/user');
    const asked = page.waitForRequest('**/api/user');
    await page.goto('/dashboard');
    // The app is running (it asked for the user) and shows the prerendered frame, not its own spinner.
    await asked;
    await page.getByRole('status').filter({ hasText: messages.layout.loading }).waitFor();
    expect(await page.locator(frame).count()).toBe(1);
    release();
    await page.getByRole('button', { name: messages.layout.openMenu }).waitFor();
    await page.getByRole('textbox').first().waitFor();
    expect(await page.locator(frame).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
    await page.unrouteAll();
  });

  it.each(['/dashboard', '/results'])('a signed-out visit of %s still ends at /login', async (path) => {
    const page = await browser.newPage();
    await page.goto(path);
    await page.waitForURL('**/login');
    await page.getByRole('heading', { level: 1, name: messages.authPages.login.title }).waitFor();
  });

  it('every other path gets the router’s spinner, drawn without any script', async () => {
    const raw = await fetch(new URL('/cases/00000000-0000-0000-0000-000000000000', browser.baseURL));
    const html = await raw.text();
    expect(html).toContain('role="status"');
    expect(html).not.toContain('data-shell');
    expect(html.match(/<script\b[^>]*>/g)).toEqual([
      expect.stringMatching(/^<script defer src="\/boot\.js"/),
    ]);
  });

  it('starts the app on every other path without waiting for a paint a spinner never makes', async () => {
    // A spinner is no contentful paint: had boot.js waited for one, the app would start only at its
    // 3 s deadline after the load event.
    const page = await browser.newPage();
    await page.goto('/privacy');
    await page.getByRole('heading', { name: /^1\./ }).first().waitFor();
    const { entryAt, loadAt } = await page.evaluate(() => {
      const entry = performance
        .getEntriesByType('resource')
        .find((r) => /\/assets\/index-[^/]+\.js$/.test(new URL(r.name).pathname));
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { entryAt: entry?.startTime ?? Number.POSITIVE_INFINITY, loadAt: navigation.loadEventStart };
    });
    expect(entryAt).toBeLessThan(loadAt + 1_500);
    await page.close();
  });
});
