import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasFocus, settle, tabTo, viewports } from '../support/a11y.ts';
import { apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, uniqueEmail, useBrowser } from '../support/browser.ts';
import {
  activeLabel,
  demo,
  focusInside,
  makeOfficer,
  type Officer,
  SCREEN_TOUR_MS,
  tourPages,
} from '../support/screens.ts';

/**
 * The keyboard alone (the screen tours are three files: this one, screens-public and
 * screens-signed-in): the country picker, a phone search and the dialogs and menus of its results, the
 * phone menu drawer and the leak finder's pagination, each with Tab, the arrows, Enter and Escape, and a
 * visible focus wherever it lands. The searches spend the credits of a live account made for this file
 * by demo-admin, on one page kept from test to test.
 */

const browser = useBrowser();
const { pageAs } = tourPages(browser);

let officer: Officer;

beforeAll(async () => {
  const adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword);
  officer = await makeOfficer(adminToken, uniqueEmail('screens-keyboard'));
});

/** The live account's page: made by the first test (a page belongs to a test), then reused. */
let live: Page;

describe('keyboard alone', { timeout: SCREEN_TOUR_MS }, () => {
  it('the country picker: open, search, arrow keys, Enter, Escape', async () => {
    // A fresh page (what a screen tour leaves behind, a case carried over, a country chosen, a toast,
    // changes the order Tab walks), kept for the tests after it.
    const page = await pageAs(officer.token, '/dashboard', true);
    live = page;
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
