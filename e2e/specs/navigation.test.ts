import { messages } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type A11yProblem, axeLoadedPage, expectAccessible } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { checkedBy } from '../support/axe-owners.ts';
import { openInApp, problemsOf, screenshot, storeSession, useBrowser } from '../support/browser.ts';

// Its tests sign in afresh on a page of their own; the contexts they leave are reused (support/browser.ts).
const browser = useBrowser({ reuseContexts: true });

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
    // Read once the redirect's document is the page's (a read while it replaces the last one is lost).
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('auth_token')).catch(() => 'navigating'))
      .toBeNull();
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

describe('navigation for every signed-in page', () => {
  const desktop = { width: 1280, height: 800 };
  const phone = { width: 390, height: 844 };
  /**
   * The admin's tour checks with axe, on a phone and on this laptop screen, the pages of the menu that
   * no other spec checks in the admin's state (support/axe-owners.ts): their own, often empty, lists.
   * The others (the search forms, the dashboard, the admin's users, help) are checked by screens-signed-in.test.ts.
   */
  const auditedDesktop = { width: 1366, height: 900 };
  /** The approvals page's menu entry and heading. */
  const approvals = 'Approvals';
  const audited = checkedBy('navigation.test.ts');
  const AUDITED_TOUR_MS = 150_000;

  /** A menu entry, the path it lands on, and the page's main heading where it has its own. */
  interface Entry {
    label: string;
    path: string;
    heading?: string;
  }
  const spec: Entry[] = [
    { label: messages.mainNav.leakFinder, path: '/leak-data-finder' },
    { label: messages.mainNav.corporate, path: '/corporate' },
    { label: messages.mainNav.verifiedId, path: '/verification-id' },
  ];
  const everyone: Entry[] = [
    { label: messages.cases.menuLink, path: '/cases', heading: messages.cases.title },
    { label: messages.history.menuLink, path: '/history', heading: messages.history.title },
    { label: messages.reviewsPage.menuLink, path: '/reviews', heading: messages.reviewsPage.title },
    // The approvals page's words are the web app's own (apps/web/src/lib/approval-texts.ts).
    { label: approvals, path: '/approvals', heading: approvals },
    { label: messages.security.navLabel, path: '/security', heading: messages.security.title },
  ];
  const liveOnly: Entry[] = [
    { label: messages.bulkPage.menuLink, path: '/bulk', heading: messages.bulkPage.title },
    { label: messages.watchlist.menuLink, path: '/watchlist', heading: messages.watchlist.title },
    { label: messages.apiKeys.navLabel, path: '/api-keys', heading: messages.apiKeys.title },
  ];
  // Units (/units) is for admins and for whoever supervises or administers a unit; the demo accounts
  // other than the admin hold no such role (pools.test.ts checks a unit admin's menu).
  const adminOnly: Entry[] = [
    { label: messages.units.admin.navLink, path: '/units', heading: messages.units.admin.title },
    { label: messages.admin.menuLink, path: '/admin/users' },
  ];

  const openMenuButton = (page: Page) => page.getByRole('button', { name: messages.layout.openMenu });
  const drawerOf = (page: Page) => page.getByRole('dialog', { name: messages.layout.menu });

  /** The main navigation as the reader sees it: the sidebar on a desktop, the opened drawer on a phone. */
  async function openNav(page: Page, onPhone: boolean) {
    if (!onPhone) return page.getByRole('navigation', { name: messages.layout.mainNav });
    await openMenuButton(page).click();
    const drawer = drawerOf(page);
    await drawer.waitFor();
    return drawer.getByRole('navigation', { name: messages.layout.mainNav });
  }

  /**
   * Clicks each entry in the menu of the page the previous click reached, and checks where it lands;
   * with `audit`, runs axe on each page reached (WCAG 2.0 to 2.2, A and AA) and adds what it finds.
   */
  async function visitEach(page: Page, entries: Entry[], onPhone: boolean, audit?: A11yProblem[]) {
    const size = onPhone ? 'phone' : 'desktop';
    for (const entry of entries) {
      const nav = await openNav(page, onPhone);
      await nav.getByRole('link', { name: entry.label, exact: true }).click();
      await page.waitForURL((url) => url.pathname === entry.path);
      if (entry.heading) await page.getByRole('heading', { level: 1, name: entry.heading }).waitFor();
      if (onPhone) {
        // The drawer closes on navigation; opened again on the new page, it marks that page.
        await expect.poll(() => drawerOf(page).count(), { message: entry.label }).toBe(0);
      }
      if (audit && audited.has(entry.path)) {
        audit.push(...(await axeLoadedPage(page, `${entry.path} (${size})`)));
      }
      const again = await openNav(page, onPhone);
      await expect
        .poll(() => again.getByRole('link', { name: entry.label, exact: true }).getAttribute('aria-current'))
        .toBe('page');
      if (onPhone) {
        // Escape closes it and gives the focus back to the menu button.
        await page.keyboard.press('Escape');
        await expect.poll(() => drawerOf(page).count(), { message: entry.label }).toBe(0);
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
          .toBe(messages.layout.openMenu);
      }
    }
    // And back to the start through the spec's first item.
    const nav = await openNav(page, onPhone);
    await nav.getByRole('link', { name: messages.mainNav.emailSearch, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('textbox', { name: messages.search.emailLabel }).waitFor();
  }

  /** The entries' labels in the menu's order (the spec's items first, as the spec orders them). */
  const labelsOf = async (page: Page, onPhone: boolean) => {
    const nav = await openNav(page, onPhone);
    // Help, the last item, shows once the signed-in layout (and so the whole list) has drawn.
    await nav.getByRole('link', { name: messages.mainNav.help, exact: true }).waitFor();
    const labels = (await nav.locator('a, button').allInnerTexts()).map((text) => text.trim());
    if (onPhone) await drawerOf(page).getByRole('button', { name: messages.layout.closeMenu }).click();
    return labels;
  };

  for (const [who, email, entries] of [
    ['a live user', 'demo-live@footprint.test', [...spec, ...everyone, ...liveOnly]],
    ['an admin', 'demo-admin@footprint.test', [...spec, ...everyone, ...liveOnly, ...adminOnly]],
  ] as const) {
    for (const [sizeName, size] of [
      ['desktop', desktop],
      ['phone', phone],
    ] as const) {
      it(
        `lists every page in the menu${who === 'an admin' ? ' and reaches each' : ''}, for ${who} on a ${sizeName} (${size.width} × ${size.height})`,
        async () => {
          const { page } = await signedInPage(email);
          await page.setViewportSize(size);
          await page.goto('/dashboard');
          const onPhone = sizeName === 'phone';
          const labels = await labelsOf(page, onPhone);
          const expected = [
            messages.mainNav.emailSearch,
            messages.mainNav.phoneSearch,
            ...spec.map((entry) => entry.label),
            messages.cases.menuLink,
            messages.bulkPage.menuLink,
            messages.watchlist.menuLink,
            messages.history.menuLink,
            messages.reviewsPage.menuLink,
            approvals,
            messages.apiKeys.navLabel,
            messages.security.navLabel,
            ...(email.startsWith('demo-admin')
              ? [messages.units.admin.navLink, messages.admin.menuLink]
              : []),
            messages.mainNav.logout,
            messages.mainNav.help,
          ];
          expect(labels).toEqual(expected);
          if (!onPhone) {
            // The whole list fits the laptop-sized sidebar without scrolling.
            const nav = page.getByRole('navigation', { name: messages.layout.mainNav });
            expect(await nav.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
          }
          if (email.startsWith('demo-admin')) {
            await openInApp(page, '/cases');
            await page.getByRole('heading', { level: 1, name: messages.cases.title }).waitFor();
            if (onPhone) {
              await openNav(page, true);
              await screenshot(page, 'nav-drawer-admin-mobile');
              await page.keyboard.press('Escape');
            } else {
              await screenshot(page, 'nav-sidebar-admin-desktop');
            }
            await openInApp(page, '/dashboard');
          }
          const admin = email.startsWith('demo-admin');
          // The admin reaches every signed-in page of the menu: its tour is the one checked with axe.
          const audit: A11yProblem[] | undefined = admin ? [] : undefined;
          if (audit && !onPhone) await page.setViewportSize(auditedDesktop);
          // The admin's menu holds every entry of the live user's and more: the tour through every
          // page runs once, as the admin (the live user's own menu is checked above, entry by entry).
          if (admin) await visitEach(page, [...entries], onPhone, audit);
          if (audit) {
            // A page no menu links to yet.
            for (const path of ['/subscription']) {
              await openInApp(page, path);
              audit.push(...(await axeLoadedPage(page, `${path} (${sizeName})`)));
            }
            expectAccessible(audit);
          }
          expect(problemsOf(page)).toEqual([]);
          // The admin's tour waits for each page to stand still and checks it with axe: a longer limit.
        },
        AUDITED_TOUR_MS,
      );
    }
  }

  it('shows a trial user the pages open to every account and none of the live-only or admin ones', async () => {
    const { page } = await signedInPage('demo-trial@footprint.test');
    for (const [sizeName, size] of [
      ['desktop', desktop],
      ['phone', phone],
    ] as const) {
      await page.setViewportSize(size);
      await openInApp(page, '/dashboard');
      const onPhone = sizeName === 'phone';
      expect(await labelsOf(page, onPhone), sizeName).toEqual([
        messages.mainNav.emailSearch,
        messages.mainNav.phoneSearch,
        ...spec.map((entry) => entry.label),
        messages.cases.menuLink,
        messages.history.menuLink,
        messages.reviewsPage.menuLink,
        approvals,
        messages.security.navLabel,
        messages.mainNav.logout,
        messages.mainNav.help,
      ]);
      if (onPhone) {
        await openNav(page, true);
        await screenshot(page, 'nav-drawer-trial-mobile');
        await page.keyboard.press('Escape');
      } else {
        await screenshot(page, 'nav-sidebar-trial-desktop');
      }
      await visitEach(page, everyone, onPhone);
    }
    expect(problemsOf(page)).toEqual([]);
  });
});
