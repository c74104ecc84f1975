import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type A11yProblem,
  axeProblems,
  dismissToasts,
  hasFocus,
  openSignedIn,
  screenPicture,
  settle,
  tabTo,
  type ViewportName,
  viewports,
} from '../support/a11y.ts';
import { api, apiSignIn, demoPassword, otpFrom, waitForMail } from '../support/api.ts';
import { picture, picturesKept, problemsOf, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * Every screen and modal of the product at 1440×900 and 390×844, with the sandbox data of the
 * README's demo identities. Each is saved as docs/screenshots/screen-<name>-<desktop|mobile>.png and
 * checked with axe-core (WCAG 2.0, 2.1 and 2.2, A and AA): no violation. Then the keyboard alone works
 * the OTP boxes, the country picker, the dialogs and menus, and the pagination.
 *
 * One signed-in page per account is reused from screen to screen and resized for the phone picture,
 * so the searches run once. The searches spend the credits of a live account made for this file by
 * demo-admin; demo-trial only signs in (through the OTP screen) to see /upgrade. E2E_TIMINGS=1 prints
 * how long each look took (settling, axe, picture).
 */

const browser = useBrowser();

/** The README's demo identities. */
const demo = {
  phone: '9876543210',
  email: 'rich.demo@example.test',
  leakName: 'Rohan Deshmukh',
  leakCommonName: 'Priya Sharma',
  gstin: '27AADCN4821K1ZC',
  pan: 'BQZPD4821K',
  panName: 'Rohan Deshmukh',
  caseReference: 'CASE-2025-0417',
};

let adminToken: string;
const officer = {
  name: 'Inspector Kavya Rao',
  email: uniqueEmail('screens'),
  password: 'screens passphrase 9',
};
let officerId: string;
let officerToken: string;
let registrationBefore: unknown;

beforeAll(async () => {
  adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword);
  registrationBefore = (await api('/api/admin/settings', { token: adminToken })).body.registration_enabled;
  const created = await api('/api/admin/users', {
    body: {
      name: officer.name,
      email: officer.email,
      password: officer.password,
      app_mode: 'live',
      credits: 200,
    },
    token: adminToken,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  officerId = (created.body.user as { id: string }).id;
  officerToken = await apiSignIn(officer.email, officer.password);
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

/**
 * Looks at what `page` shows at both sizes (or the ones given): settles, runs axe, closes the toasts,
 * saves the picture (the whole page, or only the screen for dialogs and menus), and leaves the page at
 * the desktop size. Returns the serious and critical axe findings.
 */
async function look(
  page: Page,
  name: string,
  options: {
    sizes?: ViewportName[];
    whole?: boolean;
    /** A dialog or menu: axe checks only it (the page behind was checked on its own). */
    scope?: string;
    atSize?: (size: ViewportName) => Promise<void>;
  } = {},
): Promise<A11yProblem[]> {
  const { sizes = ['desktop', 'mobile'], whole = true, scope, atSize } = options;
  const found: A11yProblem[] = [];
  for (const size of sizes) {
    const started = Date.now();
    await page.setViewportSize(viewports[size]);
    // The pointer rests in a corner, so no row or button shows its hover look in the picture.
    await page.mouse.move(1, viewports[size].height - 2);
    await atSize?.(size);
    await settle(page);
    const settled = Date.now();
    found.push(...(await axeProblems(page, `${name} (${size})`, scope)));
    const checked = Date.now();
    if (await page.locator('.Toastify__toast').count()) {
      await dismissToasts(page);
      await settle(page);
    }
    if (whole && picturesKept) {
      // The whole page in one picture, drawn as on a screen that tall: a full-page capture would leave
      // the fixed sidebar and background at the height of the first screen.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      if (height > viewports[size].height) {
        await page.setViewportSize({ width: viewports[size].width, height: Math.min(height, 6000) });
        await settle(page);
      }
    }
    await picture(page, screenPicture(name, size));
    if (process.env.E2E_TIMINGS) {
      console.log(
        `[screen] ${name} ${size}: settle ${settled - started} ms, axe ${checked - settled} ms, picture ${Date.now() - checked} ms`,
      );
    }
  }
  await page.setViewportSize(viewports.desktop);
  return found;
}

/** Fails with every finding, readably, when axe found anything serious. */
function expectAccessible(found: A11yProblem[]) {
  const lines = found.map(
    (p) => `${p.screen}: ${p.impact} ${p.rule} (${p.help})\n    ${p.targets.join('\n    ')}`,
  );
  expect(lines, lines.join('\n')).toEqual([]);
}

/**
 * A page at the desktop size (asking for reduced motion, as every page of the suite does: the particles
 * stand still and the page and dialog entrances are cut short, so the pictures are stable); `keep`
 * keeps it for later tests (a page is closed when its test ends).
 */
async function newPage(keep = false): Promise<Page> {
  return browser.newPage({ ...viewports.desktop, keep });
}

async function pageAs(token: string, path: string, keep = false): Promise<Page> {
  const page = await newPage(keep);
  await openSignedIn(page, token, path);
  return page;
}

const heading1 = (page: Page, name?: string | RegExp) =>
  page.getByRole('heading', { level: 1, ...(name ? { name } : {}) }).first();

/** Runs a dashboard search and waits for the results page. */
async function search(page: Page, type: 'tel' | 'email', value: string) {
  await page.goto('/dashboard');
  await page.getByRole('radio', { name: type === 'tel' ? 'Phone' : 'Email' }).check({ force: true });
  await page.getByRole('textbox', { name: type === 'tel' ? 'Phone number' : 'Email address' }).fill(value);
  await page.getByLabel(/^Case reference/).fill(demo.caseReference);
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
  const answer = page.waitForResponse((res) =>
    res.url().includes(type === 'tel' ? '/api/tel?' : '/api/email?'),
  );
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  expect((await answer).status()).toBe(200);
  await page.waitForURL('**/results');
}

/**
 * Each test here is a tour of several screens, each drawn at two sizes, pictured and checked with axe,
 * with every API answer held to the OpenAPI document: longer than one screen's test, so a longer limit.
 */
const SCREEN_TOUR_MS = 150_000;

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
      ['placeholder', '/pricing'],
      ['not-found', '/no/such/page'],
    ];
    for (const [name, path] of screens) {
      await page.goto(path);
      await page.getByRole('navigation').first().waitFor();
      if (name === 'not-found') await page.getByText('404 - Page Not Found').waitFor();
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

/** The live account's page: made by the first signed-in test (a page belongs to a test), then reused. */
let live: Page;

describe('signed-in screens', { timeout: SCREEN_TOUR_MS }, () => {
  it('dashboard: phone and e-mail search, the country list, the profile menu, the mobile menu', async () => {
    live = await pageAs(officerToken, '/dashboard', true);
    const page = live;
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    const found = await look(page, 'dashboard');
    await page.getByRole('radio', { name: 'Email' }).check({ force: true });
    found.push(...(await look(page, 'dashboard-email')));
    await page.getByRole('radio', { name: 'Phone' }).check({ force: true });

    await page.getByRole('button', { name: /Country code:/ }).click();
    await page.getByRole('combobox', { name: 'Search country or dial code' }).fill('in');
    found.push(...(await look(page, 'country-picker', { whole: false })));
    await page.keyboard.press('Escape');

    const profile = page.getByRole('button', { name: /^Profile: / });
    await profile.click();
    // The profile menu's link (the sidebar lists the same page).
    await page.getByRole('banner').getByRole('link', { name: 'Search history' }).waitFor();
    found.push(...(await look(page, 'profile-menu', { whole: false, scope: 'header' })));
    await page.keyboard.press('Escape');

    found.push(
      ...(await look(page, 'sidebar-open', {
        sizes: ['mobile'],
        whole: false,
        scope: '#main-nav-drawer',
        atSize: async () => {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await page.getByRole('dialog', { name: 'Menu' }).waitFor();
        },
      })),
    );
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });

  it('phone results of the rich demo number and every dialog and menu on them', async () => {
    const page = live;
    await search(page, 'tel', demo.phone);
    await page.getByRole('heading', { name: `+91 ${demo.phone}` }).waitFor();
    await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
    await page.getByRole('heading', { name: 'Lawful next steps' }).waitFor();
    const found = await look(page, 'results-phone');
    const dialog = page.getByRole('dialog');

    await page.getByRole('button', { name: 'Save Results' }).click();
    await page.getByRole('button', { name: 'Save as pdf' }).waitFor();
    found.push(...(await look(page, 'results-save-menu', { whole: false, scope: '.results-bar' })));
    await page.keyboard.press('Escape');

    await page
      .getByRole('button', { name: /^RC Details: / })
      .first()
      .click();
    await dialog.getByText('Owner Name').waitFor();
    found.push(...(await look(page, 'modal-rc', { whole: false, scope: '[role="dialog"]' })));
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    await page
      .getByRole('button', { name: /^Challan Details: / })
      .first()
      .click();
    await dialog.getByRole('region', { name: 'Challans' }).locator('tbody tr').first().waitFor();
    found.push(...(await look(page, 'modal-challan', { whole: false, scope: '[role="dialog"]' })));
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    await page
      .getByRole('button', { name: /^UPI Details: / })
      .first()
      .click();
    await dialog.getByText('Full Name').waitFor();
    found.push(...(await look(page, 'modal-upi', { whole: false, scope: '[role="dialog"]' })));
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    await page.getByRole('button', { name: /^Credit Report:/ }).click();
    await dialog.getByRole('heading', { name: 'Credit Report Request' }).waitFor();
    await dialog.getByRole('button', { name: 'Download Report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please select gender.' }).waitFor();
    found.push(...(await look(page, 'modal-credit-report', { whole: false, scope: '[role="dialog"]' })));
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    await page.getByRole('button', { name: /Open full-size image 1/ }).click();
    await dialog.waitFor();
    found.push(...(await look(page, 'modal-image', { whole: false, scope: '[role="dialog"]' })));
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    // /results opened on its own (not as a reload of the results above, which keeps their state).
    await page.goto('/dashboard');
    await page.goto('/results');
    await page.getByRole('heading', { name: 'No results found' }).waitFor();
    found.push(...(await look(page, 'results-empty')));
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
    // The merged profile makes the page longer: its whole-page pictures and audits take longer.
  }, 120_000);

  it('e-mail results of the rich demo address, with the map', async () => {
    const page = live;
    await search(page, 'email', demo.email);
    await page.getByRole('heading', { name: /^Found breaches/ }).waitFor();
    const found = await look(page, 'results-email');
    await page.getByRole('button', { name: 'Show map' }).click();
    await page.locator('.leaflet-marker-icon').first().waitFor();
    found.push(
      ...(await look(page, 'results-email-map', {
        whole: false,
        scope: 'section:has(.leaflet-container)',
        atSize: async () => page.locator('.leaflet-container').scrollIntoViewIfNeeded(),
      })),
    );
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });

  it('leak data finder: the form, the demo person in several breaches, pages of a common name', async () => {
    const page = live;
    await page.goto('/leak-data-finder');
    const value = (n: number) => page.getByRole('textbox', { name: `Field ${n} value` });
    await value(1).waitFor();
    const found = await look(page, 'leaks');

    await page.getByRole('combobox', { name: 'Field 1 type' }).selectOption('name');
    await value(1).fill(demo.leakName);
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('combobox', { name: 'Field 2 type' }).selectOption('phone');
    await value(2).fill(demo.phone);
    await page.getByLabel(/^Case reference/).fill(demo.caseReference);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('article').first().waitFor();
    found.push(
      ...(await look(page, 'leaks-results', { atSize: async () => page.evaluate(() => scrollTo(0, 0)) })),
    );

    await page.getByRole('button', { name: /^Remove field 2/ }).click();
    await value(1).fill(demo.leakCommonName);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('navigation', { name: 'Leak results pages' }).waitFor();
    found.push(...(await look(page, 'leaks-results-pages')));
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });

  it('corporate and identity intelligence: forms and results', async () => {
    const page = live;
    const typeSelect = page.getByRole('combobox', { name: 'Search type' });
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await page.goto('/corporate');
    await typeSelect.waitFor();
    const found = await look(page, 'corporate');
    await typeSelect.selectOption('credit_report');
    await page.getByRole('button', { name: 'Download Report', exact: true }).waitFor();
    found.push(...(await look(page, 'corporate-credit-report')));
    await typeSelect.selectOption('corporate_gstin');
    await field('GSTIN').fill(demo.gstin);
    for (const box of ['Filing Status', 'HSN Info', 'Filing Frequency', 'Split Address']) {
      await page.getByRole('checkbox', { name: box }).check();
    }
    await page.getByLabel(/^Case reference/).fill(demo.caseReference);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/corporate-results');
    await heading1(page, 'Corporate Result:').waitFor();
    found.push(...(await look(page, 'corporate-results')));

    await page.goto('/verification-id');
    await typeSelect.waitFor();
    found.push(...(await look(page, 'verification')));
    await typeSelect.selectOption('bank_account');
    await field('Account Number').waitFor();
    found.push(...(await look(page, 'verification-bank-account')));
    await typeSelect.selectOption('pan');
    await field('PAN Number').fill(demo.pan);
    await field('Name').fill(demo.panName);
    await page.getByLabel(/^Case reference/).fill(demo.caseReference);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL('**/verification-results');
    await heading1(page, 'Identity Verified Result :').waitFor();
    found.push(...(await look(page, 'verification-results')));
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });

  it('help and search history: lookups, a stored result, the credit statement', async () => {
    const page = live;
    await page.goto('/help');
    await heading1(page).waitFor();
    const found = await look(page, 'help');

    await page.goto('/history');
    const lookups = page.getByRole('region', { name: 'Lookups' });
    await lookups
      .getByRole('row')
      .filter({ hasText: `+91 ${demo.phone}` })
      .first()
      .waitFor();
    found.push(...(await look(page, 'history')));
    await lookups
      .getByRole('button', { name: /^Open the stored result of/ })
      .filter({ hasText: /./ })
      .first()
      .waitFor();
    const leakRow = lookups.getByRole('row').filter({ hasText: 'Leak Data Finder' }).first();
    await leakRow.getByRole('button', { name: /^Open the stored result of/ }).click();
    await page.getByRole('dialog').waitFor();
    found.push(...(await look(page, 'history-stored-result', { whole: false, scope: '[role="dialog"]' })));
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Credit statement' }).click();
    await page.getByRole('region', { name: 'Credit statement' }).getByRole('row').nth(1).waitFor();
    found.push(...(await look(page, 'history-statement')));
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });

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

describe('admin screens', { timeout: SCREEN_TOUR_MS }, () => {
  it('users, a user, the new-user dialog, audit trail and an event, providers, leak sources, settings', async () => {
    const page = await pageAs(adminToken, '/admin');
    await page.waitForURL('**/admin/users');
    const nav = page.getByRole('navigation', { name: 'Admin sections' });
    const loaded = async (title: string) => {
      await heading1(page, title).waitFor();
      await expect
        .poll(() =>
          page
            .getByRole('status')
            .filter({ hasText: /^Loading/ })
            .count(),
        )
        .toBe(0);
    };
    await loaded('Users');
    const found = await look(page, 'admin-users');

    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByText('The name field is required.').waitFor();
    found.push(...(await look(page, 'admin-new-user', { whole: false, scope: '[role="dialog"]' })));
    await page.keyboard.press('Escape');

    await page.goto(`/admin/users/${officerId}`);
    await loaded(officer.name);
    found.push(...(await look(page, 'admin-user')));

    await nav.getByRole('link', { name: 'Audit trail' }).click();
    await loaded('Audit trail');
    await page
      .getByRole('button', { name: /Show details of event/ })
      .first()
      .waitFor();
    found.push(...(await look(page, 'admin-audit')));
    await page
      .getByRole('button', { name: /Show details of event/ })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    found.push(...(await look(page, 'admin-audit-event', { whole: false, scope: '[role="dialog"]' })));
    await page.keyboard.press('Escape');

    for (const [link, title, name] of [
      ['Provider health', 'Provider health', 'admin-providers'],
      ['Leak sources', 'Leak sources', 'admin-leak-sources'],
      ['Settings', 'Settings', 'admin-settings'],
    ] as const) {
      await nav.getByRole('link', { name: link }).click();
      await loaded(title);
      found.push(...(await look(page, name)));
    }
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('keyboard alone', { timeout: SCREEN_TOUR_MS }, () => {
  const activeLabel = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
    });
  const focusInside = (page: Page, selector: string) =>
    page.evaluate((sel) => Boolean(document.activeElement?.closest(sel)), selector);

  it('the country picker: open, search, arrow keys, Enter, Escape', async () => {
    // A page of its own: what the tours before it left behind (a case carried over, a country chosen,
    // a toast) changes the order Tab walks.
    const page = await pageAs(officerToken, '/dashboard', true);
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const trigger = page.getByRole('button', { name: /^Country code:/ });
    const filter = page.getByRole('combobox', { name: 'Search country or dial code' });
    // The picker's own options (the case control beside the form has options of its own).
    const options = page.getByRole('listbox', { name: 'Countries' }).getByRole('option');
    const activeOption = async () => {
      const id = await filter.getAttribute('aria-activedescendant');
      return id ? ((await page.locator(`[id="${id}"]`).textContent()) ?? '') : '';
    };

    // Enter on the button opens the list with the search box focused and the current country active.
    await tabTo(page, trigger);
    await page.keyboard.press('Enter');
    expect(await hasFocus(filter)).toBe(true);
    expect(await trigger.getAttribute('aria-expanded')).toBe('true');
    expect(await activeOption()).toMatch(/^India/);
    // Typing narrows the list; the arrows move through it; Enter chooses and moves on to the number.
    await page.keyboard.type('united');
    // The list narrows as it renders: wait for it to hold only matches before reading it.
    await expect
      .poll(async () => (await options.allTextContents()).every((text) => /united/i.test(text)))
      .toBe(true);
    const matches = await options.allTextContents();
    expect(matches.length).toBeGreaterThan(1);
    expect(matches.every((text) => /united/i.test(text))).toBe(true);
    expect(await activeOption()).toBe(matches[0]);
    await page.keyboard.press('ArrowDown');
    expect(await activeOption()).toBe(matches[1]);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await activeOption()).toBe(matches[0]);
    await page.keyboard.press('ArrowDown');
    const chosen = /^(.*?)[A-Z]{2}\+(\d+)/.exec(matches[1] ?? '');
    expect(chosen).toBeTruthy();
    await page.keyboard.press('Enter');
    expect(await options.count()).toBe(0);
    expect(await trigger.getAttribute('aria-label')).toBe(`Country code: ${chosen![1]} +${chosen![2]}`);
    expect(await hasFocus(page.getByRole('textbox', { name: 'Phone number' }))).toBe(true);

    // The arrow key on the button opens it too; a dial code finds its country; Escape leaves the choice.
    await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(trigger)).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await hasFocus(filter)).toBe(true);
    await page.keyboard.type('44');
    await page.keyboard.press('Enter');
    expect(await trigger.getAttribute('aria-label')).toBe('Country code: United Kingdom +44');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    expect(await hasFocus(filter)).toBe(true);
    await page.keyboard.type('India');
    await page.keyboard.press('Escape');
    expect(await options.count()).toBe(0);
    expect(await hasFocus(trigger)).toBe(true);
    expect(await trigger.getAttribute('aria-expanded')).toBe('false');
    expect(await trigger.getAttribute('aria-label')).toBe('Country code: United Kingdom +44');
    // Back to India for the search below.
    await page.keyboard.press('Enter');
    await page.keyboard.type('+91');
    await page.keyboard.press('Enter');
    expect(await trigger.getAttribute('aria-label')).toBe('Country code: India +91');
    expect(problemsOf(page)).toEqual([]);
  });

  it('a phone search from the keyboard, then the dialogs and menus of the results: focus in, trapped, Escape, back', async () => {
    const page = live;
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, page.getByRole('textbox', { name: 'Phone number' }));
    await page.keyboard.type(demo.phone);
    const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
    await tabTo(page, terms);
    if (!(await terms.isChecked())) await page.keyboard.press('Space');
    expect(await terms.isChecked()).toBe(true);
    // The case the search is filed under sits beside the submit button, after the terms.
    await tabTo(page, page.getByLabel(/^Case reference/));
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(demo.caseReference);
    await tabTo(page, page.getByRole('button', { name: 'Search', exact: true }));
    const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
    await page.keyboard.press('Enter');
    expect((await answer).status()).toBe(200);
    await page.waitForURL('**/results');
    await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
    const dialog = page.getByRole('dialog');

    /** Opens a dialog from `opener` with Enter and checks the focus: in, kept in, and back on Escape. */
    const roundTrip = async (opener: ReturnType<Page['getByRole']>, ready: () => Promise<unknown>) => {
      await tabTo(page, opener, { limit: 150 });
      await page.keyboard.press('Enter');
      await ready();
      await settle(page);
      expect(await focusInside(page, '[role="dialog"]'), await activeLabel(page)).toBe(true);
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press('Tab');
        expect(await focusInside(page, '[role="dialog"]'), `Tab ${i + 1}: ${await activeLabel(page)}`).toBe(
          true,
        );
      }
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press('Shift+Tab');
        expect(
          await focusInside(page, '[role="dialog"]'),
          `Shift+Tab ${i + 1}: ${await activeLabel(page)}`,
        ).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await hasFocus(opener), `focus after Escape: ${await activeLabel(page)}`).toBe(true);
    };

    await roundTrip(page.getByRole('button', { name: /^RC Details: / }).first(), () =>
      dialog.getByText('Owner Name').waitFor(),
    );
    await roundTrip(page.getByRole('button', { name: /^UPI Details: / }).first(), () =>
      dialog.getByText('Full Name').waitFor(),
    );
    await roundTrip(page.getByRole('button', { name: /Open full-size image 1/ }), () => dialog.waitFor());

    // The challans are a table in a named, focusable frame (it scrolls sideways on a narrow screen):
    // the keyboard reaches it, and Escape comes back to the opener.
    const challan = page.getByRole('button', { name: /^Challan Details: / }).first();
    await tabTo(page, challan, { limit: 150 });
    await page.keyboard.press('Enter');
    const challanTable = dialog
      .getByRole('region')
      .filter({ has: page.getByRole('table') })
      .last();
    await challanTable.waitFor();
    await tabTo(page, challanTable, { limit: 4 });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await hasFocus(challan)).toBe(true);

    // The credit report: focus starts on the gender; asking without one says so and comes back to it;
    // the arrow keys choose it.
    const creditReport = page.getByRole('button', { name: /^Credit Report:/ });
    await tabTo(page, creditReport, { limit: 150 });
    await page.keyboard.press('Enter');
    const male = dialog.getByRole('radio', { name: 'Male', exact: true });
    await male.waitFor();
    expect(await hasFocus(male)).toBe(true);
    await tabTo(page, dialog.getByRole('button', { name: 'Download Report' }), { limit: 4 });
    await page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'Please select gender.' }).waitFor();
    expect(await hasFocus(male)).toBe(true);
    await page.keyboard.press('ArrowRight');
    expect(await dialog.getByRole('radio', { name: 'Female', exact: true }).isChecked()).toBe(true);
    // Closing the toast with the mouse takes the focus out of the dialog: Tab brings it back in, and
    // Escape still closes the dialog from outside it.
    await page.locator('.Toastify__close-button').first().click();
    expect(await focusInside(page, '[role="dialog"]')).toBe(false);
    await page.keyboard.press('Tab');
    expect(await focusInside(page, '[role="dialog"]'), await activeLabel(page)).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await hasFocus(creditReport)).toBe(true);

    // Menus: Enter opens with the focus on the first item; Escape closes and gives the focus back.
    await page.evaluate(() => window.scrollTo(0, 0));
    const save = page.getByRole('button', { name: 'Save Results' });
    await tabTo(page, save, { limit: 150, backwards: true });
    await page.keyboard.press('Enter');
    expect(await hasFocus(page.getByRole('button', { name: 'Save as pdf' }))).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'Save as pdf' }).count()).toBe(0);
    expect(await hasFocus(save)).toBe(true);

    const profile = page.getByRole('button', { name: /^Profile: / });
    await tabTo(page, profile, { limit: 20, backwards: true });
    await page.keyboard.press('Enter');
    expect(await hasFocus(page.getByRole('banner').getByRole('link', { name: 'Search history' }))).toBe(true);
    await page.keyboard.press('Tab');
    expect(await activeLabel(page)).toBe('Security');
    // A live account's menu also holds its API keys.
    await page.keyboard.press('Tab');
    expect(await activeLabel(page)).toBe('API keys');
    await page.keyboard.press('Tab');
    expect(await activeLabel(page)).toBe('Logout');
    await page.keyboard.press('Escape');
    expect(await hasFocus(profile)).toBe(true);
    expect(problemsOf(page)).toEqual([]);
  });

  it('the phone menu drawer: focus in, kept in, Escape, back', async () => {
    const page = live;
    await page.setViewportSize(viewports.mobile);
    try {
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const menu = page.getByRole('button', { name: 'Open menu' });
      await tabTo(page, menu, { limit: 5 });
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await drawer.waitFor();
      expect(await hasFocus(page.getByRole('button', { name: 'Close menu' }))).toBe(true);
      for (let i = 0; i < 12; i += 1) {
        await page.keyboard.press('Tab');
        expect(await focusInside(page, '#main-nav-drawer'), await activeLabel(page)).toBe(true);
      }
      await page.keyboard.press('Shift+Tab');
      expect(await focusInside(page, '#main-nav-drawer')).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => drawer.count()).toBe(0);
      expect(await hasFocus(menu)).toBe(true);
      // A link in the drawer works with Enter and closes it.
      await page.keyboard.press('Enter');
      await tabTo(page, drawer.getByRole('link', { name: 'Leak Data Finder' }), { limit: 12 });
      await page.keyboard.press('Enter');
      await page.waitForURL('**/leak-data-finder');
      await expect.poll(() => drawer.count()).toBe(0);
    } finally {
      await page.setViewportSize(viewports.desktop);
    }
    expect(problemsOf(page)).toEqual([]);
  });

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

  it('the leak finder pagination: Tab to a page, Enter; Next; the last page', async () => {
    const page = live;
    await page.goto('/leak-data-finder');
    const value = page.getByRole('textbox', { name: 'Field 1 value' });
    await value.waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, value);
    await page.keyboard.type(demo.leakCommonName);
    let answer = page.waitForResponse((res) => res.url().includes('/api/leak-data-finder/'));
    await page.keyboard.press('Enter');
    expect((await answer).status()).toBe(200);
    const nav = page.getByRole('navigation', { name: 'Leak results pages' });
    const summary = page.getByRole('heading', { level: 2 });
    await nav.waitFor();
    const pages = Number(
      /of ([\d,]+) pages/.exec((await summary.textContent()) ?? '')?.[1]?.replace(/,/g, ''),
    );
    expect(pages).toBeGreaterThan(4);
    const pageButton = (n: number) => nav.getByRole('button', { name: `Page ${n}`, exact: true });

    const go = async (target: ReturnType<Page['getByRole']>, expected: number) => {
      await tabTo(page, target, { limit: 120 });
      answer = page.waitForResponse((res) => res.url().includes('/api/leak-data-finder/'));
      await page.keyboard.press('Enter');
      expect(new URL((await answer).url()).searchParams.get('page')).toBe(String(expected));
      await summary.getByText(`Page ${expected} of ${pages.toLocaleString('en-US')} pages.`).waitFor();
      expect(await pageButton(expected).getAttribute('aria-current')).toBe('page');
    };
    await go(pageButton(2), 2);
    // The focus went to the new page's heading, so the next Tab starts from the results.
    expect(await hasFocus(summary)).toBe(true);
    await go(nav.getByRole('button', { name: 'Next' }), 3);
    await go(pageButton(pages), pages);
    expect(await nav.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await go(nav.getByRole('button', { name: 'Previous' }), pages - 1);
    expect(problemsOf(page)).toEqual([]);
  });
});
