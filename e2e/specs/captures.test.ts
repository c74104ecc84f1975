import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CAPTURE_ARTEFACTS,
  CAPTURE_PREVIEW,
  type CaseCapture,
  captureMessages,
  messages,
} from '@footprint/domain';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, dismissToasts, screenPicture, settle, viewports } from '../support/a11y.ts';
import { api, apiSignIn } from '../support/api.ts';
import {
  chromiumPath,
  expectNoSidewaysScroll,
  picture,
  problemsOf,
  storeSession,
  uniqueEmail,
  useBrowser,
} from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

/**
 * Web pages captured into a case, end to end on a server of its own with capture turned on: an
 * investigator captures a synthetic page served on 127.0.0.1 by this test from the case page, sees it
 * queued then done with its screenshot's top, opens its preview (the full screenshot, the facts, each
 * file's SHA-256, the page's text), downloads its ZIP and drops it on /verify (signature valid, every
 * file matches); a ZIP with one byte of page.mhtml changed says that file does not match, and a
 * capture's loose files without two of its files say they are missing. A result's 'Capture' asks for
 * the case the search was filed under. The capture is removed with a reason, and stays listed as
 * removed; the evidence bundle then holds the capture's manifest and the signed removal.
 */

const browser = useBrowser();
const t = messages.captures;
const v = messages.captures.verify;

