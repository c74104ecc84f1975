import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * Exports from the browser: 'Save Results' → 'Save as CSV' / 'Save as JSON' on the phone results
 * page, and 'Export CSV' on /history, save the server's files of what it stored; each file is read
 * back and checked.
 */

const browser = useBrowser();
let token: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fp-e2e-exports-'));
  const email = uniqueEmail('exporter');
  const password = 'case file passphrase';
  expect(
    (
      await api('/api/register', {
        body: { name: 'Case Exporter', email, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  token = await apiSignIn(email, password);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function textOf(download: Download): Promise<string> {
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return readFileSync(file, 'utf8');
}

/** Opens 'Save Results' and picks one item, with the download listener registered before the click. */
async function saveFrom(page: Page, item: string): Promise<Download> {
  await page.getByRole('button', { name: /Save Results/ }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: item, exact: true }).click();
  return downloading;
}

const today = () => new Date().toISOString().slice(0, 10);

describe('exports', () => {
  it('saves the phone results as CSV and JSON, and the history as CSV', async () => {
    const page = await browser.newPage();
    await storeSession(page, token);
    await page.goto('/dashboard');
    await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/results');

    // The menu keeps its keyboard behaviour: focus on the first item, Escape back to the toggle.
    const toggle = page.getByRole('button', { name: /Save Results/ });
    await toggle.click();
    expect(
      await page.getByRole('button', { name: 'Save as pdf' }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);

    const csv = await saveFrom(page, 'Save as CSV');
    expect(csv.suggestedFilename()).toBe(`tel-919876543210-${today()}.csv`);
    const csvText = await textOf(csv);
    const lines = csvText.split('\r\n');
    expect(lines[0]).toBe('section,label,value,source');
    expect(lines).toContain('Upi Ids,,rohan.deshmukh@oksbi,Gov');
    expect(lines).toContain('RC Numbers,,MH12FP1234,Gov');

    const json = await saveFrom(page, 'Save as JSON');
    expect(json.suggestedFilename()).toBe(`tel-919876543210-${today()}.json`);
    const document = JSON.parse(await textOf(json));
    expect(document).toMatchObject({ kind: 'tel', query: '919876543210', case_reference: null });
    expect(document.lookup_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(document.result.wpData).toBeTruthy();

    await page.goto('/history');
    await page
      .getByRole('cell', { name: /9876543210/ })
      .first()
      .waitFor();
    await page.getByRole('combobox', { name: 'Kind' }).selectOption('tel');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const history = await downloading;
    expect(history.suggestedFilename()).toBe(`history-tel-${today()}.csv`);
    const rows = (await textOf(history)).trimEnd().split('\r\n');
    expect(rows[0]).toBe('id,time,kind,query_typed,query,cost,status,cached,case_reference,refunded');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`${document.lookup_id},`);
    expect(rows[1]).toMatch(/,tel,(\+?91 ?)?9876543210,919876543210,1,complete,false,,false$/);
  });
});
