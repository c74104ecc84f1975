import { randomUUID } from 'node:crypto';
import { messages, unitsMessages } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, dismissToasts, openSignedIn, settle } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import {
  expectNoSidewaysScroll,
  problemsOf,
  screenshot,
  tableOverflowAtLaptop,
  useBrowser,
} from '../support/browser.ts';

/**
 * Unit credit pools in the browser (issue 34): demo-admin tops up a unit's pool on /admin/units (a
 * deduction below zero is refused beside the form with the server's words), and sets a member's monthly
 * allowance in the members' table. The member, with no credits of their own, sees the pool in the
 * header, and their search from the dashboard goes through (the pre-check counts the pool) and is paid
 * by it: their credit statement says so, and the pool's statement, filtered to them, shows the charge.
 * Then a unit admin of the unit (no admin) finds Units in the menu and opens the unit on /units: they set
 * the member's allowance but not their own, cannot top up, and read whose search each pool row was;
 * the member, an investigator only, has no Units entry and is sent from /units to the dashboard.
 */

const browser = useBrowser();
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const suffix = randomUUID().slice(0, 6);
const unitName = `Pool Station ${suffix}`;
const member = { name: 'Constable Kavya Rao', email: `pool-member-${suffix}@example.org` };
const unitAdmin = { name: 'Inspector Farah Qureshi', email: `pool-unit-admin-${suffix}@example.org` };
const password = 'pools spec passphrase 5';
/** The pools' words (messages.pools), the header chip's written out as the reader sees them. */
const p = {
  title: 'Credit pool',
  statementEmpty: 'No pool entries yet.',
  amountLabel: 'Amount',
  reasonLabel: 'Reason',
  apply: 'Apply',
  changed: (unit: string, balance: number) => `The pool of ${unit} now holds ${balance} credits.`,
  allowanceOf: (name: string) => `Monthly allowance of ${name}`,
  saveAllowanceOf: (name: string) => `Set the monthly allowance of ${name}`,
  allowanceSaved: (name: string, n: number) => `${name} may now draw ${n} credits a month from the pool.`,
  allowanceColumn: 'Allowance / month',
  chip: (available: number) => `Pool: ${available}`,
  chipOf: (available: number, allowance: number) => `Pool: ${available} of ${allowance} this month`,
  paidByPool: (unit: string) => `Paid by pool: ${unit}`,
  poolBalanceTitle: (unit: string) => `The balance of the credit pool of ${unit} after this entry`,
  memberFilter: 'Member',
  statementFor: (who: string) => `Entries of ${who}`,
};

let adminToken: string;
let memberToken: string;
let unitAdminToken: string;
let unitId: string;