/** The synthetic page: a title, a heading, a paragraph and a small picture. */
const PAGE_TITLE = 'Synthetic shop notice';
const PARAGRAPH = 'The shop on Station Road is closed on Sundays. Parcels are kept at the counter.';
const pageHtml = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${PAGE_TITLE}</title>
<style>body{font-family:sans-serif;margin:2rem;background:#fffbea;color:#1f2937}h1{color:#92400e}
.band{height:2400px;background:linear-gradient(#fde68a,#fca5a5)}</style></head>
<body><h1>Station Road General Store</h1><p>${PARAGRAPH}</p>
<img src="/badge.svg" alt="Store badge" width="96" height="96"><div class="band"></div>
<p>End of the synthetic page.</p></body></html>`;
const badgeSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><circle cx="48" cy="48" r="44" fill="#0ea5e9"/><text x="48" y="56" font-size="24" text-anchor="middle" fill="#fff">FP</text></svg>';

let site: Server;
let pageUrl: string;
let server: RunningServer;
let token: string;
let caseId: string;
const reference = 'OP-HARBOUR';
const at = (path: string) => `${server.url}${path}`;

beforeAll(async () => {
  site = createServer((request, response) => {
    if (request.url === '/badge.svg') {
      response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(badgeSvg);
    } else if (request.url === '/notice') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-synthetic': 'yes' })
        .end(pageHtml);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const { port } = site.address() as AddressInfo;
  pageUrl = `http://127.0.0.1:${port}/notice`;
  server = await startProductServer({
    CAPTURE_ENABLED: 'true',
    CAPTURE_ALLOW_ADDRESSES: `127.0.0.1:${port}`,
    CAPTURE_CHROMIUM_PATH: chromiumPath,
    SANDBOX_LEAK_RECORDS: '0',
  });
  const email = uniqueEmail('capturer');
  const password = 'capture passphrase 7';
  const registered = await api(
    '/api/register',
    { body: { name: 'Case Officer', email, password, password_confirmation: password } },
    server.url,
  );
  expect(registered.status).toBe(201);
  token = await apiSignIn(email, password, server.url);
  const made = await api(
    '/api/cases',
    { body: { title: 'Notices at Station Road', reference }, token },
    server.url,
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  caseId = made.body.id as string;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function openCase(page: Page) {
  await storeSession(page, token, server.url);
  await page.goto(at(`/cases/${caseId}`));
  await page.getByRole('heading', { name: 'Notices at Station Road', level: 1 }).waitFor();
}

const capturesSection = (page: Page) => page.getByRole('region', { name: new RegExp(`^${t.title}`) });

/** The captures of the case as the API lists them. */
async function listed(): Promise<CaseCapture[]> {
  const answer = await api(`/api/cases/${caseId}/captures`, { token }, server.url);
  expect(answer.status).toBe(200);
  return answer.body.data as CaseCapture[];
}

/** Drops files on /verify's zone as a desktop drop does (a DataTransfer). */
async function drop(page: Page, files: Array<{ name: string; bytes: Uint8Array; type?: string }>) {
  await page.evaluate(
    (list) => {
      const transfer = new DataTransfer();
      for (const file of list) {
        const binary = atob(file.base64);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      const zone = document.querySelector('[data-testid="verify-drop-zone"]')!;
      for (const type of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    },
    files.map((file) => ({
      name: file.name,
      type: file.type ?? '',
      base64: Buffer.from(file.bytes).toString('base64'),
    })),
  );
}

/** Scrolls /verify to its capture checks, under the page's header. */
const showChecks = (page: Page) =>
  page
    .getByRole('status')
    .getByRole('heading', { level: 2 })
    .evaluate((element) => {
      element.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -80);
    });

/** The result the page shows for one file of a checked capture. */
const fileResult = (page: Page, name: string, nth = 0) =>
  page.getByRole('status').getByRole('row').filter({ hasText: name }).nth(nth).getByRole('cell').nth(1);

let captureId: string;
let zipBytes: Buffer;

describe('captured web pages', () => {
  it('captures a page from the case page, refusing a bad address first, and lists it with its screenshot', async () => {
    const page = await browser.newPage({ ...viewports.desktop, keep: true });
    await openCase(page);
    const section = capturesSection(page);
    await section.getByText(t.empty).waitFor();
    const field = section.getByLabel(t.urlLabel);
    const posts: string[] = [];
    // The pictures the list asks for: its thumbnail, not the full screenshot.
    const pictures: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/cases/${caseId}/captures`))
        posts.push(request.postData() ?? '');
      const picture = /\/captures\/[^/]+\/(preview|files\/page\.png)$/.exec(new URL(request.url()).pathname);
      if (picture) pictures.push(picture[1]!);
    });

    // Checked in the browser with the API's own rule: said under the field, nothing sent.
    await field.fill('ftp://127.0.0.1/notice');
    await section.getByRole('button', { name: t.capture, exact: true }).click();
    await section.getByText(captureMessages.url, { exact: true }).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(posts).toEqual([]);

    await field.fill(pageUrl);
    await section.getByRole('button', { name: t.capture, exact: true }).click();
    await page.locator('.Toastify').getByText(t.queued).waitFor();
    expect(posts.map((body) => JSON.parse(body))).toEqual([{ url: pageUrl }]);
    expect(await field.inputValue()).toBe('');

    // Queued or running first, then done: the list is asked again until it is.
    const list = section.getByRole('list', { name: t.listLabel(1) });
    const row = list.getByRole('listitem');
    await row.getByText(PAGE_TITLE, { exact: true }).waitFor({ timeout: 90_000 });
    await row.getByText(t.status.done, { exact: true }).waitFor({ timeout: 90_000 });
    const [capture] = await listed();
    expect(capture).toMatchObject({ status: 'done', url: pageUrl, title: PAGE_TITLE, http_status: 200 });
    captureId = capture!.id;
    await row.getByText(pageUrl, { exact: true }).first().waitFor();
    await row.getByText('200', { exact: true }).waitFor();

    // The thumbnail of the page's top, its first screen at half size (not the full page.png), is the
    // way to its preview.
    expect(capture!.preview).toBe(true);
    const thumbnail = row.getByRole('link', { name: t.openPreview(PAGE_TITLE) }).first();
    await expect
      .poll(
        () => thumbnail.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        {
          timeout: 15_000,
        },
      )
      .toBe(CAPTURE_PREVIEW.width);
    expect(await thumbnail.locator('img').getAttribute('src')).toMatch(/^blob:/);
    expect(pictures).toEqual(['preview']);

    await dismissToasts(page);
    await settle(page);
    expect(await axeProblems(page, 'case with captures')).toEqual([]);
    await section.evaluate((element) => {
      element.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -90);
    });
    await picture(page, screenPicture('case-captures', 'desktop'));
    await page.setViewportSize(viewports.mobile);
    await settle(page);
    await expectNoSidewaysScroll(page);
    expect(await axeProblems(page, 'case with captures (phone)')).toEqual([]);
    await section.evaluate((element) => {
      element.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -70);
    });
    await picture(page, screenPicture('case-captures', 'mobile'));
    expect(problemsOf(page)).toEqual([]);
  }, 180_000);

  it("opens the preview: the whole screenshot, the capture's facts, each file's SHA-256 and the page's text; saves the ZIP", async () => {
    const page = await browser.newPage(viewports.desktop);
    await openCase(page);
    const section = capturesSection(page);
    await section
      .getByRole('link', { name: t.openPreview(PAGE_TITLE) })
      .last()
      .click();
    await page.waitForURL(`**/cases/${caseId}/captures/${captureId}`);
    await page.getByRole('heading', { name: PAGE_TITLE, level: 1 }).waitFor();
    const [capture] = await listed();

    const facts = page.getByRole('region', { name: t.facts });
    const fact = (term: string) =>
      facts.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
    expect(await fact(t.requestedUrl).innerText()).toBe(pageUrl);
    expect(await fact(t.capturedBy).innerText()).toContain('Case Officer');
    expect(await fact(t.httpStatus).innerText()).toBe('200');
    expect(await fact(t.manifestSha256).innerText()).toBe(capture!.manifest_sha256);
    expect(await fact(t.capturedAt).innerText()).toMatch(/\d{1,2} \w{3,4} \d{4}, \d{2}:\d{2}:\d{2}/);

    const files = page.getByRole('region', { name: new RegExp(`^${t.files}`) });
    for (const file of capture!.files) {
      const item = files.getByRole('listitem').filter({ hasText: file.name });
      await item.getByText(CAPTURE_ARTEFACTS[file.name].label, { exact: true }).waitFor();
      await item.getByText(file.sha256, { exact: true }).waitFor();
      await item.getByRole('button', { name: t.fileDownload(file.name) }).waitFor();
    }
    expect(capture!.files.map((file) => file.name).sort()).toEqual(Object.keys(CAPTURE_ARTEFACTS).sort());

    // The full screenshot, in a frame that scrolls.
    const frame = page.getByRole('region', { name: t.screenshot });
    const shot = frame.getByRole('img', { name: t.screenshotLabel(PAGE_TITLE) });
    await expect
      .poll(() => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight), {
        timeout: 15_000,
      })
      .toBeGreaterThan(900);
    expect(await frame.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);

    // The page's text, fetched when its block is opened.
    await page.getByText(t.pageText, { exact: true }).click();
    await page.getByText(PARAGRAPH).waitFor();

    // One artefact, under its own name.
    const text = page.waitForEvent('download');
    await files.getByRole('button', { name: t.fileDownload('page.txt') }).click();
    const textFile = await text;
    expect(textFile.suggestedFilename()).toBe('page.txt');
    expect((await readFile((await textFile.path())!)).toString('utf8')).toContain(PARAGRAPH);

    // The ZIP: the signed manifest, its signature, every artefact and the public key.
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: t.download, exact: true }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe(`capture-op-harbour-001.zip`);
    zipBytes = await readFile((await download.path())!);
    const unzipped = unzipSync(zipBytes);
    expect(Object.keys(unzipped)).toEqual(
      expect.arrayContaining(['manifest.json', 'manifest.sig', 'page.mhtml']),
    );
    expect(unzipped['manifest.sig']).toHaveLength(64);
    const manifest = JSON.parse(strFromU8(unzipped['manifest.json']!)) as {
      files: { name: string; sha256: string }[];
    };
    for (const file of manifest.files) expect(sha256(unzipped[file.name]!)).toBe(file.sha256);
    expect(sha256(unzipped['manifest.json']!)).toBe(capture!.manifest_sha256);
    await page.locator('.Toastify').getByText(t.downloaded).waitFor();

    await dismissToasts(page);
    await settle(page);
    expect(await axeProblems(page, 'capture preview')).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await picture(page, screenPicture('capture-preview', 'desktop'));
    await page.setViewportSize(viewports.mobile);
    await settle(page);
    await expectNoSidewaysScroll(page);
    expect(await axeProblems(page, 'capture preview (phone)')).toEqual([]);
    await picture(page, screenPicture('capture-preview', 'mobile'));
    await facts.evaluate((element) => {
      element.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -70);
    });
    await settle(page);
    await picture(page, screenPicture('capture-preview-facts', 'mobile'));
    expect(problemsOf(page)).toEqual([]);
  }, 120_000);

  it("says on /verify that the ZIP's signature is valid and every file matches, sending no file", async () => {
    const page = await browser.newPage(viewports.desktop);
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.goto(at('/verify'));
    await page.getByLabel('Report file').waitFor();
    await drop(page, [{ name: 'capture-op-harbour-001.zip', bytes: zipBytes, type: 'application/zip' }]);
    const status = page.getByRole('status');
    await status.getByText(v.valid).waitFor({ timeout: 20_000 });
    await status.getByText(v.signatureValid, { exact: true }).waitFor();
    await status.getByText(v.recorded, { exact: true }).waitFor();
    for (const name of Object.keys(CAPTURE_ARTEFACTS)) {
      expect(await fileResult(page, name).innerText()).toBe(v.fileStatuses.match);
    }
    // Only the manifest and the fingerprints went out; a capture's ZIP is not checked whole.
    const sent = requests.filter((request) => request.method() === 'POST');
    expect(sent.map((request) => new URL(request.url()).pathname)).toEqual(['/api/verify/capture']);
    const body = sent[0]!.postDataJSON() as { manifest: string; files: { name: string; sha256: string }[] };
    const unzipped = unzipSync(zipBytes);
    expect(body.manifest).toBe(strFromU8(unzipped['manifest.json']!));
    expect(body.files).toEqual(
      Object.keys(CAPTURE_ARTEFACTS).map((name) => ({ name, sha256: sha256(unzipped[name]!) })),
    );
    expect(sent[0]!.postDataBuffer()!.length).toBeLessThan(8000);
    await settle(page);
    expect(await axeProblems(page, 'verify a capture')).toEqual([]);
    await showChecks(page);
    await picture(page, screenPicture('verify-capture', 'desktop'));
    expect(problemsOf(page)).toEqual([]);
  });

  it('says which file does not match in a ZIP with one byte of page.mhtml changed, and which are missing', async () => {
    const page = await browser.newPage(viewports.mobile);
    await page.goto(at('/verify'));
    await page.getByLabel('Report file').waitFor();
    const files = unzipSync(zipBytes);
    const mhtml = Uint8Array.from(files['page.mhtml']!);
    const middle = Math.floor(mhtml.length / 2);
    mhtml[middle] = mhtml[middle]! ^ 0x01;
    const changed = zipSync({ ...files, 'page.mhtml': mhtml });
    await drop(page, [{ name: 'capture-op-harbour-001.zip', bytes: changed, type: 'application/zip' }]);
    const status = page.getByRole('status');
    await status.getByText(v.invalidFiles).waitFor({ timeout: 20_000 });
    expect(await fileResult(page, 'page.mhtml').innerText()).toBe(v.fileStatuses.mismatch);
    for (const name of ['page.png', 'page.txt', 'headers.json']) {
      expect(await fileResult(page, name).innerText()).toBe(v.fileStatuses.match);
    }
    await status.getByText(v.signatureValid, { exact: true }).waitFor();
    await settle(page);
    await expectNoSidewaysScroll(page);
    expect(await axeProblems(page, 'verify a changed capture (phone)')).toEqual([]);
    await showChecks(page);
    await picture(page, screenPicture('verify-capture', 'mobile'));

    // The loose files of the capture chosen together, two of them left out.
    const chosen = ['manifest.json', 'manifest.sig', 'page.png', 'page.txt'].map((name) => ({
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(files[name]!),
    }));
    await page.getByLabel('Report file').setInputFiles(chosen);
    await status.getByText(v.capturesTitle(1)).waitFor();
    await expect.poll(() => fileResult(page, 'page.mhtml').innerText()).toBe(v.fileStatuses.missing);
    expect(await fileResult(page, 'headers.json').innerText()).toBe(v.fileStatuses.missing);
    expect(await fileResult(page, 'page.png').innerText()).toBe(v.fileStatuses.match);
    expect(problemsOf(page)).toEqual([]);
  });

  it("captures an account's page from a result into the case the search was filed under", async () => {
    const searched = await fetch(at(`/api/username?username=rohand90&case_reference=${reference}`), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(searched.status).toBe(200);
    const lookupId = ((await searched.json()) as { lookup_id: string }).lookup_id;
    const page = await browser.newPage(viewports.desktop);
    await openCase(page);
    await page.getByRole('button', { name: /^Open the stored result of @?rohand90$/ }).click();
    await page.getByRole('heading', { level: 1, name: '@rohand90' }).waitFor();
    const found = page.getByRole('list', { name: /accounts? found/i }).first();
    const capture = found.getByRole('button', { name: /^Capture / }).first();
    const url = ((await capture.getAttribute('aria-label')) ?? '').replace(/^Capture /, '');
    expect(url).toMatch(/^https?:\/\//);

    // The synthetic result's address is not fetched from here: the capture's request is answered by
    // the test with the capture the server would queue.
    const [queued] = await listed();
    const asked: unknown[] = [];
    await page.route(`**/api/cases/${caseId}/captures`, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      asked.push(route.request().postDataJSON());
      await route.fulfill({
        status: 202,
        contentType: 'application/json',
        body: JSON.stringify({
          capture: {
            ...queued,
            id: crypto.randomUUID(),
            url,
            status: 'queued',
            lookup_id: lookupId,
            captured_at: null,
            final_url: null,
            title: null,
            http_status: null,
            files: [],
            truncated: [],
            manifest_sha256: null,
            removal: null,
          },
        }),
      });
    });
    // Beside each account found, on a phone too.
    await page.setViewportSize(viewports.mobile);
    await settle(page);
    await expectNoSidewaysScroll(page);
    await found.evaluate((element) => {
      element.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -120);
    });
    await picture(page, screenPicture('results-capture', 'mobile'));
    await page.setViewportSize(viewports.desktop);

    await capture.click();
    const dialog = page.getByRole('dialog', { name: t.dialogTitle });
    await dialog.getByText(url, { exact: true }).waitFor();
    // The case the search was filed under is chosen.
    const picker = dialog.getByLabel(t.pickCase);
    expect(await picker.inputValue()).toBe(caseId);
    expect(await picker.evaluate((el) => el === document.activeElement)).toBe(true);
    await settle(page);
    expect(await axeProblems(page, 'capture from a result')).toEqual([]);
    await picture(page, screenPicture('results-capture-dialog', 'desktop'));
    await dialog.getByRole('button', { name: t.dialogRun }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(asked).toEqual([{ url, lookup_id: lookupId }]);
    const toast = page.locator('.Toastify').getByText(t.queuedIn(reference));
    await toast.waitFor();
    await page.locator('.Toastify').getByRole('link', { name: t.openCase }).click();
    await page.waitForURL(`**/cases/${caseId}`);
    expect(problemsOf(page)).toEqual([]);
  }, 90_000);

  it('removes the capture only with a reason; it stays listed as removed, and the bundle holds the removal', async () => {
    const page = await browser.newPage(viewports.desktop);
    await openCase(page);
    const section = capturesSection(page);
    await section.getByRole('button', { name: t.removeLabel(PAGE_TITLE) }).click();
    const dialog = page.getByRole('dialog', { name: t.removeTitle });
    const reason = dialog.getByLabel(t.removeReason);
    expect(await reason.evaluate((el) => el === document.activeElement)).toBe(true);
    await dialog.getByRole('button', { name: t.removeSubmit }).click();
    await dialog.getByText(captureMessages.reason, { exact: true }).waitFor();
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    await settle(page);
    expect(await axeProblems(page, 'remove a capture')).toEqual([]);
    await reason.fill('Captured under the wrong case reference.');
    await dialog.getByRole('button', { name: t.removeSubmit }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.Toastify').getByText(t.removed).waitFor();

    const row = section.getByRole('listitem').filter({ hasText: PAGE_TITLE });
    await row.getByText(t.status.removed, { exact: true }).waitFor();
    await row.getByText(/^Removed by Case Officer on /).waitFor();
    await row.getByText('Captured under the wrong case reference.').waitFor();
    expect(await row.getByRole('link', { name: t.openPreview(PAGE_TITLE) }).count()).toBe(0);
    const [removed] = await listed();
    expect(removed).toMatchObject({
      status: 'removed',
      removal: { reason: 'Captured under the wrong case reference.' },
    });

    await dismissToasts(page);
    await section.evaluate((element) => {
      element.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -90);
    });
    await settle(page);
    await picture(page, screenPicture('case-captures-removed', 'desktop'));

    // The evidence bundle holds the capture's manifest and the signed removal: /verify reads both, and
    // the bundle itself is still checked whole.
    const bundle = await fetch(at(`/api/cases/${caseId}/bundle`), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bundle.status).toBe(200);
    const bundleBytes = new Uint8Array(await bundle.arrayBuffer());
    await page.goto(at('/verify'));
    await page.getByLabel('Report file').waitFor();
    await drop(page, [{ name: 'case-op-harbour.zip', bytes: bundleBytes, type: 'application/zip' }]);
    const status = page.getByRole('status');
    await status.getByText(/^Matches: Footprint generated exactly this file/).waitFor({ timeout: 20_000 });
    await status.getByText(v.capturesTitle(2)).waitFor({ timeout: 20_000 });
    await status
      .getByText(/^Removed on .*Reason: Captured under the wrong case reference\.$/)
      .first()
      .waitFor();
    await status.getByRole('heading', { name: /^Removal record/ }).waitFor();
    expect(problemsOf(page)).toEqual([]);
  }, 90_000);
});
