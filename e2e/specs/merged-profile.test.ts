import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from '../support/a11y.ts';
import { api, apiSignIn } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * The merged profile (docs/capabilities.md, 'Merged profile and analysis'): the results page and both
 * PDFs show the same merged values, each once (phones in E.164, e-mails lower-cased), with their
 * provenance; the filter narrows the page. Read back from the page's DOM and from the downloaded PDFs'
 * text (pdftotext).
 */

const run = promisify(execFile);
const browser = useBrowser();
let token: string;
let dir: string;

const E164 = /\+\d{8,15}\b/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fp-e2e-merged-'));
  const email = uniqueEmail('merger');
  const password = 'merged profile passphrase';
  expect(
    (
      await api('/api/register', {
        body: { name: 'Merge Checker', email, password, password_confirmation: password },
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

async function results(
  type: 'tel' | 'email',
  value: string,
  size?: { width: number; height: number },
  prepare?: (page: Page) => Promise<unknown>,
) {
  const page = await browser.newPage(size ?? { width: 1366, height: 900 });
  await storeSession(page, token);
  await prepare?.(page);
  await page.goto('/dashboard');
  if (type === 'email') await page.getByRole('radio', { name: 'Email' }).check({ force: true });
  await page.getByRole('textbox', { name: type === 'tel' ? 'Phone number' : 'Email address' }).fill(value);
  await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL('**/results');
  await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
  return page;
}

/** The merged values of one attribute as the page shows them. */
async function shown(page: Page, attribute: string): Promise<string[]> {
  return page
    .locator(`[data-merged-attribute="${attribute}"] [data-merged-value]`)
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-merged-value') ?? ''));
}

/** Every match of a pattern in a text, in order. */
const all = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[0]);

/** The part of a PDF's text from one marker to the next. */
function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  expect(from, `${start} in the PDF`).toBeGreaterThan(-1);
  const to = text.indexOf(end, from + start.length);
  expect(to, `${end} after ${start} in the PDF`).toBeGreaterThan(from);
  return text.slice(from, to);
}

/** Checks that a PDF section lists exactly these phones and e-mails, each once. */
function expectSameValues(section: string, phones: string[], emails: string[]) {
  const pdfPhones = all(section, E164);
  const pdfEmails = all(section, EMAIL);
  expect(pdfPhones.sort()).toEqual([...phones].sort());
  expect(pdfEmails.sort()).toEqual([...emails].sort());
}

async function downloads(page: Page) {
  await page.getByRole('button', { name: /Save Results/ }).click();
  const [lookup] = await Promise.all([
    page.waitForEvent('download'),
    page.getByText('Save as pdf', { exact: true }).click(),
  ]);
  const lookupText = await textOf(lookup);
  const [ai] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'AI Report' }).click(),
  ]);
  return { lookupText, aiText: await textOf(ai) };
}

