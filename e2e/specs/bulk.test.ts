import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@footprint/domain';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { axeProblems, openSignedIn, settle, viewports } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

/**
 * /bulk: a live account uploads a CSV of phone numbers, checks it (rows read, duplicates, the invalid
 * row, the cost against the balance), starts it, watches the progress bar reach done, downloads the
 * results as XLSX (a real workbook holding the list's numbers) and opens one row's full result. A
 * trial account sees no Bulk entry and is sent to /upgrade. The live account is made for this file by
 * demo-admin, so its balance is exact. A second server with slow sandbox sources and one row at a time
 * shows a job in progress: the bar moving over the event stream (no polling), Pause, Resume, done.
 * A pasted list of usernames runs too: its rows list the accounts found as links, and a name found
 * nowhere costs nothing.
 */

const browser = useBrowser();
const t = messages.bulkPage;
const startCredits = 40;
let live: { email: string; token: string };
let trialToken: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fp-e2e-bulk-'));
  const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const email = uniqueEmail('bulk-live');
  const password = 'bulk lookups passphrase';
  const created = await api('/api/admin/users', {
    body: { name: 'Bulk Live', email, password, app_mode: 'live', credits: startCredits },
    token: admin,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  live = { email, token: await apiSignIn(email, password) };

  const trialEmail = uniqueEmail('bulk-trial');
  expect(
    (
      await api('/api/register', {
        body: { name: 'Bulk Trial', email: trialEmail, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  trialToken = await apiSignIn(trialEmail, password);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The list: a header, the two demo numbers, one of them again in another spelling, and a bad row. */
const csv = ['phone', '9876543210', '9123456780', '+91 98765 43210', '12ab'].join('\n');

/** Picks an option of a toggle as a user does: by its label (the radio itself is visually hidden). */
const choose = (page: Page, label: string) =>
  page.locator('label.search-toggle-option').filter({ hasText: label }).click();

const figure = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

async function balance(token: string): Promise<number> {
  const me = await api('/api/user', { token });
  return me.body.credits as number;
}

/** The entries of a zip file and the text of the ones asked for. */
function readZip(file: string, wanted: (name: string) => boolean) {
  return new Promise<{ names: string[]; texts: Map<string, string> }>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const names: string[] = [];
      const texts = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        if (!wanted(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            texts.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve({ names, texts }));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** What a job card says the job spent and charged. */
const job = async (card: Locator) => {
  const text = (await card.textContent()) ?? '';
  return {
    spent: Number(/(\d+) credits? spent/.exec(text)?.[1]),
    charged: Number(/(\d+) charged/.exec(text)?.[1]),
  };
};

const progressOf = async (bar: Locator) => ({
  now: Number(await bar.getAttribute('aria-valuenow')),
  max: Number(await bar.getAttribute('aria-valuemax')),
});

describe('/bulk', () => {
  it('checks an uploaded CSV, starts it, follows it to done, downloads XLSX and opens a row', async () => {
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, live.token, '/dashboard');
    await page
      .getByRole('navigation', { name: messages.layout.mainNav })
      .getByRole('link', { name: t.menuLink })
      .click();
    await page.waitForURL('**/bulk');
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    await page.getByText(t.jobsEmpty).waitFor();

    // Nothing picked: the form says so under the file field and sends nothing.
    let previews = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/bulk/preview')) previews += 1;
    });
    await page.getByRole('button', { name: t.check }).click();
    await page.getByText(t.noFile).waitFor();
    expect(previews).toBe(0);

    const file = join(dir, 'numbers.csv');
    writeFileSync(file, csv);
    await choose(page, t.types.tel!);
    expect(await page.getByRole('radio', { name: t.types.tel }).isChecked()).toBe(true);
    await page.getByLabel(t.fileLabel).setInputFiles(file);
    await page.getByText(/^numbers\.csv \(/).waitFor();
    await page.getByRole('button', { name: t.check }).click();

    const summary = page.getByRole('region', { name: t.previewTitle });
    await summary.waitFor();
    expect(await figure(page, t.rowsRead).textContent()).toBe('4');
    expect(await figure(page, t.willRun).textContent()).toBe('2');
    expect(await figure(page, t.duplicates).textContent()).toBe('1');
    expect(await figure(page, t.invalidCount).textContent()).toBe('1');
    expect(await figure(page, t.cost).textContent()).toBe(t.credits(2));
    expect(await figure(page, t.balance).textContent()).toBe(t.credits(startCredits));
    const invalid = summary.getByRole('region', { name: t.invalidTitle });
    await invalid.getByRole('cell', { name: '12ab', exact: true }).waitFor();
    expect(await summary.getByText(/the job will stop when your credits run out/).count()).toBe(0);
    expect(await balance(live.token)).toBe(startCredits);

    await page.getByRole('button', { name: t.start, exact: true }).click();
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'numbers.csv' }) });
    await card.waitFor();
    const bar = card.getByRole('progressbar', { name: t.progressLabel('numbers.csv') });
    await bar.waitFor();
    expect((await progressOf(bar)).max).toBe(2);
    await expect.poll(async () => (await progressOf(bar)).now, { timeout: 30_000 }).toBe(2);
    await card.getByText(t.statuses.done!, { exact: true }).waitFor({ timeout: 30_000 });
    // A finished job offers its results and its rows, and no control that no longer applies.
    for (const action of [t.pause, t.resume, t.cancel])
      expect(await card.getByRole('button', { name: t.actionLabel(action, 'numbers.csv') }).count()).toBe(0);
    await card.getByText(t.progress(2, 2)).waitFor();
    expect(await balance(live.token)).toBeLessThanOrEqual(startCredits);

    await settle(page);
    await screenshot(page, 'bulk-desktop');
    expect(await axeProblems(page, '/bulk')).toEqual([]);

    // XLSX: a zip (PK) holding a workbook whose sheet lists the numbers that ran.
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: t.downloadLabel('xlsx', 'numbers.csv') }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const saved = join(dir, download.suggestedFilename());
    await download.saveAs(saved);
    expect(readFileSync(saved).subarray(0, 2).toString('latin1')).toBe('PK');
    const zip = await readZip(saved, (name) => /^xl\/(sharedStrings|worksheets\/sheet\d+)\.xml$/.test(name));
    expect(zip.names).toContain('[Content_Types].xml');
    expect(zip.names).toContain('xl/workbook.xml');
    const sheetText = [...zip.texts.values()].join('\n');
    expect(sheetText).toContain('9876543210');
    expect(sheetText).toContain('9123456780');

    // The rows, and one row's full result as the history opens it: no new charge.
    await card.getByRole('button', { name: t.viewRowsLabel('numbers.csv') }).click();
    const rows = card.getByRole('region', { name: t.rowsTitle('numbers.csv') }).first();
    await rows.getByRole('cell', { name: '9876543210', exact: true }).waitFor();
    // The row names the merged profile's subject, as the results page does, and its sources by name.
    const demoRow = rows.getByRole('row').filter({ hasText: '9876543210' }).first();
    await demoRow.getByRole('cell', { name: 'ROHAN SURESH DESHMUKH', exact: true }).waitFor();
    expect(await demoRow.textContent()).toContain('Gov identity records');
    expect(await demoRow.textContent()).not.toMatch(/\b(sKData|wpData|osintData)\b/);
    const before = await balance(live.token);
    const paid: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/(tel|email)\?/.test(request.url())) paid.push(request.url());
    });
    await rows.getByRole('button', { name: t.rowOpenLabel('9876543210') }).click();
    await page.waitForURL('**/results');
    await page.getByRole('heading', { level: 1, name: '+91 9876543210' }).waitFor();
    await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
    expect(paid).toEqual([]);
    expect(await balance(live.token)).toBe(before);
    expect(problemsOf(page)).toEqual([]);
  });

  it('fits a phone: the form and the finished job without sideways scrolling', async () => {
    const page = await browser.newPage(viewports.mobile);
    await openSignedIn(page, live.token, '/bulk');
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    await page.getByRole('progressbar', { name: t.progressLabel('numbers.csv') }).waitFor();
    await choose(page, t.sourcePaste);
    await page.getByLabel(t.pasteLabel).fill('rich.demo@example.test\nnobody@example.test\nnot-an-email');
    await choose(page, t.types.email!);
    await page.getByRole('button', { name: t.check }).click();
    await page.getByRole('region', { name: t.previewTitle }).waitFor();
    expect(await figure(page, t.willRun).textContent()).toBe('2');
    // The invalid row's line is the text box's third line.
    await page.getByRole('row', { name: /^3 not-an-email / }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(viewports.mobile.width);
    await settle(page);
    await screenshot(page, 'bulk-mobile');
  });

  it('runs a pasted list of usernames: the accounts found as links, a name found nowhere not charged', async () => {
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, live.token, '/bulk');
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    const price = (
      (await api('/api/sources', { token: live.token })).body as { prices: { username: number } }
    ).prices.username;
    await choose(page, t.types.username!);
    expect(await page.getByRole('radio', { name: t.types.username }).isChecked()).toBe(true);
    await choose(page, t.sourcePaste);
    // The '@' people type is dropped, so '@nobody.demo' and 'nobody.demo' are one row.
    await page.getByLabel(t.pasteLabel).fill('rohand90\n@nobody.demo\nnobody.demo\nnot a name');
    await page.getByRole('button', { name: t.check }).click();
    const summary = page.getByRole('region', { name: t.previewTitle });
    await summary.waitFor();
    expect(await figure(page, t.willRun).textContent()).toBe('2');
    expect(await figure(page, t.duplicates).textContent()).toBe('1');
    expect(await figure(page, t.invalidCount).textContent()).toBe('1');
    expect(await figure(page, t.cost).textContent()).toBe(t.credits(2 * price));
    await summary.getByRole('cell', { name: messages.search.invalidUsername }).waitFor();
    const before = await balance(live.token);

    await page.getByRole('button', { name: t.start, exact: true }).click();
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: t.pastedName }) });
    await card.getByText(t.statuses.done!, { exact: true }).waitFor({ timeout: 60_000 });
    expect(await card.textContent()).toContain(`${t.typeShort.username} · `);
    // Found nowhere is answered but refunded: one row charged.
    expect(await job(card)).toEqual({ spent: price, charged: 1 });
    expect(await balance(live.token)).toBe(before - price);

    await card.getByRole('button', { name: t.viewRowsLabel(t.pastedName) }).click();
    const rows = card.getByRole('region', { name: t.rowsTitle(t.pastedName) }).first();
    await rows.getByRole('columnheader', { name: t.rowAccounts }).waitFor();
    const rich = rows.getByRole('row').filter({ hasText: 'rohand90' });
    const links = rich.getByRole('link');
    await links.first().waitFor();
    const shown = await links.count();
    expect(shown).toBeGreaterThan(0);
    for (let i = 0; i < shown; i++) {
      const link = links.nth(i);
      expect(await link.getAttribute('href')).toMatch(/^https?:\/\/.*rohand90/i);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
      expect(await link.textContent()).toMatch(/\(opens in a new tab\)$/);
    }
    // The count says how many sites have it; the rest of the accounts open from the fold.
    const countText = (await rich.getByRole('cell', { name: /^\d+ sites?$/ }).textContent()) ?? '';
    const found = Number(/^(\d+)/.exec(countText)?.[1]);
    expect(found).toBeGreaterThan(shown);
    await rich.getByText(t.accountsMore(found - shown)).click();
    // Links in the closed fold are out of the accessibility tree until it opens.
    await expect.poll(() => links.count()).toBe(found);
    const nobody = rows.getByRole('row').filter({ hasText: 'nobody.demo' });
    await nobody.getByText(t.rowStatuses.no_record!, { exact: true }).waitFor();
    await nobody.getByRole('cell', { name: t.foundCount(0), exact: true }).waitFor();
    expect(await nobody.getByRole('link').count()).toBe(0);
    expect(await axeProblems(page, '/bulk')).toEqual([]);

    // Nothing wider than a phone's screen, the accounts open too.
    await page.setViewportSize(viewports.mobile);
    await rich.scrollIntoViewIfNeeded();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(viewports.mobile.width);
    await page.setViewportSize(viewports.desktop);

    // The row reopens its lookup as the history does: the username's results, no new charge.
    await rows.getByRole('button', { name: t.rowOpenLabel('rohand90') }).click();
    await page.waitForURL('**/results');
    await page.getByRole('heading', { level: 1, name: '@rohand90' }).waitFor();
    expect(await balance(live.token)).toBe(before - price);
    expect(problemsOf(page)).toEqual([]);
  });

  it('keeps trial accounts out: no Bulk entry, /bulk goes to /upgrade', async () => {
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, trialToken, '/dashboard');
    const nav = page.getByRole('navigation', { name: messages.layout.mainNav });
    await nav.getByRole('link', { name: messages.cases.menuLink }).waitFor();
    expect(await nav.getByRole('link', { name: t.menuLink }).count()).toBe(0);
    await page.goto('/bulk');
    await page.waitForURL('**/upgrade');
  });
});

