import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeProblems, screenPicture, settle, tabTo, viewports } from '../support/a11y.ts';
import { api, apiSignIn } from '../support/api.ts';
import { picture, problemsOf, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * The public report check (/verify): a court or an editor drops a report PDF (or picks it with the
 * keyboard); the browser hashes it and asks the server only whether a report with that SHA-256 exists
 * and when it was made. The file itself never leaves the browser.
 */

const browser = useBrowser();
let dir: string;
let original: { path: string; bytes: Buffer; sha256: string };
let altered: { path: string; bytes: Buffer; sha256: string };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fp-e2e-verify-'));
  const email = uniqueEmail('verifier');
  const password = 'report check passphrase';
  expect(
    (
      await api('/api/register', {
        body: { name: 'Report Maker', email, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  const token = await apiSignIn(email, password);
  const baseURL = inject('baseURL');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const lookup = await fetch(`${baseURL}/api/tel?number=919876543210`, { headers });
  expect(lookup.status).toBe(200);
  // The real report, downloaded as the browser's 'Save as pdf' downloads it.
  const res = await fetch(`${baseURL}/api/generate-report`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ userInput: '9876543210', type: 'tel', results: await lookup.json() }),
  });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  expect(res.headers.get('x-report-sha256')).toBe(sha256(bytes));
  original = { path: join(dir, 'report-9876543210.pdf'), bytes, sha256: sha256(bytes) };
  writeFileSync(original.path, bytes);
  // One byte changed in the middle of the file: what a tampered copy looks like.
  const changed = Buffer.from(bytes);
  const middle = Math.floor(changed.length / 2);
  changed[middle] = changed[middle]! ^ 0x01;
  altered = { path: join(dir, 'report-altered.pdf'), bytes: changed, sha256: sha256(changed) };
  writeFileSync(altered.path, changed);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every request the page sends, with its body. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

/** No request carries the file: only /api/verify has a body, and that body is the hash alone. */
function expectNoFileSent(requests: Request[], hashes: string[]) {
  const withBody = requests.filter((request) => (request.postDataBuffer()?.length ?? 0) > 0);
  for (const request of withBody) {
    const body = request.postDataBuffer()!;
    expect(body.includes('%PDF'), request.url()).toBe(false);
    expect(body.length, request.url()).toBeLessThan(200);
  }
  const checks = withBody.filter((request) => new URL(request.url()).pathname === '/api/verify');
  expect(checks.map((request) => request.postDataJSON())).toEqual(hashes.map((hash) => ({ sha256: hash })));
  expect(withBody).toHaveLength(checks.length);
}

const status = (page: Page) => page.getByRole('status');

describe('/verify', () => {
  it('is linked from the landing page footer', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Verify a report', exact: true }).click();
    await page.waitForURL('**/verify');
    await page.getByRole('heading', { name: 'Verify a report', level: 1 }).waitFor();
    expect(problemsOf(page)).toEqual([]);
  });

  it('says a report chosen with the keyboard matches, and when it was made, without sending the file', async () => {
    const page = await browser.newPage(viewports.desktop);
    const requests = recordRequests(page);
    await page.goto('/verify');
    const input = page.getByLabel('Report file');
    // Listen before any key is pressed: Playwright turns on file-chooser interception when the first
    // listener is added, and a chooser opened before that never reaches the test.
    const chooserOpened = page.waitForEvent('filechooser', { timeout: 30_000 });
    chooserOpened.catch(() => undefined); // awaited below; a failed tabTo must not leave it unhandled
    await tabTo(page, input);
    await page.keyboard.press('Space');
    const chooser = await chooserOpened;
    await chooser.setFiles(original.path);
    await expect
      .poll(() => status(page).innerText(), { timeout: 15_000 })
      .toMatch(
        /Matches: Footprint generated exactly this file, made on \d{1,2} \w{3,4} \d{4}, \d{2}:\d{2}:\d{2}\./,
      );
    expect(await status(page).innerText()).toContain(original.sha256);
    expect(await status(page).getAttribute('aria-live')).toBe('polite');
    expectNoFileSent(requests, [original.sha256]);

    await settle(page);
    expect(await axeProblems(page, 'verify')).toEqual([]);
    await picture(page, screenPicture('verify', 'desktop'));
  });

  it('says a modified file dropped on the page does not match', async () => {
    const page = await browser.newPage(viewports.mobile);
    const requests = recordRequests(page);
    await page.goto('/verify');
    await page.getByLabel('Report file').waitFor();
    // A real drop: the file reaches the page through a DataTransfer, as from the desktop.
    await page.evaluate(
      ({ bytes, name }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
        const zone = document.querySelector('[data-testid="verify-drop-zone"]')!;
        for (const type of ['dragenter', 'dragover', 'drop']) {
          zone.dispatchEvent(
            new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }),
          );
        }
      },
      { bytes: Array.from(altered.bytes), name: 'report-altered.pdf' },
    );
    await expect.poll(() => status(page).innerText(), { timeout: 15_000 }).toContain('No match');
    expect(await status(page).innerText()).not.toContain('Matches');
    expect(await status(page).innerText()).toContain(altered.sha256);
    expectNoFileSent(requests, [altered.sha256]);

    await settle(page);
    expect(await axeProblems(page, 'verify (phone)')).toEqual([]);
    await picture(page, screenPicture('verify', 'mobile'));
  });
});
