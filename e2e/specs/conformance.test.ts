import {
  type EmailLookupResponse,
  mergePhoneProfile,
  messages,
  type PhoneLookupResponse,
} from '@footprint/domain';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { holdRequests, problemsOf, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * Requirements of spec §2 to §9 that no other spec proves (docs/spec-conformance.md lists which test
 * proves what). Each test names the spec part it checks. Failures that the real server cannot be made to
 * give on demand are staged in the browser with page.route. The searches spend the credits of accounts
 * made for this file, so no other spec's balance moves.
 */

const browser = useBrowser();
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });
const mainNav = (page: Page) => page.getByRole('navigation', { name: messages.layout.mainNav });

let trial: { email: string; token: string };
let live: { email: string; token: string };

beforeAll(async () => {
  const email = uniqueEmail('conformance');
  const password = 'conformance passphrase';
  const created = await api('/api/register', {
    body: { name: 'Spec Conformance', email, password, password_confirmation: password },
  });
  expect(created.status).toBe(201);
  trial = { email, token: await apiSignIn(email, password) };

  const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const liveEmail = uniqueEmail('conformance-live');
  const made = await api('/api/admin/users', {
    body: { name: 'Live Conformance', email: liveEmail, password, app_mode: 'live', credits: 10 },
    token: admin,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  live = { email: liveEmail, token: await apiSignIn(liveEmail, password) };
});

async function signedIn(token: string, path: string, size: { width?: number; height?: number } = {}) {
  const page = await browser.newPage(size);
  await storeSession(page, token);
  await page.goto(path);
  return page;
}

describe('§2.1 public pages', () => {
  it('stand the particle field still for reduced motion: drawn, shown after a resize, no frame loop', async () => {
    const countFrames = () => {
      const w = window as unknown as { __frames: number };
      w.__frames = 0;
      const original = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (callback) => {
        w.__frames += 1;
        return original(callback);
      };
    };
    const framesOver = async (page: Page, ms: number) => {
      const frames = () => page.evaluate(() => (window as unknown as { __frames: number }).__frames);
      const before = await frames();
      await page.waitForTimeout(ms);
      return (await frames()) - before;
    };
    /**
     * Whether the field shows: a strip of the page between the side navigation and the form, with the
     * field's canvas and after removing it, differs. (The engine draws from an OffscreenCanvas, whose
     * pixels the page cannot read back.) Removes the canvas.
     */
    const fieldShown = async (page: Page) => {
      const clip = { x: 260, y: 0, width: 260, height: 600 };
      const shown = await page.screenshot({ clip });
      await page.locator('#footprint-particles canvas').evaluate((el) => el.remove());
      return !shown.equals(await page.screenshot({ clip }));
    };
    const field = (page: Page) => page.locator('#footprint-particles canvas');
    const openLogin = async (motion: boolean) => {
      const page = await browser.newPage({ width: 1280, height: 800, motion });
      await page.addInitScript(countFrames);
      await page.goto('/login');
      await field(page).waitFor({ state: 'attached' });
      return page;
    };

    // Still: after its first moment, no frame is asked for; and it shows.
    const still = await openLogin(false);
    await expect.poll(() => framesOver(still, 400)).toBeLessThanOrEqual(1);
    expect(await fieldShown(still)).toBe(true);

    // After a resize (at which the field draws for a moment at its new size) it shows and stops again.
    const resized = await openLogin(false);
    await resized.setViewportSize({ width: 1100, height: 700 });
    await expect.poll(() => field(resized).evaluate((c: HTMLCanvasElement) => c.width)).toBe(1100);
    await expect.poll(() => framesOver(resized, 400)).toBeLessThanOrEqual(1);
    expect(await fieldShown(resized)).toBe(true);

    // Without the preference the field moves: its frame loop runs (at 60 frames a second, or far fewer
    // on a loaded machine's software rendering; a still field asks for at most one per 400 ms, so 7 in
    // these 3 s). Stop 50's CI, at its most loaded, drew 10 frames in 1.5 s: over 3 s, at least 20.
    const moving = await openLogin(true);
    expect(await framesOver(moving, 3000)).toBeGreaterThan(12);
  });

  it('draw the particle background and the logo, fade and scale pages in over 0.4 s, and say what the policies say', async () => {
    const page = await browser.newPage({ width: 1280, height: 800, motion: true });
    // Every Web Animations call, to read the page transition's timing.
    await page.addInitScript(() => {
      const seen: Array<{ duration: unknown; keyframes: string }> = [];
      (window as unknown as { __animations: typeof seen }).__animations = seen;
      const original = Element.prototype.animate;
      Element.prototype.animate = function (this: Element, keyframes, options) {
        seen.push({
          duration: typeof options === 'number' ? options : options?.duration,
          keyframes: JSON.stringify(keyframes),
        });
        return original.call(this, keyframes, options);
      };
    });
    await page.goto('/');
    await page.locator('#footprint-particles canvas').first().waitFor({ state: 'attached' });
    // The brand title is a link home.
    const brand = page.getByRole('link', { name: messages.brand, exact: true }).first();
    await brand.waitFor();
    expect(await brand.getAttribute('href')).toBe('/');
    await page.getByText(/law-enforcement departments, investigators and journalists/).waitFor();

    await page.getByRole('link', { name: messages.public.nav.contact, exact: true }).click();
    await page.getByRole('heading', { name: messages.public.contact.title }).waitFor();
    const animations = await page.evaluate(
      () =>
        (window as unknown as { __animations: Array<{ duration: unknown; keyframes: string }> }).__animations,
    );
    const transition = animations.filter((entry) => entry.duration === 400);
    expect(transition.some((entry) => /opacity/.test(entry.keyframes))).toBe(true);
    expect(transition.some((entry) => /scale\(0\.97\)/.test(entry.keyframes))).toBe(true);

    // /contact-us: the address and the website.
    expect(
      await page.getByRole('link', { name: messages.public.contact.email }).first().getAttribute('href'),
    ).toBe(`mailto:${messages.public.contact.email}`);
    await page.locator(`a[href="${messages.public.contact.website}"]`).first().waitFor();

    // /terms-conditions: a scrollable list with the spec's clauses.
    await page.goto('/terms-conditions');
    const terms = page.getByRole('region', { name: 'Terms and conditions' });
    expect(await terms.evaluate((el) => getComputedStyle(el).overflowY)).toBe('auto');
    expect(await terms.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    for (const clause of [
      /electronic record under the Information Technology Act/,
      /limited liability partnership/,
      /true, accurate, current and complete information/,
      /warranty or guarantee as to the accuracy, timeliness/,
      /entirely at your own risk/,
      /owned by or licensed to us/,
      /legal action/,
      /agree to pay all charges/,
      /unlawful, illegal or forbidden/,
      /governed by their own terms of use and privacy policies/,
      /legally binding and enforceable contract/,
      /indemnify and hold harmless/,
      /force majeure/,
      /laws of India/,
      /courts in Gandhinagar, Gujarat/,
      /contact information provided on this website/,
    ]) {
      await terms.getByText(clause).first().waitFor();
    }

    // /about: the platform, its mission and its commitments.
    await page.goto('/about');
    await page.getByRole('heading', { name: messages.public.about.title }).waitFor();
    expect(await page.getByRole('heading', { level: 2 }).count()).toBeGreaterThanOrEqual(3);
    await page
      .getByText(/ethical intelligence gathering/i)
      .first()
      .waitFor();

    // The four public routes whose content the spec does not show, and any other path.
    for (const [path, title] of Object.entries({
      '/product': messages.public.placeholder.titles.product,
      '/pricing': messages.public.placeholder.titles.pricing,
      '/shipping-policy': messages.public.placeholder.titles.shipping,
      '/return-policy': messages.public.placeholder.titles.returns,
    })) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(await page.getByText(messages.notFound.title).count()).toBe(0);
    }
    await page.goto('/no-such-page');
    await page.getByRole('img', { name: messages.notFound.image }).waitFor();
    expect(await page.getByRole('link', { name: messages.public.notFoundBack }).getAttribute('href')).toBe(
      '/',
    );

    // /privacy and /refund-policy: what §9 says they say.
    await page.goto('/privacy');
    await page.getByText(/IP address, browser type and device details/).waitFor();
    await page.getByText(/We do not sell your personal data/).waitFor();
    await page.getByText(/valid legal request/).waitFor();
    await page.goto('/refund-policy');
    await page.getByText(/refunds under any circumstances/).waitFor();
    await page.getByText(/non-reversible/).waitFor();
    await page.getByText(/are non-transferable/).waitFor();
    expect(
      await page.getByRole('link', { name: messages.public.contact.email }).first().getAttribute('href'),
    ).toBe(`mailto:${messages.public.contact.email}`);
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('§2.2 authentication pages', () => {
  it('use an e-mail field, show and hide passwords, and take the brand title home', async () => {
    const page = await browser.newPage({ width: 1280, height: 800 });
    await page.goto('/login');
    const email = page.getByLabel(messages.authPages.email);
    expect(await email.getAttribute('type')).toBe('email');
    const password = page.getByLabel(messages.authPages.password, { exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    const toggle = page.getByRole('button', { name: messages.authPages.showPassword('Password') });
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('password');
    expect(await page.getByRole('link', { name: messages.login.signUpLink }).getAttribute('href')).toBe(
      '/register',
    );

    await page.goto('/register');
    for (const label of [messages.authPages.password, messages.authPages.confirmPassword]) {
      const input = page.getByLabel(label, { exact: true });
      await page.getByRole('button', { name: messages.authPages.showPassword(label) }).click();
      expect(await input.getAttribute('type')).toBe('text');
    }
    expect(
      await page
        .getByRole('main')
        .getByRole('link', { name: messages.authPages.register.loginLink, exact: true })
        .getAttribute('href'),
    ).toBe('/login');

    // The brand title of the sign-in card goes to '/'.
    await page.goto('/login');
    await page.getByRole('main').getByRole('link', { name: messages.brand, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('counts a failed registration check as disabled, and shows the server errors under the fields', async () => {
    const page = await browser.newPage();
    await page.route('**/api/registration-status', (route) => route.abort('connectionfailed'));
    await page.goto('/register');
    await page.getByText(messages.register.disabled).waitFor();
    await page.getByRole('link', { name: messages.register.goBackHome }).waitFor();
    await page.unrouteAll();

    // A real 422 from the server: the password is on the list of the most common ones. (A taken
    // address is answered like a new one, so that registering tells nobody who has an account.)
    await page.goto('/register');
    await page.getByLabel(messages.authPages.name).fill('Someone Else');
    await page.getByLabel(messages.authPages.email).fill(uniqueEmail('conformance-common'));
    await page.getByLabel(messages.authPages.password, { exact: true }).fill('password1234');
    await page.getByLabel(messages.authPages.confirmPassword, { exact: true }).fill('password1234');
    await page.getByRole('button', { name: messages.authPages.register.submit, exact: true }).click();
    await toast(page, messages.register.failed).waitFor();
    // Toasts sit top-right and close after 5 s (spec §9). This page asks for reduced motion (as the
    // suite's pages do): the countdown bar runs unseen. The toast still closes by itself (e2e/admin
    // waits for one to go).
    await page.locator('.Toastify__toast-container--top-right').waitFor();
    const bar = await page
      .locator('.Toastify__progress-bar')
      .first()
      .evaluate((el) => ({
        runsFor: getComputedStyle(el).animationDuration,
        seen: getComputedStyle(el.parentElement as Element).visibility,
      }));
    expect(bar).toEqual({ runsFor: '5s', seen: 'hidden' });
    // The field's description (its error, then its hint) says why.
    const described = await page
      .getByLabel(messages.authPages.password, { exact: true })
      .getAttribute('aria-describedby');
    const said = await Promise.all(
      (described ?? '').split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    expect(said.join(' ')).toContain(messages.passwordRules.common);
    expect(new URL(page.url()).pathname).toBe('/register');
  });

  it("reads 'Submitting...' while the reset link is asked for, and shows a 422 under the e-mail", async () => {
    const page = await browser.newPage();
    await page.goto('/forgot-password');
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/forgot-password', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await held;
      await route.fulfill({
        status: 422,
        json: {
          message: 'The given data was invalid.',
          errors: { email: ['No account uses this address.'] },
        },
      });
    });
    await page.getByLabel(messages.authPages.email).fill('someone@example.test');
    await page.getByRole('button', { name: messages.forgot.submit }).click();
    await page.getByRole('button', { name: messages.forgot.submitting }).waitFor();
    release();
    await page.getByText('No account uses this address.', { exact: true }).waitFor();
    await page.getByRole('button', { name: messages.forgot.submit }).waitFor();
  });

  it('warns with the server message on a new device, counts down, and offers Resend OTP when the code expires', async () => {
    const page = await browser.newPage();
    await page.clock.install();
    await page.goto('/login');
    await page.getByLabel(messages.authPages.email).fill('demo-trial@footprint.test');
    await page.getByLabel(messages.authPages.password, { exact: true }).fill(demoPassword);
    const answer = page.waitForResponse((res) => res.url().endsWith('/api/login'));
    await page.getByRole('button', { name: messages.authPages.login.submit, exact: true }).click();
    const login = await answer;
    expect(login.status()).toBe(403);
    const challenge = (await login.json()) as { otp_required: boolean; message: string };
    expect(challenge.otp_required).toBe(true);
    await page.waitForURL('**/otp-verification');
    await toast(page, challenge.message).waitFor();

    // A wrong code: the server's message in red under the form.
    for (const [i, digit] of [...'000001'].entries()) {
      await page.getByLabel(messages.authPages.otp.digit(i + 1, 6)).press(digit);
    }
    const verify = page.waitForResponse((res) => res.url().endsWith('/api/verify-email-otp'));
    await page.getByRole('button', { name: messages.otp.verify, exact: true }).click();
    const refused = await verify;
    expect(refused.status()).toBe(422);
    const body = (await refused.json()) as { message?: string; errors?: { otp?: string[] } };
    const said = body.errors?.otp?.[0] ?? body.message ?? messages.otp.verifyFailed;
    await page.getByRole('alert').filter({ hasText: said }).first().waitFor();

    // The countdown runs out: the resend button takes its place.
    await page.getByText(/OTP expires in: \d{2}:\d{2}/).waitFor();
    expect(await page.getByRole('button', { name: messages.otp.resend }).count()).toBe(0);
    await page.clock.fastForward('10:05');
    const resend = page.getByRole('button', { name: messages.otp.resend });
    await resend.waitFor();

    await page.route('**/api/resend-otp', (route) =>
      route.fulfill({
        status: 429,
        json: { message: 'Please wait 30 seconds before requesting a new OTP.' },
      }),
    );
    await resend.click();
    // A 429 says the server's message (feedback.test.ts: with its wait counted down on the button).
    await toast(page, 'Please wait 30 seconds before requesting a new OTP.').waitFor();
    await page.unrouteAll();

    const now = await page.evaluate(() => Date.now());
    await page.route('**/api/resend-otp', (route) =>
      route.fulfill({
        json: {
          message: 'A new code is on its way.',
          otp_expires_at: new Date(now + 5 * 60_000).toISOString(),
        },
      }),
    );
    await resend.click();
    await toast(page, 'A new code is on its way.').waitFor();
    await page.getByText(/OTP expires in: 0[45]:\d{2}/).waitFor();
    expect(await page.getByRole('button', { name: messages.otp.resend }).count()).toBe(0);
    await page.clock.fastForward('00:03');
    await page.getByText(/OTP expires in: 04:5\d/).waitFor();
  });

  it('after a reset: the success toast and the logo as the way back to /login', async () => {
    const page = await browser.newPage({ width: 1280, height: 800 });
    await page.route('**/api/reset-password', (route) =>
      route.fulfill({ json: { status: 'Your password has been reset.' } }),
    );
    await page.goto('/password-reset/a-token?email=someone%40example.test');
    await page.getByLabel(messages.authPages.newPassword, { exact: true }).fill('a new passphrase');
    await page.getByLabel(messages.authPages.confirmPassword, { exact: true }).fill('a new passphrase');
    await page.getByRole('button', { name: messages.authPages.reset.submit }).click();
    await toast(page, messages.reset.success).waitFor();
    const logo = page.getByRole('main').getByRole('link', { name: messages.brand, exact: true });
    expect(await logo.getAttribute('href')).toBe('/login');
    await logo.click();
    await page.waitForURL('**/login');
  });

  it('drops a dead stored token on sign-in pages without the session-expired redirect', async () => {
    const page = await browser.newPage();
    await page.goto('/about');
    await page.evaluate(() => {
      localStorage.setItem('auth_token', 'a-token-the-server-never-issued');
      localStorage.setItem('token_expiry', new Date(Date.now() + 3_600_000).toISOString());
    });
    for (const path of ['/login', '/register', '/password-reset/some-token']) {
      await page.goto(path);
      // The token goes once /api/user has answered 401: on a loaded machine that alone can take most of
      // the poll's default second, and /login now also asks /api/registration-status.
      await expect
        .poll(() => page.evaluate(() => localStorage.getItem('auth_token')), { timeout: 5_000 })
        .toBeNull();
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await toast(page, messages.session.expired).count()).toBe(0);
      await page.evaluate(() => localStorage.setItem('auth_token', 'a-token-the-server-never-issued'));
    }
  });
});

describe('§4 session', () => {
  it('applies the 401 rule to any call, not only the user fetch: token gone, one notice, /login', async () => {
    const page = await signedIn(trial.token, '/about');
    // The user loads; every other call answers 401, as if the session died on the server meanwhile.
    await page.route('**/api/**', (route) =>
      new URL(route.request().url()).pathname === '/api/user'
        ? route.continue()
        : route.fulfill({ status: 401, json: { message: 'Unauthenticated.' } }),
    );
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await toast(page, messages.session.expired).waitFor();
    await page.waitForTimeout(1_000);
    expect(await toast(page, messages.session.expired).count()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('token_expiry'))).toBeNull();
  });
});

describe('§2.3, §2.4 signed-in layout', () => {
  it('shows a spinner while the user loads, hides the sidebar where the spec says, and marks the active item', async () => {
    const page = await signedIn(trial.token, '/about', { width: 1280, height: 800 });
    const release = await holdRequests(page, '**/api/user');
    await page.goto('/leak-data-finder');
    await page.getByRole('status').filter({ hasText: messages.layout.loading }).first().waitFor();
    release();
    await mainNav(page).waitFor();
    await page.unrouteAll();

    // Email Search sets the search type and goes to the dashboard; the item is marked as current.
    await mainNav(page).getByRole('link', { name: messages.mainNav.emailSearch }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('textbox', { name: messages.search.emailLabel }).waitFor();
    expect(await page.getByRole('button', { name: /Country code:/ }).count()).toBe(0);
    expect(
      await mainNav(page)
        .getByRole('link', { name: messages.mainNav.emailSearch })
        .getAttribute('aria-current'),
    ).toBe('page');
    await mainNav(page).getByRole('link', { name: messages.mainNav.phoneSearch }).click();
    await page.getByRole('textbox', { name: messages.search.phoneLabel }).waitFor();
    await page.getByRole('button', { name: /Country code: India \+91/ }).waitFor();
    await mainNav(page).getByRole('link', { name: messages.mainNav.leakFinder }).click();
    await page.waitForURL('**/leak-data-finder');
    await expect
      .poll(() =>
        mainNav(page).getByRole('link', { name: messages.mainNav.leakFinder }).getAttribute('aria-current'),
      )
      .toBe('page');
    expect(
      await mainNav(page).getByRole('link', { name: messages.mainNav.corporate }).getAttribute('href'),
    ).toBe('/corporate');
    expect(
      await mainNav(page).getByRole('link', { name: messages.mainNav.verifiedId }).getAttribute('href'),
    ).toBe('/verification-id');
    // Help leads to the dashboard on a wide screen.
    expect(await mainNav(page).getByRole('link', { name: messages.mainNav.help }).getAttribute('href')).toBe(
      '/dashboard',
    );

    for (const path of ['/results', '/upgrade', '/subscription']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await mainNav(page).count(), path).toBe(0);
    }
    // /results without a search: the no-results image and the way back.
    await page.goto('/results');
    await page.getByRole('img', { name: messages.results.noResults }).waitFor();
    await page.goto('/dashboard');
    await mainNav(page).waitFor();
    expect(problemsOf(page)).toEqual([]);
  });

  it('on a phone: the menu button on the four search pages, Help to /help, the drawer closing on navigation', async () => {
    const page = await signedIn(live.token, '/dashboard', { width: 390, height: 844 });
    for (const path of ['/dashboard', '/leak-data-finder', '/corporate', '/verification-id']) {
      await page.goto(path);
      await page.getByRole('button', { name: messages.layout.openMenu }).waitFor();
    }
    for (const path of ['/results', '/upgrade', '/help']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.getByRole('button', { name: messages.layout.openMenu }).count(), path).toBe(0);
    }
    await page.goto('/dashboard');
    await page.getByRole('button', { name: messages.layout.openMenu }).click();
    const drawer = page.getByRole('dialog', { name: messages.layout.menu });
    const help = drawer.getByRole('link', { name: messages.mainNav.help });
    expect(await help.getAttribute('href')).toBe('/help');
    await help.click();
    await page.waitForURL('**/help');
    await expect.poll(() => drawer.count()).toBe(0);

    await page.goto('/dashboard');
    await page.getByRole('button', { name: messages.layout.openMenu }).click();
    await drawer.getByRole('link', { name: messages.mainNav.emailSearch }).click();
    await expect.poll(() => drawer.count()).toBe(0);
    await page.getByRole('textbox', { name: messages.search.emailLabel }).waitFor();
  });

  it("says 'Logging out...' and waits about 2 s before calling the server, then goes to /", async () => {
    const email = uniqueEmail('conformance-logout');
    const password = 'logging out passphrase';
    expect(
      (
        await api('/api/register', {
          body: { name: 'Log Out', email, password, password_confirmation: password },
        })
      ).status,
    ).toBe(201);
    const page = await signedIn(await apiSignIn(email, password), '/dashboard', { width: 1280, height: 800 });
    await mainNav(page).waitFor();
    // The server's answer does not matter (spec §4): a failed logout still ends the session here.
    await page.route('**/api/logout', (route) => route.fulfill({ status: 500, json: { message: 'Down.' } }));
    const called = page.waitForRequest((request) => request.url().endsWith('/api/logout'));
    const started = Date.now();
    await mainNav(page).getByRole('button', { name: messages.mainNav.logout }).click();
    await mainNav(page).getByText(messages.logout.inProgress).waitFor();
    await called;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('token_expiry'))).toBeNull();
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
  });
});

describe('§2.3, §2.5, §7 search and results', () => {
  async function search<T>(page: Page, type: 'tel' | 'email', value: string): Promise<T> {
    await page
      .getByRole('radio', { name: type === 'tel' ? messages.search.typePhone : messages.search.typeEmail })
      .check({ force: true });
    await page
      .getByRole('textbox', {
        name: type === 'tel' ? messages.search.phoneLabel : messages.search.emailLabel,
      })
      .fill(value);
    const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
    if (!(await terms.isChecked())) await terms.check();
    const answer = page.waitForResponse((res) =>
      res.url().includes(type === 'tel' ? '/api/tel?' : '/api/email?'),
    );
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const response = await answer;
    expect(response.status()).toBe(200);
    await page.waitForURL('**/results');
    return (await response.json()) as T;
  }

  it("overlays 'Searching...', sends dial code and digits, and the device id on every call", async () => {
    const page = await signedIn(trial.token, '/dashboard', { width: 1280, height: 800 });
    const calls: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) calls.push(request);
    });
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    const release = await holdRequests(page, '**/api/tel?*');
    await page.getByRole('textbox', { name: messages.search.phoneLabel }).fill('9876543210');
    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('status').filter({ hasText: messages.search.searching }).waitFor();
    release();
    const response = await answer;
    expect(new URL(response.url()).searchParams.get('number')).toBe('919876543210');
    await page.waitForURL('**/results');

    // 'Copied!' for 3 s (spec §2.5, §9). The page's clock is paused, so only runFor moves it: a
    // slow machine between the click and the checks cannot use up the 3 s. The pause is 10 s ahead:
    // the installed clock runs until then, and at 1 s ahead a loaded machine had already passed it.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 10_000);
    await page.getByRole('button', { name: messages.results.copySearched }).click();
    const copied = page.getByText(messages.results.copied, { exact: true });
    await copied.waitFor();
    await page.clock.runFor(2_800);
    expect(await copied.count()).toBe(1);
    await page.clock.runFor(400);
    await expect.poll(() => copied.count()).toBe(0);

    const device = await page.evaluate(() => localStorage.getItem('device_id'));
    expect(device).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls.length).toBeGreaterThan(1);
    for (const call of calls) {
      const headers = await call.allHeaders();
      expect(headers['x-device-id'], call.url()).toBe(device);
      expect(headers.authorization, call.url()).toBe(`Bearer ${trial.token}`);
      if (call.method() === 'POST') expect(headers['content-type']).toContain('application/json');
    }
  });

  it('caps the additional information at 500px, puts two record cards and three breaches in a row', async () => {
    const page = await signedIn(trial.token, '/dashboard', { width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    await search<PhoneLookupResponse>(page, 'tel', '9876543210');
    // The record cards are the evidence under the merged profile, in 'Source records'.
    await page.locator('summary').filter({ hasText: messages.results.sourceRecords }).click();
    const records = page.locator('section', { has: page.getByRole('heading', { name: /^Records/ }) });
    await records.waitFor();
    expect(
      await records
        .locator('ul')
        .first()
        .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length),
    ).toBe(2);
    await records.getByRole('button', { name: messages.results.additionalInformation }).first().click();
    expect(
      await records
        .locator('.additional-panel')
        .first()
        .evaluate((el) => getComputedStyle(el).maxHeight),
    ).toBe('500px');

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    await search<EmailLookupResponse>(page, 'email', 'rich.demo@example.test');
    const breaches = page.locator('section', {
      has: page.getByRole('heading', { name: new RegExp(`^${messages.results.foundBreaches}`) }),
    });
    await breaches.waitFor();
    expect(
      await breaches
        .locator('ul')
        .first()
        .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length),
    ).toBe(3);
  });

  it('updates the credits after a detail lookup and words each detail failure as §8 does', async () => {
    const page = await signedIn(trial.token, '/dashboard', { width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    const answer = await search<PhoneLookupResponse>(page, 'tel', '9876543210');
    const profile = mergePhoneProfile(answer);
    const rc = profile.rcNumbers[0]!.value;
    const upi = profile.upiIds[0]!.value;
    const dialog = page.getByRole('dialog');
    const close = async () => {
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    };

    // A real RC lookup: the header follows the balance it answers with.
    const rcAnswer = page.waitForResponse((res) => res.url().endsWith('/api/rcfull-details'));
    await page.getByRole('button', { name: `${messages.details.rcTitle}: ${rc}` }).click();
    const bought = (await (await rcAnswer).json()) as { credits: number };
    await page.getByText(messages.credits.label(bought.credits)).first().waitFor();
    // A failed RC PDF is silent (spec §8).
    await page.route('**/api/generate-rc-report', (route) =>
      route.fulfill({ status: 500, json: { message: 'x' } }),
    );
    const failedPdf = page.waitForResponse((res) => res.url().endsWith('/api/generate-rc-report'));
    await dialog.getByRole('button', { name: messages.details.downloadPdf }).click();
    await failedPdf;
    await page.waitForTimeout(500);
    expect(await page.locator('.Toastify__toast').count()).toBe(0);
    await page.unrouteAll();
    await close();

    // Failures, staged.
    const staged: Array<[path: string, button: string, status: number, body: unknown, said: string]> = [
      [
        '/api/upifull-details',
        `${messages.details.upiTitle}: ${upi}`,
        500,
        { message: 'x' },
        messages.details.upiFailed,
      ],
      [
        '/api/rc-challan-details',
        `${messages.details.challanTitle}: ${rc}`,
        500,
        { message: 'x' },
        messages.details.challanFailed,
      ],
    ];
    for (const [path, button, status, body, said] of staged) {
      await page.route(`**${path}`, (route) => route.fulfill({ status, json: body }));
      await page.getByRole('button', { name: button }).click();
      await toast(page, said).waitFor();
      await close();
      await page.unrouteAll();
    }

    // An empty challan list: the warning, the modal's empty line, and no PDF to download.
    // (A real answer with its list emptied, so that it stays a whole answer of the OpenAPI document.)
    await page.route('**/api/rc-challan-details', async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { data: Record<string, unknown> };
      await route.fulfill({
        response: real,
        json: { ...body, data: { ...body.data, data: { challan_details: [] } } },
      });
    });
    await page.getByRole('button', { name: `${messages.details.challanTitle}: ${rc}` }).click();
    await toast(page, messages.details.noChallans).waitFor();
    await dialog.getByText(messages.details.noData(messages.details.typeNames.challan)).waitFor();
    expect(await dialog.getByRole('button', { name: messages.details.downloadPdf }).count()).toBe(0);
    await close();
    await page.unrouteAll();

    // An RC the registry does not know: the vendor's no-record envelope, which is not charged (README,
    // "Credits"): the modal's empty line says so, and offers no PDF.
    // The sandbox knows every RC of the profile: the answer is a real one with its record replaced by
    // the vendor's no-record envelope (and its source not_found), as the server answers an unknown RC.
    await page.route('**/api/rcfull-details', async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { source_status: Record<string, Record<string, unknown>> };
      await route.fulfill({
        response: real,
        json: {
          ...body,
          data: {
            data: null,
            status_code: 422,
            success: false,
            message: 'No records found',
            message_code: 'not_found',
          },
          source_status: { ...body.source_status, rc: { ...body.source_status.rc, status: 'not_found' } },
        },
      });
    });
    // (Another RC of the profile: the first is bought on this page, and shown again without asking.)
    const otherRc = profile.rcNumbers.find((entry) => entry.value !== rc)!.value;
    await page.getByRole('button', { name: `${messages.details.rcTitle}: ${otherRc}` }).click();
    await dialog.getByText(messages.details.noData(messages.details.typeNames.rc)).waitFor();
    await dialog.getByText(messages.details.noRecordFree).waitFor();
    expect(await dialog.getByRole('button', { name: messages.details.downloadPdf }).count()).toBe(0);
    await close();
    await page.unrouteAll();

    // The credit report modal says 'Downloading...' while it waits, and its failure in the spec words.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/corporate-intelligence', async (route) => {
      await held;
      await route.fulfill({ status: 500, json: { message: 'Bureau down.' } });
    });
    await page.getByRole('button', { name: new RegExp(`^${messages.creditReport.button}:`) }).click();
    // PAN, name and mobile come from the profile: the PAN line, and the Gov-sourced name and phone.
    const gov = (entries: typeof profile.names) => entries.find((entry) => entry.source === 'Gov')?.value;
    expect(gov(profile.names)).toBeTruthy();
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe(gov(profile.names));
    expect(await dialog.getByLabel('Mobile', { exact: true }).inputValue()).toBe(
      (gov(profile.phones) ?? '9876543210').replace(/\D/g, '').slice(-10),
    );
    for (const label of ['PAN', 'Name', 'Mobile']) {
      expect(await dialog.getByLabel(label, { exact: true }).getAttribute('readonly')).not.toBeNull();
    }
    await dialog.getByRole('radio', { name: 'Male', exact: true }).check();
    await dialog.getByRole('button', { name: messages.intel.downloadReport }).click();
    await dialog.getByRole('button', { name: messages.creditReport.downloading }).waitFor();
    release();
    await toast(page, messages.creditReport.failed).waitFor();
    await close();
    await page.unrouteAll();

    // A 402 says the server's words and sets the balance; the next lookup is refused in the browser.
    await page.route('**/api/rc-challan-details', (route) =>
      route.fulfill({ status: 402, json: { message: messages.credits.insufficient, credits: 0 } }),
    );
    await page.getByRole('button', { name: `${messages.details.challanTitle}: ${rc}` }).click();
    await toast(page, messages.credits.insufficient).waitFor();
    await page.getByText(messages.credits.label(0)).first().waitFor();
    await close();
    const calls: string[] = [];
    page.on('request', (request) => {
      if (/details$/.test(request.url())) calls.push(request.url());
    });
    await page.getByRole('button', { name: `${messages.details.upiTitle}: ${upi}` }).click();
    await toast(page, messages.credits.insufficientUpgrade).waitFor();
    expect(calls).toEqual([]);
  });

  it('does not offer Save Results on the corporate results page', async () => {
    const page = await signedIn(live.token, '/corporate', { width: 1280, height: 800 });
    await page.getByRole('combobox', { name: messages.intelPages.searchType }).selectOption('corporate_cin');
    await page.getByLabel('CIN', { exact: true }).fill('U72200MH2015PTC248219');
    const answer = page.waitForResponse((res) => res.url().endsWith('/api/corporate-intelligence'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect((await answer).status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: messages.intelPages.corporateResultTitle }).waitFor();
    await page.getByRole('searchbox', { name: messages.intelPages.filterLabel }).waitFor();
    expect(await page.getByRole('button', { name: messages.results.saveResults }).count()).toBe(0);
    expect(await page.getByText(messages.results.saveAsPdf).count()).toBe(0);
    await page.getByRole('button', { name: messages.results.newSearch }).waitFor();
    // The sidebar is hidden on both intel results pages.
    expect(await mainNav(page).count()).toBe(0);
    await page.goto('/verification-results');
    await page.getByRole('heading', { name: messages.intelPages.noDataForSearch }).waitFor();
    expect(await mainNav(page).count()).toBe(0);
  });

  it('shows no account card without a person id, falls back through local icons, and words a failed AI report', async () => {
    const page = await signedIn(trial.token, '/dashboard', { width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    // A staged answer (no charge): the provider answered without a person id.
    const staged: EmailLookupResponse = {
      data: {
        emailData: {
          success: true,
          PROFILE_CONTAINER: {
            profile: { names: [{ fullname: 'Staged Person' }], emails: [{ value: 'staged@example.test' }] },
          },
        },
        hibpData: [{ Name: 'StagedBreach', Title: 'Staged Breach', BreachDate: '2020-01-01', PwnCount: 10 }],
        holeheData: { used: ['accounts.spotify.com', 'nosuchplatform.example'] },
        errors: {},
      },
      credits: 12,
    } as unknown as EmailLookupResponse;
    await page.route('**/api/email?*', (route) => route.fulfill({ json: staged }));
    await search<EmailLookupResponse>(page, 'email', 'staged@example.test');
    await page.getByRole('heading', { name: new RegExp(`^${messages.results.foundBreaches}`) }).waitFor();
    expect(await page.getByRole('heading', { name: messages.results.accountProviderTitle }).count()).toBe(0);
    const presence = page.locator('section', {
      has: page.getByRole('heading', { name: new RegExp(`^${messages.results.internetPresence}`) }),
    });
    const tile = (name: string) => presence.getByRole('listitem').filter({ hasText: name });
    // 'accounts.spotify.com' falls back to its brand label; an unknown platform to the help icon.
    expect(await tile('accounts.spotify.com').locator('span[aria-hidden="true"]').first().textContent()).toBe(
      'S',
    );
    expect(await tile('nosuchplatform.example').locator('span[aria-hidden="true"] svg').count()).toBe(1);

    await page.route('**/api/generate-ai-report', (route) =>
      route.fulfill({ status: 500, json: { message: 'x' } }),
    );
    await page.getByRole('button', { name: messages.results.aiReport }).click();
    await toast(page, messages.reports.aiFailed).waitFor();
  });
});