beforeAll(async () => {
  adminToken = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const created = await api('/api/admin/users', {
    token: adminToken,
    body: { ...member, password, app_mode: 'live', credits: 0 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  memberToken = await apiSignIn(member.email, password);
  const unit = await api('/api/units', { token: adminToken, body: { name: unitName, parent_id: null } });
  expect(unit.status, JSON.stringify(unit.body)).toBe(201);
  unitId = unit.body.id as string;
  const added = await api(`/api/units/${unitId}/members`, {
    token: adminToken,
    body: { email: member.email, role: 'investigator' },
  });
  expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
  const admin = await api('/api/admin/users', {
    token: adminToken,
    body: { ...unitAdmin, password, app_mode: 'live', credits: 0 },
  });
  expect(admin.status, JSON.stringify(admin.body)).toBe(201);
  unitAdminToken = await apiSignIn(unitAdmin.email, password);
});

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

async function signedInPage(token: string, path: string, size = desktop) {
  const page = await browser.newPage(size);
  await openSignedIn(page, token, path);
  return page;
}

/** The region, scrolled into view and pictured at desktop and phone size. */
async function picture(page: Page, region: ReturnType<Page['getByRole']>, name: string) {
  await dismissToasts(page);
  await page.mouse.move(1, desktop.height - 2);
  await region.scrollIntoViewIfNeeded();
  await settle(page);
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(phone);
  await region.scrollIntoViewIfNeeded();
  await settle(page);
  await expectNoSidewaysScroll(page);
  await screenshot(page, `${name}-mobile`);
  await page.setViewportSize(desktop);
}

describe('unit credit pools', () => {
  it('an admin tops up the pool and sets an allowance; the member searches on it with no credits of their own', async () => {
    const page = await signedInPage(adminToken, `/admin/units?unit=${unitId}`);
    const pool = page.getByRole('region', { name: p.title, exact: true });
    const balance = pool.getByTestId('pool-balance');
    await balance.waitFor();
    expect(await balance.innerText()).toBe('0');
    await pool.getByText(p.statementEmpty).waitFor();

    // A top-up, then a deduction below zero: refused beside the form, in the server's words.
    await pool.getByRole('textbox', { name: p.amountLabel }).fill('100');
    await pool.getByRole('textbox', { name: p.reasonLabel }).fill('Quarterly budget');
    await pool.getByRole('button', { name: p.apply }).click();
    await toast(page, p.changed(unitName, 100)).waitFor();
    await expect.poll(() => balance.innerText()).toBe('100');
    await pool.getByRole('cell', { name: 'Quarterly budget' }).waitFor();
    await pool.getByRole('textbox', { name: p.amountLabel }).fill('-500');
    await pool.getByRole('textbox', { name: p.reasonLabel }).fill('Too much');
    await pool.getByRole('button', { name: p.apply }).click();
    await pool.getByText(unitsMessages.poolTooSmall(100)).waitFor();
    expect(await balance.innerText()).toBe('100');

    // The member's allowance, set in the members' table.
    const members = page.getByRole('region', { name: messages.units.admin.membersTitle(unitName) });
    const allowance = members.getByRole('textbox', { name: p.allowanceOf(member.name) });
    expect(await allowance.inputValue()).toBe('0');
    await allowance.fill('-1');
    await members.getByRole('button', { name: p.saveAllowanceOf(member.name) }).click();
    await members.getByText('The monthly allowance field must be at least 0.').waitFor();
    await allowance.fill('40');
    await members.getByRole('button', { name: p.saveAllowanceOf(member.name) }).click();
    await toast(page, p.allowanceSaved(member.name, 40)).waitFor();
    await members.getByRole('columnheader', { name: p.allowanceColumn }).waitFor();
    // The two new columns still fit a laptop's screen, Remove included.
    expect(await tableOverflowAtLaptop(page, messages.units.admin.memberList)).toBe(0);
    await settle(page);
    expect(await axeProblems(page, 'admin-units pool (desktop)')).toEqual([]);
    await picture(page, pool, 'admin-units-pool');
    expect(problemsOf(page)).toEqual([]);

    // The member: no credits of their own, the pool in the header, and a search that goes through.
    const own = await signedInPage(memberToken, '/dashboard');
    const chip = own.getByTestId('pool-chip');
    await chip.waitFor();
    expect(await chip.innerText()).toContain(p.chip(40));
    expect(await chip.getAttribute('title')).toContain(unitName);
    await own.getByText(messages.credits.label(0)).waitFor();
    await own.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
    await own.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    const answer = own.waitForResponse((res) => res.url().includes('/api/tel?'));
    await own.getByRole('button', { name: 'Search', exact: true }).click();
    expect((await answer).status()).toBe(200);
    await own.waitForURL('**/results');
    const after = (await api('/api/user', { token: memberToken })).body as {
      credits: number;
      pool: { used_this_month: number; available: number };
    };
    expect(after.credits).toBe(0);
    expect(after.pool.used_this_month).toBeGreaterThan(0);
    // The header reads the pool again after the answer.
    await expect.poll(() => chip.innerText()).toContain(p.chipOf(after.pool.available, 40));
    await own.goto('/dashboard');
    await chip.waitFor();
    await picture(own, own.getByRole('banner'), 'header-pool');
    // On a small phone the header still holds the credits, the pool and the profile menu.
    await own.setViewportSize({ width: 360, height: 740 });
    await settle(own);
    await expectNoSidewaysScroll(own);
    const banner = await own
      .getByRole('banner')
      .evaluate((el) => ({ inner: el.scrollWidth, outer: el.clientWidth }));
    expect(banner.inner).toBeLessThanOrEqual(banner.outer);
    await own.setViewportSize(desktop);

    // Their credit statement: the charge was paid by the pool, its balance the pool's.
    await own.goto('/history?tab=statement');
    const paidBy = own.getByText(p.paidByPool(unitName), { exact: true });
    await paidBy.first().waitFor();
    await own.getByTitle(p.poolBalanceTitle(unitName)).first().waitFor();
    await settle(own);
    expect(await axeProblems(own, 'history statement with a pool row')).toEqual([]);
    await picture(own, paidBy.first(), 'statement-pool-row');
    expect(problemsOf(own)).toEqual([]);

    // The pool's statement: the charge, and filtered to the member, their rows under their name.
    await page.reload();
    await expect.poll(() => balance.innerText()).toBe(String(100 - after.pool.used_this_month));
    await pool.getByRole('cell', { name: messages.history.entryKinds.charge }).first().waitFor();
    const used = members.getByRole('row').filter({ hasText: member.email });
    await used.getByRole('cell', { name: String(after.pool.used_this_month), exact: true }).waitFor();
    await pool
      .getByRole('combobox', { name: p.memberFilter })
      .selectOption({ label: `${member.name} (${member.email})` });
    await pool.getByText(p.statementFor(`${member.name} (${member.email})`)).waitFor();
    await expect.poll(() => pool.getByRole('cell', { name: 'Quarterly budget' }).count()).toBe(0);
    await pool.getByRole('cell', { name: messages.history.entryKinds.charge }).first().waitFor();
    expect(problemsOf(page)).toEqual([]);
  });

  it("a unit admin sets a member's allowance on /units, not their own, and cannot top up; an investigator has no Units entry", async () => {
    const u = messages.units.admin;
    const pools = messages.pools;
    const added = await api(`/api/units/${unitId}/members`, {
      token: adminToken,
      body: { email: unitAdmin.email, role: 'unit_admin' },
    });
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);

    // The unit admin finds Units in the menu and opens the unit there.
    const page = await signedInPage(unitAdminToken, '/dashboard');
    const nav = page.getByRole('navigation', { name: messages.layout.mainNav });
    await nav.getByRole('link', { name: u.navLink, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/units');
    await page.getByRole('heading', { level: 1, name: u.title }).waitFor();
    await page.getByRole('button', { name: unitName, exact: true }).click();
    const members = page.getByRole('region', { name: u.membersTitle(unitName) });
    // Nothing of the tree's editing: that is an admin's.
    expect(await page.getByRole('button', { name: u.addTop }).count()).toBe(0);
    expect(await page.getByRole('button', { name: u.saveLevels }).count()).toBe(0);
    expect(await page.getByRole('button', { name: u.renameLabel(unitName) }).count()).toBe(0);

    // The member's allowance: set.
    const allowance = members.getByRole('textbox', { name: pools.allowanceOf(member.name) });
    await allowance.fill('25');
    await members.getByRole('button', { name: pools.saveAllowanceOf(member.name) }).click();
    await toast(page, pools.allowanceSaved(member.name, 25)).waitFor();
    // Their own: no field, and no role select or Remove on their own row (the server refuses both).
    const own = members.getByRole('row').filter({ hasText: unitAdmin.email });
    await own.waitFor();
    expect(await members.getByRole('textbox', { name: pools.allowanceOf(unitAdmin.name) }).count()).toBe(0);
    expect(await members.getByRole('combobox', { name: u.roleOf(unitAdmin.name) }).count()).toBe(0);
    expect(await members.getByRole('button', { name: u.removeLabel(unitAdmin.name) }).count()).toBe(0);
    // They manage the members: the add form is theirs.
    await members.getByRole('button', { name: u.addMember }).waitFor();

    // The pool: no top-up; its statement says whose search each charge was.
    const pool = page.getByRole('region', { name: pools.title, exact: true });
    await pool.getByTestId('pool-balance').waitFor();
    expect(await pool.getByRole('textbox', { name: pools.amountLabel }).count()).toBe(0);
    expect(await pool.getByRole('button', { name: pools.apply }).count()).toBe(0);
    await pool.getByRole('columnheader', { name: pools.whoColumn }).waitFor();
    const charge = pool.getByRole('row').filter({ hasText: messages.history.entryKinds.charge }).first();
    await charge.getByText(member.name, { exact: true }).waitFor();
    await charge.getByText(member.email, { exact: true }).waitFor();
    await settle(page);
    expect(await axeProblems(page, 'units as a unit admin (desktop)')).toEqual([]);
    // The unit admin's whole screen, top to bottom, at desktop and phone size.
    await dismissToasts(page);
    await page.mouse.move(1, desktop.height - 2);
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const [name, size] of [
      ['desktop', desktop],
      ['mobile', phone],
    ] as const) {
      await page.setViewportSize(size);
      await settle(page);
      if (name === 'mobile') await expectNoSidewaysScroll(page);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: size.width, height });
      await settle(page);
      await screenshot(page, `units-unit-admin-${name}`);
    }
    await page.setViewportSize(desktop);
    expect(problemsOf(page)).toEqual([]);

    // The member, an investigator only: no Units entry, and /units leads back to the dashboard.
    const investigator = await signedInPage(memberToken, '/dashboard');
    const theirNav = investigator.getByRole('navigation', { name: messages.layout.mainNav });
    await theirNav.getByRole('link', { name: messages.security.navLabel, exact: true }).waitFor();
    await investigator.waitForLoadState('networkidle');
    expect(await theirNav.getByRole('link', { name: u.navLink, exact: true }).count()).toBe(0);
    await investigator.goto('/units');
    await investigator.waitForURL((url) => url.pathname === '/dashboard');
    expect(problemsOf(investigator)).toEqual([]);
  });
});