describe('merged profile: the rich demo phone', () => {
  it('shows each phone once in E.164 and each e-mail once lower-cased, as both PDFs print them', async () => {
    const page = await results('tel', '9876543210');
    const phones = await shown(page, 'Phone');
    const emails = await shown(page, 'E-mail');
    expect(phones.length).toBeGreaterThan(1);
    expect(phones).toContain('+919876543210');
    expect(new Set(phones).size).toBe(phones.length);
    for (const phone of phones) expect(phone).toMatch(/^\+\d{8,15}$/);
    expect(emails.length).toBeGreaterThan(0);
    expect(new Set(emails).size).toBe(emails.length);
    for (const email of emails) expect(email).toBe(email.trim().toLowerCase());
    // Gender, given by several sources in several spellings, is one value.
    expect(await shown(page, 'Gender')).toHaveLength(1);
    await screenshot(page, 'results-merged-phone-desktop');

    const { lookupText, aiText } = await downloads(page);
    expectSameValues(between(lookupText, 'Merged profile', 'Phone highlights'), phones, emails);
    expectSameValues(between(aiText, 'Each value once', 'Exposure'), phones, emails);
    expect(problemsOf(page)).toEqual([]);
  });

  it('shows where each value comes from, from the keyboard', async () => {
    const page = await results('tel', '9876543210');
    const row = page.locator('[data-merged-attribute="Phone"] [data-merged-value="+919876543210"]');
    const toggle = row.getByRole('button', { name: /^Where \+919876543210 comes from:/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const panel = page.locator(`#${(await toggle.getAttribute('aria-controls'))!.replace(/:/g, '\\:')}`);
    await panel.waitFor();
    // The OSINT records name their breach; the sandbox answered; each line says when.
    expect(await panel.getByText('via OSINT').count()).toBeGreaterThan(0);
    expect(await panel.getByText('Sandbox', { exact: true }).count()).toBeGreaterThan(0);
    expect(
      await panel.getByText(/^answered \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/).count(),
    ).toBeGreaterThan(0);
    await screenshot(page, 'results-merged-provenance');
    // The merged profile with a provenance panel open has no serious accessibility problem.
    expect(await axeProblems(page, 'results-merged-provenance', '[data-merged-attribute="Phone"]')).toEqual(
      [],
    );
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('narrows every section with the filter, and says when nothing matches', async () => {
    const page = await results('tel', '9876543210');
    const filter = page.getByRole('searchbox', { name: 'Filter the results' });
    await filter.fill('+9198765');
    await expect.poll(() => page.locator('[data-merged-attribute]').count()).toBe(1);
    expect(await shown(page, 'Phone')).toEqual(['+919876543210']);
    await filter.fill('zzz-no-such-thing');
    await page.getByText('Nothing matches ‘zzz-no-such-thing’').waitFor();
    expect(await page.locator('[data-merged-attribute]').count()).toBe(0);
    await page.getByRole('status').getByRole('button', { name: 'Clear filter' }).click();
    expect(await filter.inputValue()).toBe('');
    await expect.poll(() => page.locator('[data-merged-attribute]').count()).toBeGreaterThan(5);
  });

  it('marks a conflict where the sources disagree on a single-valued fact', async () => {
    // The rich answer as the browser receives it, with every OSINT record giving another date of birth.
    const page = await results('tel', '9876543210', { width: 1366, height: 900 }, (p) =>
      p.route('**/api/tel?**', async (route) => {
        const response = await route.fetch();
        const answer = await response.json();
        for (const record of answer.osintData?.data ?? []) record.dob = '01/01/1985';
        await route.fulfill({ response, json: answer });
      }),
    );
    expect(await shown(page, 'Date of birth')).toEqual(['1990-04-17', '1985-01-01']);
    const card = page.locator('[data-merged-attribute="Date of birth"]');
    await card.getByText('Sources disagree').waitFor();
    expect(await card.getByText('Conflict', { exact: true }).count()).toBe(2);
    // A fact the sources agree on carries no conflict mark.
    expect(await page.locator('[data-merged-attribute="Gender"]').getByText('Conflict').count()).toBe(0);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'results-merged-conflict');
  });

  it('fits a phone screen', async () => {
    const page = await results('tel', '9876543210', { width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('heading', { name: 'Merged profile' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'results-merged-phone-mobile');
  });
});

describe('merged profile: the rich demo e-mail', () => {
  it('shows the same phones and e-mails as both PDFs, each once', async () => {
    const page = await results('email', 'rich.demo@example.test');
    const phones = await shown(page, 'Phone');
    const emails = await shown(page, 'E-mail');
    expect(emails).toContain('rich.demo@example.test');
    expect(new Set(emails).size).toBe(emails.length);
    for (const email of emails) expect(email).toBe(email.trim().toLowerCase());
    expect(phones).toContain('+919876543210');
    expect(new Set(phones).size).toBe(phones.length);
    for (const phone of phones) expect(phone).toMatch(/^\+\d{8,15}$/);
    await screenshot(page, 'results-merged-email-desktop');

    const { lookupText, aiText } = await downloads(page);
    expectSameValues(between(lookupText, 'Merged profile', 'Profile summary'), phones, emails);
    expectSameValues(between(aiText, 'Each value once', 'Exposure'), phones, emails);
    expect(problemsOf(page)).toEqual([]);
  });

  it('fits a phone screen', async () => {
    const page = await results('email', 'rich.demo@example.test', { width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('heading', { name: 'Merged profile' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'results-merged-email-mobile');
  });
});
