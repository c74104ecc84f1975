import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { messages } from '@footprint/domain';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeProblems, openSignedIn, screenPicture, settle, viewports } from '../support/a11y.ts';
import { api, apiSignIn } from '../support/api.ts';
import { problemsOf, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * Cases: an investigator opens a case from /cases, searches under its reference, and the case page
 * shows the searches, the entities their results hold (corroborated ones marked) and the notes.
 */

const browser = useBrowser();
const t = messages.cases;
let token: string;

beforeAll(async () => {
  const email = uniqueEmail('investigator');
  const password = 'case file passphrase';
  expect(
    (
      await api('/api/register', {
        body: { name: 'Case Officer', email, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  token = await apiSignIn(email, password);
});

const search = async (path: string) => {
  const res = await fetch(`${inject('baseURL')}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
};

describe('/cases', () => {
  it('opens a case, files two lookups under its reference, and shows their searches, entities and notes', async () => {
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, token, '/dashboard');
    await page
      .getByRole('navigation', { name: messages.layout.mainNav })
      .getByRole('link', { name: t.menuLink })
      .click();
    await page.waitForURL('**/cases');
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    await page.getByText(t.empty).waitFor();

    const form = page.locator('form').filter({ has: page.getByRole('button', { name: t.create }) });
    await form.getByLabel(t.titleLabel, { exact: true }).fill('Extortion calls to a shopkeeper');
    await form.getByLabel(t.referenceLabel, { exact: true }).fill('OP-KITE');
    await form.getByLabel(t.legalBasisKind).selectOption('fir');
    await form.getByLabel(t.legalBasisNumber).fill('214/2026');
    await form.getByLabel(t.legalBasisPurpose).fill('Tracing the caller');
    await form.getByRole('button', { name: t.create }).click();
    const card = page.getByRole('link', { name: 'Extortion calls to a shopkeeper' });
    await card.waitFor();

    await search('/api/tel?number=919876543210&case_reference=OP-KITE');
    await search('/api/email?email=rich.demo%40example.test&case_reference=op-kite');

    await card.click();
    await page.waitForURL('**/cases/*');
    await page.getByRole('heading', { name: 'Extortion calls to a shopkeeper', level: 1 }).waitFor();
    await page.getByText('FIR 214/2026: Tracing the caller').waitFor();
    const searches = page.getByRole('region', { name: t.searchesTitle });
    await expect.poll(() => searches.getByRole('row').count()).toBe(3);

    const entities = page.getByRole('list', { name: 'Phone' });
    await entities.getByText('+919876543210').waitFor();
    const phone = entities.getByRole('listitem').filter({ hasText: '+919876543210' });
    expect(await phone.getByText(t.corroborated).count()).toBe(1);
    await page.getByLabel(t.entityType).selectOption('pan');
    await page.getByText('BQZPD4821K').waitFor();
    expect(await page.getByRole('list', { name: 'Phone' }).count()).toBe(0);
    await page.getByLabel(t.entityType).selectOption('');

    // The graph loads only when asked for, and draws the searches and their entities.
    const graphButton = page.getByRole('button', { name: t.showGraph, exact: true });
    await graphButton.click();
    expect(await graphButton.getAttribute('aria-pressed')).toBe('true');
    const graph = page.getByRole('img', { name: /^Graph of the case: 2 searches/ });
    await graph.waitFor();
    await expect.poll(() => graph.locator('canvas').count()).toBeGreaterThan(0);

    // Three pivots from the entities, each confirmed with its price and filed under the same case.
    const pivot = async (action: string, value: string) => {
      await page.getByRole('button', { name: t.pivotLabel(action, value) }).click();
      const dialog = page.getByRole('dialog', { name: t.pivotTitle(action) });
      await dialog.getByText(`${t.pivotCost(1)} ${t.pivotFiled('OP-KITE')}`).waitFor();
      await dialog.getByRole('button', { name: t.pivotRun(1) }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    await pivot('RC details', 'MH12FP1234');
    await pivot('UPI details', 'rohan.deshmukh@oksbi');
    await pivot('E-mail lookup', 'rohan.deshmukh90@example.com');
    await expect.poll(() => searches.getByRole('row').count()).toBe(6);
    expect(await searches.getByRole('cell', { name: 'MH12FP1234', exact: false }).count()).toBeGreaterThan(0);

    await page.getByLabel(t.noteLabel).fill('Both numbers ring from the same handset.');
    await page.getByRole('button', { name: t.addNote }).click();
    await page.getByText('Both numbers ring from the same handset.').waitFor();

    // The timeline holds the searches themselves and the dated facts of their results.
    const timeline = page.getByRole('list', { name: t.timelineTitle });
    expect(await timeline.getByRole('listitem').count()).toBeGreaterThan(5);
    await timeline
      .getByText(/^Phone lookup of \+91 98765 ?43210/)
      .first()
      .waitFor();

    // The evidence bundle: a ZIP, whose SHA-256 the public check knows.
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: t.downloadBundle }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const checked = await fetch(`${inject('baseURL')}/api/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sha256 }),
    });
    expect(((await checked.json()) as { valid: boolean }).valid).toBe(true);

    await settle(page);
    expect(await axeProblems(page, 'case')).toEqual([]);
    await page.screenshot({ path: screenPicture('case', 'desktop'), fullPage: true });
    await page.setViewportSize(viewports.mobile);
    await settle(page);
    expect(await axeProblems(page, 'case (mobile)')).toEqual([]);
    await page.screenshot({ path: screenPicture('case', 'mobile') });
    expect(problemsOf(page)).toEqual([]);
  });

  it('offers the open cases on the search form, and files a result under another case with "Add to case"', async () => {
    const other = await fetch(`${inject('baseURL')}/api/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Second line of inquiry', reference: 'OP-WREN' }),
    });
    expect(other.status).toBe(201);
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, token, '/dashboard');
    const reference = page.getByRole('combobox', { name: messages.caseReference.label });
    await reference.waitFor();
    const offered = () =>
      reference.evaluate((input) =>
        Array.from((input as HTMLInputElement).list?.options ?? []).map((option) => option.value),
      );
    await expect.poll(offered).toEqual(expect.arrayContaining(['OP-KITE', 'OP-WREN']));

    await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
    await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
    await reference.fill('OP-KITE');
    const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
    if (!(await terms.isChecked())) await terms.check();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/results');

    await page.getByRole('button', { name: t.addToCase }).click();
    const dialog = page.getByRole('dialog', { name: t.addToCaseTitle });
    await dialog.getByLabel(t.pickCase).selectOption({ label: 'OP-WREN · Second line of inquiry' });
    await dialog.getByRole('button', { name: t.addToCaseRun }).click();
    await page.locator('.Toastify').getByText(t.addedToCase('OP-WREN')).waitFor();
    const wren = (await other.json()) as { id: string };
    const items = await fetch(`${inject('baseURL')}/api/cases/${wren.id}/items`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await items.json()) as { data: Array<{ kind: string }> }).data.map((i) => i.kind)).toEqual([
      'tel',
    ]);
    expect(problemsOf(page)).toEqual([]);
  });

  it('says a page whose code cannot load could not be loaded, and reloads it', async () => {
    const page = await browser.newPage(viewports.mobile);
    const chunk = /\/assets\/CasesPage-[^/]*\.js$/;
    await page.route(chunk, (route) => route.abort('connectionreset'));
    await openSignedIn(page, token, '/cases');
    await page.getByRole('heading', { name: messages.layout.routeErrorTitle, level: 1 }).waitFor();
    await settle(page);
    expect(await axeProblems(page, 'route-error')).toEqual([]);
    await page.unroute(chunk);
    await page.getByRole('button', { name: messages.layout.reload }).click();
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
  });

  it('answers a case that is not the user’s as missing', async () => {
    const page = await browser.newPage(viewports.mobile);
    await openSignedIn(page, token, '/cases/00000000-0000-4000-8000-000000000000');
    await page.getByText(t.notFound).waitFor();
    await page.getByRole('link', { name: t.back }).click();
    await page.waitForURL('**/cases');
    await page.getByRole('link', { name: 'Extortion calls to a shopkeeper' }).waitFor();
    await settle(page);
    expect(await axeProblems(page, 'cases')).toEqual([]);
    await page.screenshot({ path: screenPicture('cases', 'mobile') });
  });
});
