import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/a11y.ts';
import { apiSignIn, demoPassword } from '../support/api.ts';
import { openInApp, problemsOf, uniqueEmail, useBrowser } from '../support/browser.ts';
import {
  demo,
  heading1,
  look,
  makeOfficer,
  type Officer,
  SCREEN_TOUR_MS,
  search,
  tourPages,
} from '../support/screens.ts';

/**
 * The signed-in screens and dialogs of the product at 1440×900 and 390×844, with the sandbox data of
 * the README's demo identities, then the admin's (the screen tours are three files: this one,
 * screens-public and screens-keyboard). Each is saved as docs/screenshots/screen-<name>-<desktop|mobile>.png
 * and checked with axe-core (WCAG 2.0, 2.1 and 2.2, A and AA): no violation.
 *
 * One signed-in page is reused from screen to screen and resized for the phone picture, so the searches
 * run once; it moves from screen to screen inside the app (support/browser.ts, openInApp), as its links
 * do, where a fresh load is not what a screen shows (the empty results page is loaded on its own). They spend the credits of a live account made for this file by demo-admin, whose own page
 * the admin tour then opens. E2E_TIMINGS=1 prints how long each look took (settling, axe, picture).
 */

const browser = useBrowser();
const { pageAs } = tourPages(browser);

let adminToken: string;
let officer: Officer;

beforeAll(async () => {
  adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword);
  officer = await makeOfficer(adminToken, uniqueEmail('screens'));
});

/** The live account's page: made by the first signed-in test (a page belongs to a test), then reused. */
let live: Page;

describe('signed-in screens', { timeout: SCREEN_TOUR_MS }, () => {
  it('dashboard: phone and e-mail search, the country list, the profile menu, the mobile menu', async () => {
    live = await pageAs(officer.token, '/dashboard', true);
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

  it('username: the search form, the rich demo handle with the evidence of an account open, a name found nowhere, and one most sites blocked', async () => {
    const page = live;
    await openInApp(page, '/dashboard');
    await page.getByRole('radio', { name: 'Username' }).check({ force: true });
    const found = await look(page, 'dashboard-username');

    await search(page, 'username', demo.username);
    await heading1(page, `@${demo.username}`).waitFor();
    await page
      .getByRole('button', { name: /^Evidence of / })
      .first()
      .click();
    await page.getByText('SHA-256').first().waitFor();
    const unasked = page.getByRole('region', { name: 'Sites that could not say' });
    await unasked.locator('summary', { hasText: 'Blocked' }).click();
    found.push(...(await look(page, 'results-username')));

    await search(page, 'username', demo.usernameNowhere);
    await page.getByRole('heading', { name: 'No account found' }).waitFor();
    found.push(...(await look(page, 'results-username-nowhere')));

    // A bad day: a third of the sites blocked; the page says the check is partial.
    await search(page, 'username', demo.usernameBlocked);
    await heading1(page, `@${demo.usernameBlocked}`).waitFor();
    await page.getByText(/^A partial check/).waitFor();
    found.push(...(await look(page, 'results-username-blocked')));
    expectAccessible(found);
    expect(problemsOf(page)).toEqual([]);
  }, 180_000);

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
    await openInApp(page, '/leak-data-finder');
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
    await openInApp(page, '/corporate');
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

    await openInApp(page, '/verification-id');
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
    await openInApp(page, '/help');
    await heading1(page).waitFor();
    const found = await look(page, 'help');

    await openInApp(page, '/history');
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
});

describe('admin screens', { timeout: SCREEN_TOUR_MS }, () => {
  it('users, a user, the new-user dialog, audit trail and an event, units, providers, leak sources, settings', async () => {
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

    await openInApp(page, `/admin/users/${officer.id}`);
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
      ['Units', 'Units', 'admin-units'],
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
