import { randomUUID } from 'node:crypto';
import { messages, UNIT_ROLE_LABELS } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeProblems, dismissToasts, openSignedIn, settle } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { expectNoSidewaysScroll, problemsOf, screenshot, useBrowser } from '../support/browser.ts';

/**
 * Units in the browser: demo-admin names the levels and builds a tree of four levels on /admin/units
 * (add below, rename, move, delete, with the mouse and with the keyboard), sets and clears a unit's
 * retention period, and puts people in its units with their roles; the supervisor of a district then
 * reads an investigator's search of a station below under History → My units, and shares a case of
 * theirs with the district's cyber cell, whose member finds it under /cases until it is no longer
 * shared.
 *
 * The tree and its level names are deployment-wide and the e2e server is shared: the names here are
 * this spec's own, and the level names are put back as found.
 */

const browser = useBrowser();
const t = messages.units.admin;
const h = messages.units.history;
const c = messages.units.caseShare;
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

const mail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.org`;
const people = {
  supervisor: { name: 'Inspector Meera Joshi', email: mail('units-supervisor') },
  investigator: { name: 'Constable Arjun Nair', email: mail('units-investigator') },
  cyber: { name: 'Sub-Inspector Leela Das', email: mail('units-cyber') },
};
type Person = { name: string; email: string; token: string };
const password = 'units spec passphrase 4';
const unitNames = {
  state: 'Vindhara State',
  range: 'Western Range',
  district: 'Northfield District',
  station: 'Harbour Police Station',
  cyber: 'Northfield Cyber Cell',
  outpost: 'Old Town Outpost',
};

let adminToken: string;
let levelsBefore: string[] | undefined;
const signedIn: Record<keyof typeof people, Person> = {} as never;

beforeAll(async () => {
  adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword);
  levelsBefore = (await api('/api/units', { token: adminToken })).body.levels as string[];
  for (const [key, person] of Object.entries(people) as Array<
    [keyof typeof people, (typeof people)['cyber']]
  >) {
    const created = await api('/api/admin/users', {
      token: adminToken,
      body: { ...person, password, app_mode: 'live', credits: 50 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    signedIn[key] = { ...person, token: await apiSignIn(person.email, password) };
  }
});

afterAll(async () => {
  if (levelsBefore) {
    await api('/api/units/levels', { method: 'PUT', token: adminToken, body: { levels: levelsBefore } });
  }
});

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

async function signedInPage(token: string, path: string, size = desktop) {
  const page = await browser.newPage(size);
  await openSignedIn(page, token, path);
  return page;
}

describe('units', () => {
  // The longest flow of the suite (a tree of four levels built in the dialogs, moved, renamed, its members
  // added and changed, each screen checked with axe): over the default 90 s on a loaded machine.
  it('an admin names the levels, builds a tree of four levels and puts people in its units', async () => {
    const page = await signedInPage(adminToken, '/admin/users');
    const unitButton = (name: string) => page.getByRole('button', { name, exact: true });
    await page
      .getByRole('navigation', { name: messages.admin.navLabel })
      .getByRole('link', { name: t.navLink, exact: true })
      .click();
    await page.waitForURL('**/admin/units');
    await page.getByRole('heading', { level: 1, name: t.title }).waitFor();

    // The second level is renamed and saved.
    const level2 = page.getByRole('textbox', { name: t.levelLabel(2), exact: true });
    await level2.fill('Range');
    await page.getByRole('button', { name: t.saveLevels }).click();
    await toast(page, t.levelsSaved).waitFor();
    expect((await api('/api/units', { token: adminToken })).body.levels).toEqual([
      levelsBefore?.[0],
      'Range',
      ...(levelsBefore?.slice(2) ?? []),
    ]);
    const levels = (await api('/api/units', { token: adminToken })).body.levels as string[];

    // The top of the tree, then a unit below each: three with the mouse, one with the keyboard alone.
    const add = async (parent: string | null, name: string, level: string) => {
      await page
        .getByRole('button', { name: parent ? t.addBelowLabel(parent) : t.addTop, exact: true })
        .click();
      const dialog = page.getByRole('dialog', { name: t.addTitle(parent, level) });
      await dialog.getByRole('textbox', { name: t.nameLabel }).fill(name);
      await dialog.getByRole('button', { name: t.create }).click();
      await dialog.waitFor({ state: 'detached' });
      await unitButton(name).waitFor();
    };
    await add(null, unitNames.state, levels[0]!);
    // An empty name is refused under the field, before anything is sent.
    await page.getByRole('button', { name: t.addBelowLabel(unitNames.state) }).click();
    const empty = page.getByRole('dialog', { name: t.addTitle(unitNames.state, levels[1]!) });
    await empty.getByRole('button', { name: t.create }).click();
    await empty.getByText('The name field is required.').waitFor();
    await page.keyboard.press('Escape');
    await empty.waitFor({ state: 'detached' });
    await add(unitNames.state, unitNames.range, levels[1]!);
    await add(unitNames.range, unitNames.district, levels[2]!);
    await add(unitNames.district, unitNames.station, levels[3]!);

    await page.getByRole('button', { name: t.addBelowLabel(unitNames.district) }).focus();
    await page.keyboard.press('Enter');
    const byKeys = page.getByRole('dialog', { name: t.addTitle(unitNames.district, levels[3]!) });
    await page.keyboard.type('Northfield Cyber Cel');
    await page.keyboard.press('Enter');
    await byKeys.waitFor({ state: 'detached' });
    await toast(page, t.created('Northfield Cyber Cel')).waitFor();
    // The focus is back on the button that opened the dialog; the typo is renamed with the keyboard.
    expect(
      await page
        .getByRole('button', { name: t.addBelowLabel(unitNames.district) })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.getByRole('button', { name: t.renameLabel('Northfield Cyber Cel') }).focus();
    await page.keyboard.press('Enter');
    const rename = page.getByRole('dialog', { name: t.renameTitle('Northfield Cyber Cel') });
    await rename.getByRole('textbox', { name: t.nameLabel }).fill(unitNames.cyber);
    await page.keyboard.press('Enter');
    await rename.waitFor({ state: 'detached' });
    await unitButton(unitNames.cyber).waitFor();
    // The last level has nothing below it to add.
    expect(await page.getByRole('button', { name: t.addBelowLabel(unitNames.station) }).count()).toBe(0);

    // A unit added, moved under another parent (it takes that level's name), and deleted.
    await add(unitNames.district, unitNames.outpost, levels[3]!);
    await page.getByRole('button', { name: t.moveLabel(unitNames.outpost) }).click();
    const move = page.getByRole('dialog', { name: t.moveTitle(unitNames.outpost) });
    const tree = (await api('/api/units', { token: adminToken })).body.units as Array<{
      id: string;
      name: string;
      level_name: string;
    }>;
    const range = tree.find((unit) => unit.name === unitNames.range)!;
    const parent = move.getByRole('combobox', { name: t.parentLabel });
    expect(await parent.locator(`option[value="${range.id}"]`).innerText()).toContain(
      t.parentOption(unitNames.range, levels[1]!),
    );
    await parent.selectOption(range.id);
    await move.getByRole('button', { name: t.moveSubmit }).click();
    await move.waitFor({ state: 'detached' });
    await toast(page, t.moved).waitFor();
    const moved = (await api('/api/units', { token: adminToken })).body.units as typeof tree;
    expect(moved.find((unit) => unit.name === unitNames.outpost)?.level_name).toBe(levels[2]);
    await page.getByRole('button', { name: t.deleteLabel(unitNames.outpost) }).click();
    const remove = page.getByRole('dialog', { name: t.deleteTitle(unitNames.outpost) });
    await remove.getByRole('button', { name: t.delete, exact: true }).click();
    await remove.waitFor({ state: 'detached' });
    await toast(page, t.deleted(unitNames.outpost)).waitFor();
    expect(await unitButton(unitNames.outpost).count()).toBe(0);

    // Retention: the district keeps its members' results 30 days, said in its row; a period above the
    // deployment's (the ceiling, named in the hint) is warned about; a bad one is refused under the
    // field; then it follows the deployment's period again.
    const ceiling = (await api('/api/admin/settings', { token: adminToken })).body
      .lookup_retention_days as number;
    const unitRow = (name: string) => page.locator('.unit-row').filter({ has: unitButton(name) });
    // The meta line's parts follow a '· ' kept from screen readers: matched as a part of the line.
    const rowSays = (name: string, text: string) => unitRow(name).locator('p').getByText(text).waitFor();
    const retentionOf = async (name: string) =>
      (
        (await api('/api/units', { token: adminToken })).body.units as Array<{
          name: string;
          retention_days: number | null;
        }>
      ).find((unit) => unit.name === name)?.retention_days;
    await rowSays(unitNames.district, t.retentionFollows);
    await page.getByRole('button', { name: t.retentionLabel(unitNames.district), exact: true }).click();
    const retention = page.getByRole('dialog', { name: t.retentionTitle(unitNames.district) });
    const days = retention.getByRole('textbox', { name: t.retentionDaysLabel });
    await retention.getByText(t.retentionHint(ceiling), { exact: true }).waitFor();
    expect(await retention.getByRole('button', { name: t.retentionClear }).count()).toBe(0);
    await days.fill('0');
    await retention.getByRole('button', { name: t.retentionSave }).click();
    await retention.getByText('The retention days field must be at least 1.', { exact: true }).waitFor();
    expect(await days.getAttribute('aria-invalid')).toBe('true');
    if (ceiling < 3650) {
      await days.fill(String(ceiling + 1));
      await retention.getByText(t.retentionWarning(ceiling + 1, ceiling), { exact: true }).waitFor();
      await settle(page);
      expect(await axeProblems(page, 'admin-units retention dialog')).toEqual([]);
      await page.setViewportSize(phone);
      await settle(page);
      await screenshot(page, 'admin-units-retention-dialog-mobile');
      await page.setViewportSize(desktop);
    }
    await days.fill('30');
    expect(await retention.locator('[role="status"]').count()).toBe(0);
    await retention.getByRole('button', { name: t.retentionSave }).click();
    await retention.waitFor({ state: 'detached' });
    await toast(page, t.retentionSaved(unitNames.district, 30)).waitFor();
    await rowSays(unitNames.district, t.retentionDays(30));
    expect(await retentionOf(unitNames.district)).toBe(30);
    // The units below follow the deployment's period in their own rows.
    await rowSays(unitNames.station, t.retentionFollows);
    await dismissToasts(page);
    await unitRow(unitNames.district).evaluate((row) => row.scrollIntoView({ block: 'center' }));
    await page.mouse.move(1, desktop.height - 2);
    await settle(page);
    await screenshot(page, 'admin-units-retention-desktop');
    await page.setViewportSize(phone);
    await unitRow(unitNames.district).scrollIntoViewIfNeeded();
    await settle(page);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'admin-units-retention-mobile');
    await page.setViewportSize(desktop);

    await page.getByRole('button', { name: t.retentionLabel(unitNames.district), exact: true }).click();
    expect(await days.inputValue()).toBe('30');
    await retention.getByRole('button', { name: t.retentionClear }).click();
    await retention.waitFor({ state: 'detached' });
    await toast(page, t.retentionCleared(unitNames.district)).waitFor();
    await rowSays(unitNames.district, t.retentionFollows);
    expect(await retentionOf(unitNames.district)).toBeNull();
    await dismissToasts(page);

    // Members: choosing a unit opens its panel, which takes the focus.
    const members = async (unit: string) => {
      await unitButton(unit).click();
      const panel = page.getByRole('region', { name: t.membersTitle(unit) });
      await panel.getByRole('button', { name: t.addMember }).waitFor();
      expect(
        await panel
          .getByRole('heading', { name: t.membersTitle(unit) })
          .evaluate((el) => el === document.activeElement),
      ).toBe(true);
      return panel;
    };
    const addMember = async (unit: string, email: string, role: keyof typeof UNIT_ROLE_LABELS) => {
      const panel = await members(unit);
      await panel.getByRole('textbox', { name: t.emailLabel }).fill(email);
      await panel.getByRole('combobox', { name: t.roleLabel, exact: true }).selectOption(role);
      await panel.getByRole('button', { name: t.addMember }).click();
      await toast(page, t.memberSaved(email)).waitFor();
      await panel.getByRole('cell', { name: email }).waitFor();
      await dismissToasts(page);
      return panel;
    };
    // An address no account has is refused under the field.
    const district = await members(unitNames.district);
    await district.getByRole('textbox', { name: t.emailLabel }).fill(mail('nobody'));
    await district.getByRole('button', { name: t.addMember }).click();
    await district.getByText('No active user has this e-mail address.').waitFor();

    await addMember(unitNames.district, people.supervisor.email, 'supervisor');
    await addMember(unitNames.station, people.investigator.email, 'investigator');
    await addMember(unitNames.cyber, people.investigator.email, 'investigator');
    const cyber = await addMember(unitNames.cyber, people.cyber.email, 'investigator');
    await expect.poll(() => page.getByText(t.members(2)).count()).toBe(1);

    // A role changed in place, and a member removed.
    await cyber.getByRole('combobox', { name: t.roleOf(people.cyber.name) }).selectOption('unit_admin');
    await toast(page, t.roleChanged(people.cyber.name, UNIT_ROLE_LABELS.unit_admin)).waitFor();
    await cyber.getByRole('button', { name: t.removeLabel(people.investigator.name) }).click();
    await toast(page, t.removed(people.investigator.name)).waitFor();
    await expect.poll(() => cyber.getByRole('row').count()).toBe(2);

    // The screen with the tree of four levels and the members of the district, at both sizes.
    await members(unitNames.district);
    await dismissToasts(page);
    await page.mouse.move(1, desktop.height - 2);
    await settle(page);
    expect(await axeProblems(page, 'admin-units (desktop)')).toEqual([]);
    await page.setViewportSize({
      width: desktop.width,
      height: await page.evaluate(() => document.documentElement.scrollHeight),
    });
    await screenshot(page, 'admin-units-desktop');

    await page.setViewportSize(phone);
    await settle(page);
    await expectNoSidewaysScroll(page);
    expect(await axeProblems(page, 'admin-units (mobile)')).toEqual([]);
    await page.setViewportSize({
      width: phone.width,
      height: await page.evaluate(() => document.documentElement.scrollHeight),
    });
    await settle(page);
    await screenshot(page, 'admin-units-mobile');
    expect(problemsOf(page)).toEqual([]);
  }, 180_000);

  it("a supervisor reads an investigator's search of a station below under History → My units", async () => {
    const search = await fetch(`${inject('baseURL')}/api/tel?number=919876543210`, {
      headers: { authorization: `Bearer ${signedIn.investigator.token}` },
    });
    expect(search.status).toBe(200);

    // The investigator supervises nothing: no switch.
    const own = await signedInPage(signedIn.investigator.token, '/history');
    await own.getByRole('region', { name: messages.history.lookupsTab }).getByRole('row').nth(1).waitFor();
    expect(await own.getByRole('radio', { name: h.unit }).count()).toBe(0);

    const page = await signedInPage(signedIn.supervisor.token, '/history');
    await page.getByText(messages.history.empty).waitFor();
    // The choice is applied through the address (a navigation), so it is clicked, not checked.
    await page.getByText(h.unit, { exact: true }).click();
    await page.waitForURL(/\/history\?scope=unit$/);
    const lookups = page.getByRole('region', { name: messages.history.lookupsTab });
    const row = lookups.getByRole('row').filter({ hasText: people.investigator.name });
    await row.first().waitFor();
    expect(await lookups.getByRole('columnheader', { name: h.by }).count()).toBe(1);
    // The case filter is there; the list's CSV is one's own, said under the list instead of offered.
    expect(await page.getByRole('combobox', { name: messages.history.caseFilter }).count()).toBe(1);
    expect(await page.getByRole('button', { name: messages.history.exportCsv }).count()).toBe(0);
    await page.getByText(h.csvOwnOnly).waitFor();
    // Another's search opens too, its button naming whose it is.
    const open = row
      .first()
      .getByRole('button', { name: new RegExp(`searched by ${people.investigator.name}$`) });
    expect(await open.count()).toBe(1);
    await page.mouse.move(1, desktop.height - 2);
    await settle(page);
    expect(await axeProblems(page, 'history-my-units (desktop)')).toEqual([]);
    await screenshot(page, 'history-my-units-desktop');
    await page.setViewportSize(phone);
    await settle(page);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'history-my-units-mobile');

    // Mine again: the supervisor's own (empty) list.
    await page.setViewportSize(desktop);
    await page.getByText(h.mine, { exact: true }).click();
    await page.getByText(messages.history.empty).waitFor();
    expect(problemsOf(page)).toEqual([]);
  });

  it("the supervisor opens the investigator's search read-only as to reports and cases; the investigator keeps them", async () => {
    const readAs = h.readAs(people.investigator.name, people.investigator.email);
    const r = messages.results;
    /** The results bar's actions that make something of the caller's own lookup. */
    const ownActions = (page: Page) => ({
      ai: page.getByRole('button', { name: r.aiReport }),
      addToCase: page.getByRole('button', { name: messages.cases.addToCase, exact: true }),
    });

    const page = await signedInPage(signedIn.supervisor.token, '/history?scope=unit');
    const row = page
      .getByRole('region', { name: messages.history.lookupsTab })
      .getByRole('row')
      .filter({ hasText: people.investigator.name })
      .first();
    await row.getByRole('button', { name: new RegExp(`searched by ${people.investigator.name}$`) }).click();
    await page.waitForURL('**/results');
    const note = page.getByRole('note').filter({ hasText: readAs });
    await note.waitFor();
    await note.getByText(h.readAsHint).waitFor();
    // No report and no Add to case; the exports (GET /api/history/{id}/export) stay, and work.
    const { ai, addToCase } = ownActions(page);
    expect(await ai.count()).toBe(0);
    expect(await addToCase.count()).toBe(0);
    await page.getByRole('button', { name: r.exportResults, exact: true }).click();
    expect(await page.getByRole('button', { name: r.saveAsPdf }).count()).toBe(0);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: r.saveAsJson, exact: true }).click();
    expect((await downloading).suggestedFilename()).toMatch(/\.json$/);
    await page.mouse.move(1, desktop.height - 2);
    await settle(page);
    expect(await axeProblems(page, 'results-read-as-supervisor (desktop)')).toEqual([]);
    await screenshot(page, 'results-supervisor-read-desktop');
    await page.setViewportSize(phone);
    await settle(page);
    await expectNoSidewaysScroll(page);
    expect(await axeProblems(page, 'results-read-as-supervisor (mobile)')).toEqual([]);
    await screenshot(page, 'results-supervisor-read-mobile');
    // A reload keeps whose it is.
    await page.reload();
    await note.waitFor();
    expect(await ownActions(page).ai.count()).toBe(0);
    expect(problemsOf(page)).toEqual([]);

    // The investigator's own search: no notice, and the reports and Add to case are there.
    const own = await signedInPage(signedIn.investigator.token, '/history');
    await own
      .getByRole('region', { name: messages.history.lookupsTab })
      .getByRole('button', { name: messages.history.open })
      .first()
      .click();
    await own.waitForURL('**/results');
    const theirs = ownActions(own);
    await theirs.ai.waitFor();
    await theirs.addToCase.waitFor();
    await own.getByRole('button', { name: r.saveResults, exact: true }).waitFor();
    expect(await own.getByText(readAs).count()).toBe(0);
    expect(problemsOf(own)).toEqual([]);
  });

  it('a supervisor shares a case with the cyber cell, whose member then sees it under /cases', async () => {
    const title = 'Counterfeit notes at the harbour market';
    const created = await api('/api/cases', {
      token: signedIn.supervisor.token,
      body: {
        title,
        reference: `UNITS-${randomUUID().slice(0, 6).toUpperCase()}`,
        legal_basis: {
          kind: 'fir',
          police_station: 'Northfield',
          fir_number: '77',
          year: 2026,
          sections: ['BNS 318(4)'],
          purpose: 'Tracing the supplier',
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const caseId = created.body.id as string;
    const seen = async (token: string) =>
      ((await api('/api/cases', { token })).body.data as Array<{ id: string }>).some((x) => x.id === caseId);
    expect(await seen(signedIn.cyber.token)).toBe(false);

    const page = await signedInPage(signedIn.supervisor.token, `/cases/${caseId}`);
    const section = page.getByRole('region', { name: c.title, exact: true });
    await section.getByText(c.empty).waitFor();
    const choice = section.getByRole('combobox', { name: c.unitLabel });
    const options = await choice.locator('option').allInnerTexts();
    expect(options.some((text) => text.includes(unitNames.cyber))).toBe(true);
    // Nothing chosen: said under the select.
    await section.getByRole('button', { name: c.share, exact: true }).click();
    await section.getByText('The unit field is required.').waitFor();
    const label = options.find((text) => text.includes(unitNames.cyber))!;
    await choice.selectOption({ label });
    await section.getByRole('button', { name: c.share, exact: true }).click();
    await toast(page, c.shared(unitNames.cyber)).waitFor();
    await section.getByText(unitNames.cyber, { exact: true }).waitFor();
    // A unit already shared with is no longer offered.
    expect(
      (await choice.locator('option').allInnerTexts()).some((text) => text.includes(unitNames.cyber)),
    ).toBe(false);
    await dismissToasts(page);
    await section.scrollIntoViewIfNeeded();
    await page.mouse.move(1, desktop.height - 2);
    await settle(page);
    expect(await axeProblems(page, 'case-units (desktop)')).toEqual([]);
    await screenshot(page, 'case-units-desktop');
    await page.setViewportSize(phone);
    await section.scrollIntoViewIfNeeded();
    await settle(page);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'case-units-mobile');
    await page.setViewportSize(desktop);

    // The cyber cell's member finds it under /cases, marked as shared with their unit.
    const member = await signedInPage(signedIn.cyber.token, '/cases');
    const card = member.getByRole('link', { name: title });
    await card.waitFor();
    await member.getByText(messages.cases.role.unit).first().waitFor();
    await card.click();
    await member.getByRole('heading', { level: 1, name: title }).waitFor();
    // A member of the unit reads the shares; only whoever may share changes them.
    const theirs = member.getByRole('region', { name: c.title, exact: true });
    await theirs.getByText(unitNames.cyber, { exact: true }).waitFor();
    expect(await theirs.getByRole('button', { name: c.stopLabel(unitNames.cyber) }).count()).toBe(0);

    await section.getByRole('button', { name: c.stopLabel(unitNames.cyber) }).click();
    await toast(page, c.stopped(unitNames.cyber)).waitFor();
    await section.getByText(c.empty).waitFor();
    expect(await seen(signedIn.cyber.token)).toBe(false);
    expect(problemsOf(page)).toEqual([]);
    expect(problemsOf(member)).toEqual([]);
  });
});
