import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEAK_EXPORT_CAP, messages } from '@footprint/domain';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { api, apiSignIn } from '../support/api.ts';
import { screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * Exports from the browser: 'Save Results' → 'Save as CSV' / 'Save as JSON' / 'Save as Excel (XLSX)'
 * on the phone results page, 'Export' on the leak results (every match, not the page shown), and
 * 'Export CSV' on /history, save the server's files of what it stored; each file is read back and
 * checked against what the page shows.
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

/** The entries of a zip file (an XLSX workbook) and the text of the ones asked for. */
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

const today = () => new Date().toISOString().slice(0, 10);

describe('exports', () => {
  it('saves the phone results as CSV, JSON and XLSX, and the history as CSV', async () => {
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
    // The header block names the lookup; then the merged profile, then the source records.
    expect(lines[0]).toMatch(/^# lookup_id,[0-9a-f-]{36}$/);
    expect(lines).toContain('# kind,tel');
    expect(lines).toContain('# reused,false');
    const table = lines.slice(lines.indexOf('') + 1).filter(Boolean);
    expect(table[0]).toBe(
      'part,section,attribute,value,sources,corroboration,confidence,answered_at,source_labels,provenance',
    );
    const merged = table.filter((line) => line.startsWith('merged,'));
    // As many merged values as the page's summary counts ('32 facts · 12 corroborated').
    const summary = await page.getByText(/^\d+ facts · \d+ corroborated/).textContent();
    const [facts, corroborated] = (summary ?? '').match(/\d+/g)!.map(Number);
    expect(merged).toHaveLength(facts!);
    expect(merged.filter((line) => line.includes(',corroborated,'))).toHaveLength(corroborated!);
    expect(lines.find((line) => line.startsWith('# merged_values,'))).toBe(`# merged_values,${facts}`);
    expect(table).toContain(
      'source,Upi Ids,,rohan.deshmukh@oksbi,Gov,,,' +
        lines.find((l) => l.startsWith('# answered_at,'))!.slice(14) +
        ',Gov,',
    );

    const json = await saveFrom(page, 'Save as JSON');
    expect(json.suggestedFilename()).toBe(`tel-919876543210-${today()}.json`);
    const document = JSON.parse(await textOf(json));
    expect(document).toMatchObject({
      kind: 'tel',
      query: '919876543210',
      case_reference: null,
      reused: false,
    });
    expect(document.lookup_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[0]).toBe(`# lookup_id,${document.lookup_id}`);
    expect(document.result.wpData).toBeTruthy();
    expect(document.merged_profile).toHaveLength(facts!);

    const xlsx = await saveFrom(page, 'Save as Excel (XLSX)');
    expect(xlsx.suggestedFilename()).toBe(`tel-919876543210-${today()}.xlsx`);
    const file = join(dir, xlsx.suggestedFilename());
    await xlsx.saveAs(file);
    const zip = await readZip(file, (name) => name === 'xl/workbook.xml');
    const sheets = [...(zip.texts.get('xl/workbook.xml') ?? '').matchAll(/<sheet [^>]*name="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(sheets).toEqual(['About', 'Merged profile', 'Source records']);
    expect(zip.names).toContain('xl/worksheets/sheet2.xml');

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

  it('saves every match of a leak search, not the page shown, and the menu says so', async () => {
    const page = await browser.newPage();
    await storeSession(page, token);
    await page.goto('/leak-data-finder');
    await page.getByRole('combobox', { name: 'Field 1 type' }).selectOption('name');
    await page.getByRole('textbox', { name: 'Field 1 value' }).fill('Priya Sharma');
    const answered = page.waitForResponse((res) => res.url().includes('/api/leak-data-finder/'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const body = (await (await answered).json()) as { total: number; total_capped: boolean; data: unknown[] };
    expect(body.total).toBeGreaterThan(body.data.length);
    // The file holds every match up to the cap (LEAK_EXPORT_CAP), and the menu says which.
    const held = Math.min(body.total, LEAK_EXPORT_CAP);

    await page.getByRole('button', { name: /^Export/ }).click();
    await page
      .getByText(messages.results.leakExportHint(body.total, body.total_capped, LEAK_EXPORT_CAP), {
        exact: true,
      })
      .waitFor();
    // The open menu with its line, at both sizes.
    await page.setViewportSize({ width: 1366, height: 900 });
    await screenshot(page, 'leak-export-menu-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'leak-export-menu-mobile');
    const item = page.getByRole('button', { name: 'Save as CSV', exact: true });
    expect(await item.getAttribute('aria-describedby')).toBeTruthy();
    const downloading = page.waitForEvent('download');
    await item.click();
    const csv = await downloading;
    expect(csv.suggestedFilename()).toMatch(new RegExp(`^leak-[a-z0-9-]+-${today()}\\.csv$`));
    const lines = (await textOf(csv)).split('\r\n');
    expect(lines).toContain(`# matches,${body.total}${body.total_capped ? '+' : ''}`);
    expect(lines).toContain(`# records_in_file,${held}`);
    const table = lines.slice(lines.indexOf('') + 1).filter(Boolean);
    expect(table[0]).toBe('source,breach_date,name,email,phone,username,address,other');
    expect(table).toHaveLength(held + 1);
  });
});
