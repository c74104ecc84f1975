import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  CASE_EXPORT_FORMATS,
  CASE_EXPORTS,
  LEGAL_BASIS_DECLARATIONS,
  LEGAL_BASIS_LABELS,
  legalBasisMessages,
  messages,
} from '@footprint/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  axeProblems,
  dismissToasts,
  openSignedIn,
  screenPicture,
  settle,
  viewports,
} from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import {
  expectNoSidewaysScroll,
  picture,
  problemsOf,
  screenshot,
  tableOverflowAtLaptop,
  uniqueEmail,
  useBrowser,
} from '../support/browser.ts';

/**
 * Cases: an investigator opens a case from /cases, searches under its reference, and the case page
 * shows the searches, the entities their results hold (corroborated ones marked) and the notes; the
 * owner places a legal hold on a case, seen on its page and in the list, and releases it.
 */

/** A label as a pattern that matches it literally ('i2 Analyst's Notebook (CSV)'). */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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

    // The legal basis is an FIR with its facts: the form draws the inputs the kind declares.
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: t.create }) });
    await form.getByLabel(t.titleLabel, { exact: true }).fill('Extortion calls to a shopkeeper');
    await form.getByLabel(t.referenceLabel, { exact: true }).fill('OP-KITE');
    await form.getByLabel(t.legalBasisKind).selectOption({ label: LEGAL_BASIS_LABELS.fir });
    const fir = Object.fromEntries(LEGAL_BASIS_DECLARATIONS.fir.fields.map((f) => [f.name, f.label]));
    await form.getByLabel(fir.police_station!, { exact: true }).fill('Kothrud');
    await form.getByLabel(fir.fir_number!, { exact: true }).fill('214');
    await form.getByLabel(fir.year!, { exact: true }).fill('2026');
    const sections = form.getByLabel(fir.sections!, { exact: true });
    await form.getByLabel(t.legalBasisPurpose, { exact: true }).fill('Tracing the caller');

    // A section written without its act is refused under the sections input, and nothing is created.
    await sections.fill('BNS 318(4)\nSection 420');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/cases')
        posts.push(request.url());
    });
    await form.getByRole('button', { name: t.create }).click();
    const sectionError = form.getByText(legalBasisMessages.section('Section 420'), { exact: true });
    await sectionError.waitFor();
    expect(await sections.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await sections.getAttribute('aria-describedby')) ?? '';
    expect(describedBy).toContain((await sectionError.evaluate((p) => p.parentElement?.id)) ?? 'missing');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await screenshot(page, 'cases-new-fir-error-desktop');
    expect(posts).toEqual([]);
    expect((await api('/api/cases', { token })).body.data).toEqual([]);
    await page.getByText(t.empty).waitFor();

    // Blank lines are dropped: on leaving the input it holds the list as it will be sent.
    await sections.fill('BNS 318(4)\n\nIT Act 66D\n');
    await sectionError.waitFor({ state: 'detached' });
    await sections.blur();
    await expect.poll(() => sections.inputValue()).toBe('BNS 318(4)\nIT Act 66D');
    // The pictures show the legal basis inputs, under the page's sticky header.
    const showBasis = () =>
      form.locator('fieldset').evaluate((element) => {
        element.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -120);
      });
    await page.setViewportSize({ width: 1280, height: 800 });
    await showBasis();
    await screenshot(page, 'cases-new-fir-desktop');
    await page.setViewportSize(viewports.mobile);
    await showBasis();
    await screenshot(page, 'cases-new-fir-mobile');
    await page.setViewportSize(viewports.desktop);
    await form.getByRole('button', { name: t.create }).click();
    const card = page.getByRole('link', { name: 'Extortion calls to a shopkeeper' });
    await card.waitFor();
    expect(posts).toHaveLength(1);
    expect(await sectionError.count()).toBe(0);
    const line = 'FIR 214/2026, Kothrud police station, BNS 318(4); IT Act 66D: Tracing the caller';
    await page.getByRole('listitem').filter({ has: card }).getByText(line, { exact: true }).waitFor();

    await search('/api/tel?number=919876543210&case_reference=OP-KITE');
    await search('/api/email?email=rich.demo%40example.test&case_reference=op-kite');

    await card.click();
    await page.waitForURL('**/cases/*');
    await page.getByRole('heading', { name: 'Extortion calls to a shopkeeper', level: 1 }).waitFor();
    await page.getByText(line, { exact: true }).waitFor();
    // Under the line, its facts as the kind labels them.
    const factsList = page.locator(`dl[aria-label="${t.legalBasisFacts}"]`);
    expect(await factsList.locator('dt').allTextContents()).toEqual([
      fir.police_station,
      fir.fir_number,
      fir.year,
      fir.sections,
    ]);
    expect(await factsList.locator('dd').allTextContents()).toEqual([
      'Kothrud',
      '214',
      '2026',
      'BNS 318(4); IT Act 66D',
    ]);
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

    // The Export menu lists every declared format with what it is for, and saves the one chosen.
    const exportToggle = page.getByRole('button', { name: t.exportMenu, exact: true });
    await exportToggle.click();
    for (const format of CASE_EXPORT_FORMATS) {
      await page
        .getByRole('button', { name: new RegExp(`^${escapeRegExp(CASE_EXPORTS[format].label)}`) })
        .waitFor();
    }
    await picture(page, screenPicture('case-export-menu', 'desktop'));
    const graphml = page.waitForEvent('download');
    await page
      .getByRole('button', { name: new RegExp(`^${escapeRegExp(CASE_EXPORTS.graphml.label)}`) })
      .click();
    const graphFile = await graphml;
    expect(graphFile.suggestedFilename()).toBe('case-op-kite.graphml');
    const xml = (await readFile((await graphFile.path())!)).toString('utf8');
    expect(xml).toContain('<graphml xmlns="http://graphml.graphdrawing.org/xmlns"');
    expect(xml).toContain('rohan.deshmukh90@example.com');
    await page.locator('.Toastify').getByText(t.exportSaved(CASE_EXPORTS.graphml.label)).waitFor();
    expect(await exportToggle.evaluate((el) => el === document.activeElement)).toBe(true);

    await settle(page);
    expect(await axeProblems(page, 'case')).toEqual([]);
    // On a laptop the searches table shows every column, its Open button included, without scrolling.
    expect(await tableOverflowAtLaptop(page, t.searchesTitle)).toBe(0);
    await picture(page, screenPicture('case', 'desktop'), { fullPage: true });
    await page.setViewportSize(viewports.mobile);
    await settle(page);
    expect(await axeProblems(page, 'case (mobile)')).toEqual([]);
    await picture(page, screenPicture('case', 'mobile'));
    // The Export menu fits a phone: every item in view, none wider than the screen.
    await page.getByRole('button', { name: t.exportMenu, exact: true }).click();
    await page
      .getByRole('button', { name: new RegExp(`^${escapeRegExp(CASE_EXPORTS.graphml.label)}`) })
      .waitFor();
    await expectNoSidewaysScroll(page);
    await picture(page, screenPicture('case-export-menu', 'mobile'));
    await page.keyboard.press('Escape');
    expect(problemsOf(page)).toEqual([]);
  }, 150_000); // Two lookups, the case page at two sizes with axe, a bundle drawn through the report pool.

  it('shows the legal basis with its facts on the case page, and lets the owner change it', async () => {
    const made = await api('/api/cases', {
      body: {
        title: 'Fake courier parcel calls',
        reference: 'OP-EGRET',
        legal_basis: {
          kind: 'fir',
          police_station: 'Shivajinagar',
          fir_number: '87',
          year: 2026,
          sections: ['BNS 318(4)', 'BNS 319(2)', 'IT Act 66D'],
          purpose: 'Identifying the callers',
        },
      },
      token,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const page = await browser.newPage({ width: 1280, height: 800 });
    await openSignedIn(page, token, `/cases/${made.body.id}`);
    await page.getByRole('heading', { name: 'Fake courier parcel calls', level: 1 }).waitFor();
    await page
      .getByText(
        'FIR 87/2026, Shivajinagar police station, BNS 318(4); BNS 319(2); IT Act 66D: Identifying the callers',
        { exact: true },
      )
      .waitFor();
    const facts = page.locator(`dl[aria-label="${t.legalBasisFacts}"]`);
    expect(await facts.locator('dd').allTextContents()).toEqual([
      'Shivajinagar',
      '87',
      '2026',
      'BNS 318(4); BNS 319(2); IT Act 66D',
    ]);
    await settle(page);
    await screenshot(page, 'case-legal-basis-desktop');
    await page.setViewportSize(viewports.mobile);
    await settle(page);
    await screenshot(page, 'case-legal-basis-mobile');

    // The owner changes it: the form starts from the stored facts; a bad one is refused in place.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: t.legalBasisEdit }).click();
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: t.legalBasisSave }) });
    const station = form.getByLabel('Police station', { exact: true });
    expect(await station.inputValue()).toBe('Shivajinagar');
    expect(await form.getByLabel('Sections', { exact: true }).inputValue()).toBe(
      'BNS 318(4)\nBNS 319(2)\nIT Act 66D',
    );
    await form.getByLabel('FIR number', { exact: true }).fill('87A');
    await form.getByRole('button', { name: t.legalBasisSave }).click();
    await form.getByText(legalBasisMessages.firNumber, { exact: true }).waitFor();
    await settle(page);
    expect(await axeProblems(page, 'case legal basis form')).toEqual([]);
    await page.setViewportSize(viewports.mobile);
    await form.evaluate((element) => {
      element.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -80);
    });
    await screenshot(page, 'case-legal-basis-edit-mobile');
    await page.setViewportSize({ width: 1280, height: 800 });
    await form.getByLabel('FIR number', { exact: true }).fill('88');
    await station.fill('Deccan');
    await form.getByRole('button', { name: t.legalBasisSave }).click();
    await form.waitFor({ state: 'detached' });
    await page
      .getByText(
        'FIR 88/2026, Deccan police station, BNS 318(4); BNS 319(2); IT Act 66D: Identifying the callers',
        { exact: true },
      )
      .waitFor();
    const stored = await api(`/api/cases/${made.body.id}`, { token });
    expect((stored.body as { legal_basis: { fields: unknown } }).legal_basis.fields).toEqual({
      police_station: 'Deccan',
      fir_number: '88',
      year: 2026,
      sections: ['BNS 318(4)', 'BNS 319(2)', 'IT Act 66D'],
    });
    expect(problemsOf(page)).toEqual([]);
  });

  it('places a legal hold with its reason, shows it on the case page and the list, and releases it', async () => {
    const title = 'Loan app harassment calls';
    const made = await api('/api/cases', { body: { title, reference: 'OP-HERON' }, token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const caseId = made.body.id as string;
    const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });
    const page = await browser.newPage({ width: 1280, height: 800 });
    await openSignedIn(page, token, `/cases/${caseId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();

    // The reason is required: an empty one is refused under the field, and nothing is sent.
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/hold')) puts.push(request.url());
    });
    await page.getByRole('button', { name: t.placeHold }).click();
    const dialog = page.getByRole('dialog', { name: t.placeHoldTitle });
    const reason = dialog.getByRole('textbox', { name: t.holdReason });
    await dialog.getByRole('button', { name: t.holdSubmit }).click();
    await dialog.getByText('The reason field is required.', { exact: true }).waitFor();
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    expect(await reason.evaluate((el) => el === document.activeElement)).toBe(true);
    await reason.fill('   ');
    await dialog.getByRole('button', { name: t.holdSubmit }).click();
    await dialog.getByText('The reason field is required.', { exact: true }).waitFor();
    expect(puts).toEqual([]);
    const why = 'Preservation order of the Magistrate, Pune, dated 2 December 2026';
    await reason.fill(why);
    await dialog.getByRole('button', { name: t.holdSubmit }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(page, t.holdPlaced).waitFor();

    // The banner: since when, by whom, why, and that the results are kept.
    const held = await api(`/api/cases/${caseId}`, { token });
    const hold = held.body.legal_hold as { at: string; by: { name: string }; reason: string };
    expect(hold).toMatchObject({ reason: why, by: { name: 'Case Officer' } });
    const day = await page.evaluate(
      (at) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' }).format(new Date(at)),
      hold.at,
    );
    const banner = page.getByRole('region', { name: t.holdTitle });
    await banner.getByText(t.holdSince(day, 'Case Officer', why), { exact: true }).waitFor();
    expect(await banner.locator('p').first().innerText()).toBe(
      `${t.holdTitle} ${t.holdSince(day, 'Case Officer', why)}`,
    );
    await banner.getByText(t.holdKept, { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: t.placeHold }).count()).toBe(0);
    await dismissToasts(page);
    await page.mouse.move(1, 798);
    await settle(page);
    expect(await axeProblems(page, 'case legal hold (desktop)')).toEqual([]);
    await screenshot(page, 'case-legal-hold-desktop');
    await page.setViewportSize(viewports.mobile);
    await settle(page);
    expect(await axeProblems(page, 'case legal hold (mobile)')).toEqual([]);
    await screenshot(page, 'case-legal-hold-mobile');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The list marks the held case with a badge.
    const list = await browser.newPage(viewports.mobile);
    await openSignedIn(list, token, '/cases');
    const card = list.getByRole('listitem').filter({ has: list.getByRole('link', { name: title }) });
    await card.getByText(t.holdBadge, { exact: true }).waitFor();
    await settle(list);
    await screenshot(list, 'cases-legal-hold-mobile');
    expect(problemsOf(list)).toEqual([]);

    // Released after a confirmation: the banner goes, Place legal hold comes back.
    await banner.getByRole('button', { name: t.releaseHold }).click();
    const confirm = page.getByRole('dialog', { name: t.releaseHoldTitle });
    await confirm.getByText(t.releaseHoldConfirm).waitFor();
    await confirm.getByRole('button', { name: t.releaseHoldSubmit }).click();
    await confirm.waitFor({ state: 'detached' });
    await toast(page, t.holdReleased).waitFor();
    await page.getByRole('button', { name: t.placeHold }).waitFor();
    expect(await banner.count()).toBe(0);
    expect((await api(`/api/cases/${caseId}`, { token })).body.legal_hold).toBeNull();
    await list.reload();
    await list.getByRole('link', { name: title }).waitFor();
    expect(await card.getByText(t.holdBadge, { exact: true }).count()).toBe(0);
    expect(problemsOf(page)).toEqual([]);
  });

  it('draws a one-search case as a readable graph: boxes by entity type, legible labels, the type filter', async () => {
    const made = await api('/api/cases', {
      body: { title: 'Graph of one phone', reference: 'OP-LYNX' },
      token,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await search('/api/tel?number=919876543210&case_reference=OP-LYNX');
    const page = await browser.newPage({ width: 1366, height: 900 });
    await openSignedIn(page, token, `/cases/${made.body.id}`);
    await page.getByRole('heading', { name: 'Graph of one phone', level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Phone' }).getByText('+919876543210').waitFor();
    await page.getByRole('button', { name: t.showGraph, exact: true }).click();
    const graph = page.getByRole('img', { name: /^Graph of the case: 1 search/ });
    await graph.and(page.locator('[data-ready="true"]')).waitFor();

    /** What the drawing shows, read from the cytoscape instance cytoscape keeps on its container. */
    const drawn = () =>
      graph.evaluate((element) => {
        type Box = { x1: number; x2: number; y1: number; y2: number };
        type Node = {
          id(): string;
          data(key: string): string;
          isParent(): boolean;
          parent(): { id(): string; length: number };
          children(): { length: number };
          style(key: string): string;
          renderedBoundingBox(options: { includeLabels: boolean }): Box;
        };
        const cy = (element as unknown as { _cyreg: { cy: { zoom(): number; nodes(): Node[] } } })._cyreg.cy;
        const nodes = Array.from(cy.nodes());
        const zoom = cy.zoom();
        const labelled = nodes.filter((n) => n.data('label'));
        const leaves = nodes.filter((n) => !n.isParent());
        const boxes = leaves.map((n) => ({
          id: n.id(),
          box: n.renderedBoundingBox({ includeLabels: true }),
        }));
        const overlaps: string[] = [];
        for (const [i, a] of boxes.entries())
          for (const b of boxes.slice(i + 1))
            if (a.box.x1 < b.box.x2 && b.box.x1 < a.box.x2 && a.box.y1 < b.box.y2 && b.box.y1 < a.box.y2)
              overlaps.push(`${a.id} × ${b.id}`);
        const entities = leaves.filter((n) => n.id().startsWith('e:'));
        const width = element.clientWidth;
        return {
          fits: boxes.every((b) => b.box.x1 >= 0 && b.box.x2 <= width),
          smallestFont: Math.min(...labelled.map((n) => Number.parseFloat(n.style('font-size')) * zoom)),
          labelled: labelled.length,
          overlaps,
          entities: entities.length,
          types: [...new Set(entities.map((n) => n.data('type')))],
          misplaced: entities.filter((n) => n.parent().id() !== `g:${n.data('type')}`).map((n) => n.id()),
          groups: nodes
            .filter((n) => n.isParent() && n.id() !== 'g:search')
            .map((n) => ({ type: n.data('type'), label: n.data('label'), size: n.children().length })),
        };
      });
    const legible = async () => {
      const now = await drawn();
      expect(now.smallestFont).toBeGreaterThanOrEqual(11);
      expect(now.overlaps).toEqual([]);
      expect(now.fits).toBe(true);
      expect(now.misplaced).toEqual([]);
      for (const group of now.groups) expect(group.label).toMatch(new RegExp(` · ${group.size}$`));
      return now;
    };
    // The pictures show the graph from its top, under the page's sticky header.
    const showTop = () =>
      graph.evaluate((element) => {
        element.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -72);
      });
    const all = await legible();
    expect(all.labelled).toBeGreaterThan(20);
    expect(all.types.length).toBeGreaterThan(3);
    expect(all.groups.map((g) => g.type).sort()).toEqual([...all.types].sort());
    expect(all.groups.find((g) => g.type === 'phone')?.label).toMatch(/^Phone · \d+$/);
    await showTop();
    await screenshot(page, 'case-graph-desktop');

    // The type filter leaves the phones' box and the search that found them.
    await page.getByLabel(t.entityType).selectOption('phone');
    await graph.and(page.locator('[data-ready="true"]')).waitFor();
    const phones = await legible();
    expect(phones.types).toEqual(['phone']);
    expect(phones.groups.map((g) => g.type)).toEqual(['phone']);
    expect(phones.entities).toBe(
      await page.getByRole('list', { name: 'Phone' }).getByRole('listitem').count(),
    );
    await page.getByLabel(t.entityType).selectOption('');
    await graph.and(page.locator('[data-ready="true"]')).waitFor();

    // On a phone the boxes stand in one column, labels as legible; the view grows, then pans.
    await page.setViewportSize(viewports.mobile);
    await expect.poll(async () => (await drawn()).fits).toBe(true);
    await legible();
    await showTop();
    await screenshot(page, 'case-graph-mobile');
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

  it('shows the case on the next form, files under none in one click; history filters by case and groups a bulk job', async () => {
    // A live account of its own (bulk lookups are for live accounts), with a finished 2-row job.
    const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
    const email = uniqueEmail('case-filing');
    const password = 'case filing passphrase';
    const made = await api('/api/admin/users', {
      body: { name: 'Filing Officer', email, password, app_mode: 'live', credits: 40 },
      token: admin,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const own = await apiSignIn(email, password);
    const job = await api('/api/bulk', {
      body: { type: 'tel', values: ['9876543210', '9123456780'] },
      token: own,
    });
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    await expect
      .poll(async () => (await api(`/api/bulk/${job.body.id}`, { token: own })).body.status, {
        timeout: 30_000,
      })
      .toBe('done');

    const f = messages.caseReference.filing;
    const page = await browser.newPage(viewports.desktop);
    await openSignedIn(page, own, '/dashboard');
    await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
    await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    await page.getByLabel(/^Case reference/).fill('OP-HERON');
    const summary = page.getByRole('region', { name: new RegExp(f.label) });
    await expect.poll(() => summary.getByRole('strong').textContent()).toBe('OP-HERON');
    const phone = page.waitForRequest((request) => request.url().includes('/api/tel?'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect(new URL((await phone).url()).searchParams.get('case_reference')).toBe('OP-HERON');
    await page.waitForURL('**/results');

    // The next form, for another subject, says which case it would file under before anything is sent.
    await page.goto(`${inject('baseURL')}/dashboard`);
    await page.getByRole('radio', { name: 'Email' }).check({ force: true });
    await page.getByRole('textbox', { name: 'Email address' }).fill('rich.demo@example.test');
    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    await summary.getByText(f.filedUnder, { exact: true }).waitFor();
    await expect.poll(() => summary.getByRole('strong').textContent()).toBe('OP-HERON');
    await screenshot(page, 'dashboard-case-filing-desktop');
    await page.getByRole('button', { name: f.clearLabel }).click();
    await summary.getByText(f.none, { exact: true }).waitFor();
    const mail = page.waitForRequest((request) => request.url().includes('/api/email?'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect(new URL((await mail).url()).searchParams.has('case_reference')).toBe(false);
    await page.waitForURL('**/results');

    // History: the job is one entry that expands to its rows; the case filter lists the case's search only.
    await page.goto(`${inject('baseURL')}/history`);
    const table = page.getByRole('region', { name: messages.history.lookupsTab });
    const jobRow = table.getByRole('row').filter({ hasText: messages.history.bulkJob });
    await jobRow.getByText(messages.history.jobRows(2)).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    await jobRow.getByRole('button', { name: messages.history.showRowsLabel('Pasted list') }).click();
    const rows = page.getByRole('table', { name: messages.history.jobRowsLabel('Pasted list') });
    await expect.poll(() => rows.getByRole('row').count()).toBe(2);
    await rows.getByText('+91 9123456780').waitFor();
    await screenshot(page, 'history-grouped-desktop');

    await page.getByLabel(messages.history.caseFilter, { exact: true }).selectOption({ label: 'OP-HERON' });
    const filters = page.getByRole('list', { name: messages.history.filtersLabel });
    await filters.getByText(messages.history.filterCase('OP-HERON')).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table
      .getByRole('row')
      .filter({ hasText: 'OP-HERON' })
      .getByText('Phone', { exact: true })
      .waitFor();
    expect(page.url()).toContain('case=');
    await page.setViewportSize(viewports.mobile);
    await screenshot(page, 'history-case-filter-mobile');
    await filters
      .getByRole('button', { name: messages.history.clearFilter(messages.history.filterCase('OP-HERON')) })
      .click();
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    await page.goto(`${inject('baseURL')}/dashboard`);
    await page
      .getByRole('region', { name: new RegExp(f.label) })
      .getByText(f.none)
      .waitFor();
    await screenshot(page, 'dashboard-case-filing-mobile');
    expect(problemsOf(page)).toEqual([]);
  }, 90_000);

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
    await picture(page, screenPicture('cases', 'mobile'));
  });
});