describe('/bulk while a job runs', () => {
  let slow: RunningServer;
  let token: string;

  beforeAll(async () => {
    // Every sandbox source answers in 300-400 ms and rows run one at a time: a list takes seconds.
    slow = await startProductServer({
      SANDBOX_LATENCY: '*=300-400',
      BULK_ROW_CONCURRENCY: '1',
      SANDBOX_LEAK_RECORDS: '0',
    });
    const admin = await apiSignIn('demo-admin@footprint.test', demoPassword, slow.url);
    const email = uniqueEmail('bulk-slow');
    const password = 'bulk lookups passphrase';
    const created = await api(
      '/api/admin/users',
      { body: { name: 'Bulk Watcher', email, password, app_mode: 'live', credits: 100 }, token: admin },
      slow.url,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    token = await apiSignIn(email, password, slow.url);
  });
  afterAll(() => slow?.stop());

  it('moves the bar live from the event stream, pauses, resumes and finishes', async () => {
    const page = await browser.newPage(viewports.desktop);
    await storeSession(page, token, slow.url);
    const polls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'GET' && /^\/api\/bulk\/[^/]+$/.test(path)) polls.push(request.url());
    });
    await page.goto(`${slow.url}/bulk`);
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    await choose(page, t.sourcePaste);
    const numbers = Array.from({ length: 15 }, (_, i) => `98765${String(10_000 + i * 37).padStart(5, '0')}`);
    await page.getByLabel(t.pasteLabel).fill(numbers.join('\n'));
    await page.getByRole('button', { name: t.check }).click();
    await page.getByRole('region', { name: t.previewTitle }).waitFor();
    expect(await figure(page, t.willRun).textContent()).toBe('15');
    await page.getByRole('button', { name: t.start, exact: true }).click();

    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: t.pastedName }) });
    const bar = card.getByRole('progressbar', { name: t.progressLabel(t.pastedName) });
    await bar.waitFor();
    // The bar moves while the job runs: some rows done, not all.
    await expect.poll(async () => (await progressOf(bar)).now, { timeout: 20_000 }).toBeGreaterThan(1);
    expect((await progressOf(bar)).now).toBeLessThan(15);
    await card.getByText(t.statuses.running!, { exact: true }).waitFor();
    // Only the controls a running job allows, and no results yet.
    await card.getByRole('button', { name: t.actionLabel(t.pause, t.pastedName) }).waitFor();
    await card.getByRole('button', { name: t.actionLabel(t.cancel, t.pastedName) }).waitFor();
    expect(await card.getByRole('button', { name: t.actionLabel(t.resume, t.pastedName) }).count()).toBe(0);
    expect(await card.getByRole('button', { name: /^Download/ }).count()).toBe(0);
    await screenshot(page, 'bulk-running-desktop');

    await card.getByRole('button', { name: t.actionLabel(t.pause, t.pastedName) }).click();
    await card.getByText(t.statuses.paused!, { exact: true }).waitFor();
    await card.getByRole('button', { name: t.actionLabel(t.resume, t.pastedName) }).waitFor();
    expect(await card.getByRole('button', { name: t.actionLabel(t.pause, t.pastedName) }).count()).toBe(0);
    // A paused job stands still (a row already under way may still finish).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const paused = (await progressOf(bar)).now;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await progressOf(bar)).now).toBe(paused);
    expect(paused).toBeLessThan(15);
    await page.setViewportSize(viewports.mobile);
    await card.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'bulk-paused-mobile');
    await page.setViewportSize(viewports.desktop);

    await card.getByRole('button', { name: t.actionLabel(t.resume, t.pastedName) }).click();
    await expect.poll(async () => (await progressOf(bar)).now, { timeout: 30_000 }).toBe(15);
    await card.getByText(t.statuses.done!, { exact: true }).waitFor();
    await card.getByRole('button', { name: t.downloadLabel('csv', t.pastedName) }).waitFor();
    // The header's balance follows what the job spent.
    const me = await api('/api/user', { token }, slow.url);
    expect(me.body.credits).toBe(100 - (await job(card)).spent);
    await page
      .getByText(messages.credits.label(me.body.credits as number), { exact: true })
      .first()
      .waitFor();
    // All of it came over the event stream: the page never fell back to asking for the job.
    expect(await card.getByText(t.liveLost).count()).toBe(0);
    expect(polls).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
  });

  it('cancels a running job: its rows not reached are skipped, and its results can be had', async () => {
    const page = await browser.newPage(viewports.desktop);
    await storeSession(page, token, slow.url);
    await page.goto(`${slow.url}/bulk`);
    await choose(page, t.sourcePaste);
    // Long enough (about 10 s) that the question and its answer come while it still runs.
    const numbers = Array.from({ length: 30 }, (_, i) => `98764${String(20_000 + i * 41).padStart(5, '0')}`);
    await page.getByLabel(t.pasteLabel).fill(numbers.join('\n'));
    await page.getByRole('button', { name: t.check }).click();
    await page.getByRole('button', { name: t.start, exact: true }).click();

    // The newest job comes first.
    const card = page.getByRole('list', { name: t.jobsTitle }).getByRole('listitem').first();
    await card.getByText(t.statuses.running!, { exact: true }).waitFor();
    await card.getByRole('button', { name: t.actionLabel(t.cancel, t.pastedName) }).click();
    // It asks first: closing the question keeps the job running.
    const question = page.getByRole('dialog', { name: t.cancelTitle(t.pastedName) });
    await question.getByRole('button', { name: messages.details.close, exact: true }).click();
    await question.waitFor({ state: 'detached' });
    await card.getByText(t.statuses.running!, { exact: true }).waitFor();
    await card.getByRole('button', { name: t.actionLabel(t.cancel, t.pastedName) }).click();
    await question.getByRole('button', { name: t.cancelConfirm }).click();
    await card.getByText(t.statuses.cancelled!, { exact: true }).waitFor();
    for (const action of [t.pause, t.resume, t.cancel])
      expect(await card.getByRole('button', { name: t.actionLabel(action, t.pastedName) }).count()).toBe(0);
    // Skipped rows count as finished; fewer rows than listed were charged.
    expect((await job(card)).charged).toBeLessThan(30);

    await card.getByRole('button', { name: t.viewRowsLabel(t.pastedName) }).click();
    const rows = card.getByRole('region', { name: t.rowsTitle(t.pastedName) }).first();
    await rows.getByText(t.rowStatuses.skipped!, { exact: true }).first().waitFor();
    expect(await rows.getByRole('row').count()).toBe(31);
    await card.getByRole('button', { name: t.downloadLabel('csv', t.pastedName) }).waitFor();
    expect(problemsOf(page)).toEqual([]);
  });
});
