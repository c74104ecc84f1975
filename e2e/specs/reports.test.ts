import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * Reports from the browser (spec §2.5, §7, §8): 'Save Results' → 'Save as pdf', 'AI Report' and the
 * RC modal's 'Download pdf' save the server's PDFs under the spec's file names. The text of each
 * downloaded file is read back with pdftotext.
 */

const run = promisify(execFile);
const browser = useBrowser();
let token: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fp-e2e-reports-'));
  const email = uniqueEmail('reporter');
  const password = 'case file passphrase';
  expect(
    (
      await api('/api/register', {
        body: { name: 'Case Reporter', email, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  token = await apiSignIn(email, password);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function textOf(download: Download): Promise<string> {
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return (await run('pdftotext', ['-layout', file, '-'])).stdout;
}

async function richPhoneResults(): Promise<Page> {
  const page = await browser.newPage();
  await storeSession(page, token);
  await page.goto('/dashboard');
  await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
  await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL('**/results');
  return page;
}

describe('report downloads', () => {
  it('saves the lookup report and the AI report with the spec file names', async () => {
    const page = await richPhoneResults();

    await page.getByRole('button', { name: /Save Results/ }).click();
    const [report] = await Promise.all([
      page.waitForEvent('download'),
      page.getByText('Save as pdf', { exact: true }).click(),
    ]);
    expect(report.suggestedFilename()).toBe('report-9876543210.pdf');
    const text = await textOf(report);
    expect(text).toContain('Footprint lookup report');
    expect(text).toContain('+91 9876543210');
    expect(text).toContain('Case Reporter');
    expect(text).toContain('Sandbox data — synthetic');

    const [ai] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'AI Report' }).click(),
    ]);
    expect(ai.suggestedFilename()).toBe('ai-generated-report-9876543210.pdf');
    const aiText = await textOf(ai);
    expect(aiText).toMatch(/deterministic writer/i);
    expect(aiText).toMatch(/next steps/i);
  });

  it('saves the RC details PDF from the modal', async () => {
    const page = await richPhoneResults();
    const rcButton = page.getByRole('button', { name: /^RC Details: / }).first();
    const rc = (await rcButton.getAttribute('aria-label'))!.replace('RC Details: ', '');
    await rcButton.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'RC Details' }).waitFor();
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download pdf' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`rc-details-${rc}.pdf`);
    const text = await textOf(pdf);
    expect(text).toContain(rc);
    expect(text.toLowerCase()).not.toContain('client id');
  });

  it('shows the spec error toast when the report cannot be made', async () => {
    const page = await richPhoneResults();
    await page.route('**/api/generate-report', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await page.getByRole('button', { name: /Save Results/ }).click();
    await page.getByText('Save as pdf', { exact: true }).click();
    await page.locator('.Toastify').getByText('Error generating report. Please try again.').waitFor();
  });
});
