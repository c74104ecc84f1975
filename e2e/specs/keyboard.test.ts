import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@footprint/domain';
import type { FileChooser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFocus, openSignedIn, tabTo, viewports } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * The keyboard alone, end to end: no click, no fill, no element.click(). A live account uploads a
 * list on /bulk (the file input reached with Tab and opened with Space), checks it, starts it and opens
 * its rows; then makes an API key, copies it from the dialog that shows it once, closes that dialog
 * with Escape, and revokes the key through its confirmation dialog. After every key press that moves
 * the focus, the test asserts where it is (document.activeElement), so focus dropped on the page's
 * body fails it. The account is made for this file by demo-admin.
 */

const browser = useBrowser();
const bulk = messages.bulkPage;
const keys = messages.apiKeys;
let token: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fp-e2e-keyboard-'));
  const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const email = uniqueEmail('keyboard');
  const password = 'keyboard only passphrase';
  const created = await api('/api/admin/users', {
    body: { name: 'Keyboard Officer', email, password, app_mode: 'live', credits: 40 },
    token: admin,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  token = await apiSignIn(email, password);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits until `target` has the focus (document.activeElement); fails saying what has it instead. */
async function expectFocusOn(page: Page, target: Locator, what: string): Promise<void> {
  const focused = () => target.evaluate((el) => el === document.activeElement).catch(() => false);
  await expect
    .poll(focused, { timeout: 5000 })
    .toBe(true)
    .catch(async () => {
      throw new Error(`the focus should be on ${what}, but is on ${await describeFocus(page)}`);
    });
}

describe('keyboard only', () => {
  it('/bulk: picks a file, checks it, starts it and opens its rows', async () => {
    const page = await browser.newPage(viewports.desktop);
    // Playwright intercepts the file chooser only once a listener exists, and turns that on with a
    // message of its own: listening from the start means a loaded machine cannot let the Space press
    // reach the browser before the interception (the native chooser then opens and no event comes).
    const choosers: FileChooser[] = [];
    page.on('filechooser', (opened) => choosers.push(opened));
    await openSignedIn(page, token, '/bulk');
    await page.getByRole('heading', { name: bulk.title, level: 1 }).waitFor();
    await page.getByText(bulk.jobsEmpty).waitFor();

    // The kind of list: the radio group takes one Tab stop, the arrows move the choice.
    const phone = page.getByRole('radio', { name: bulk.types.tel });
    const email = page.getByRole('radio', { name: bulk.types.email });
    await tabTo(page, phone);
    await page.keyboard.press('ArrowRight');
    await expectFocusOn(page, email, 'the e-mail radio');
    expect(await email.isChecked()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await expectFocusOn(page, phone, 'the phone radio');
    expect(await phone.isChecked()).toBe(true);

    // The file input, opened with Space: the browser's file chooser gets the list.
    const file = join(dir, 'numbers.csv');
    writeFileSync(file, ['phone', '9876543210', '9123456780', '12ab'].join('\n'));
    const fileInput = page.getByLabel(bulk.fileLabel);
    await tabTo(page, fileInput);
    await expectFocusOn(page, fileInput, 'the file input before Space');
    await page.keyboard.press('Space');
    await expect.poll(() => choosers.length, { timeout: 15_000 }).toBe(1);
    await choosers[0]?.setFiles(file);
    await page.getByText(/^numbers\.csv \(/).waitFor();
    await expectFocusOn(page, fileInput, 'the file input after choosing');

    // Check list: the summary that answers it takes the focus.
    const check = page.getByRole('button', { name: bulk.check });
    await tabTo(page, check);
    await page.keyboard.press('Enter');
    const summary = page.getByRole('region', { name: bulk.previewTitle });
    await summary.waitFor();
    await expectFocusOn(page, summary.getByRole('heading', { name: bulk.previewTitle }), 'the summary');
    await summary.getByRole('cell', { name: '12ab', exact: true }).waitFor();

    // Start: the focus goes on to the list of jobs, where the new job shows.
    const start = page.getByRole('button', { name: bulk.start, exact: true });
    await tabTo(page, start);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, page.getByRole('heading', { name: bulk.jobsTitle }), 'the jobs heading');
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'numbers.csv' }) });
    await card.getByText(bulk.statuses.done!, { exact: true }).waitFor({ timeout: 30_000 });

    // Its rows, opened with Enter; the toggle keeps the focus and says it is open.
    const viewRows = card.getByRole('button', { name: bulk.viewRowsLabel('numbers.csv') });
    await tabTo(page, viewRows);
    await page.keyboard.press('Enter');
    const rows = card.getByRole('region', { name: bulk.rowsTitle('numbers.csv') }).first();
    await rows.getByRole('cell', { name: 'ROHAN SURESH DESHMUKH', exact: true }).waitFor();
    const hideRows = card.getByRole('button', { name: bulk.hideRowsLabel('numbers.csv') });
    await expectFocusOn(page, hideRows, 'the rows toggle');
    expect(await hideRows.getAttribute('aria-expanded')).toBe('true');
    expect(problemsOf(page)).toEqual([]);
  });

  it('/api-keys: makes a key, copies it, Escape gives the focus back; revoking lands on its row', async () => {
    const page = await browser.newPage(viewports.desktop);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSignedIn(page, token, '/api-keys');
    await page.getByRole('heading', { name: keys.title, level: 1 }).waitFor();
    await page.getByText(keys.empty).waitFor();

    // An empty name is said under the field, and the focus goes to it.
    const create = page.getByRole('button', { name: keys.create, exact: true });
    const name = page.getByLabel(keys.name, { exact: true });
    await tabTo(page, create);
    await page.keyboard.press('Enter');
    await page.getByText(keys.nameRequired).waitFor();
    await expectFocusOn(page, name, 'the name field');
    await page.keyboard.type('Keyboard script');
    expect(await name.inputValue()).toBe('Keyboard script');

    // Create key: the dialog shows the key once, its confirming button has the focus.
    await tabTo(page, create);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: keys.shownOnceTitle });
    await dialog.waitFor();
    await expectFocusOn(page, dialog.getByRole('button', { name: keys.done }), 'the dialog’s button');
    const shown = (await dialog.getByTestId('new-api-key').textContent())?.trim() ?? '';
    expect(shown).toMatch(/^fp_[A-Za-z0-9_-]{43}$/);

    // Copy, one Shift+Tab back, with Space.
    const copy = dialog.getByRole('button', { name: keys.copyKey });
    await tabTo(page, copy, { backwards: true, limit: 3 });
    await page.keyboard.press('Space');
    await dialog.getByRole('status').getByText(messages.results.copied).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    await expectFocusOn(page, copy, 'the copy button');

    // Tab stays inside the dialog.
    for (let press = 0; press < 4; press += 1) {
      await page.keyboard.press('Tab');
      expect(
        await dialog.evaluate((el) => el.contains(document.activeElement)),
        await describeFocus(page),
      ).toBe(true);
    }

    // Escape closes it, and the focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocusOn(page, create, 'Create key, which opened the dialog');
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Keyboard script' });
    await row.waitFor();

    // Revoke: Cancel has the focus first; Escape gives it back to Revoke.
    const revoke = row.getByRole('button', { name: `${keys.revoke} Keyboard script` });
    await tabTo(page, revoke);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: keys.revokeTitle });
    await confirm.waitFor();
    await expectFocusOn(page, confirm.getByRole('button', { name: keys.cancel }), 'Cancel');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await expectFocusOn(page, revoke, 'Revoke, which opened the dialog');

    // Confirmed, the key is revoked and its Revoke button goes: the focus lands on the key's row.
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await page.keyboard.press('Tab');
    await expectFocusOn(page, confirm.getByRole('button', { name: keys.revoke, exact: true }), 'Revoke');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await row.getByText(keys.statusRevoked).waitFor();
    await expectFocusOn(page, row, 'the revoked key’s row');
    expect(problemsOf(page)).toEqual([]);
  });
});
