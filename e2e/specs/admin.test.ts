import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import {
  type AuditChainState,
  mergePhoneProfile,
  messages,
  type PhoneLookupResponse,
  SANDBOX_BANNER,
} from '@footprint/domain';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import {
  expectNoSidewaysScroll,
  problemsOf,
  screenshot,
  storeSession,
  tableOverflowAtLaptop,
  uniqueEmail,
  useBrowser,
} from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';
import { changingSettings } from '../support/settings.ts';

/**
 * Accountability in the browser: the admin area (users, credits, mode, audit trail with its case reference and
 * CSV export, provider health, leak sources, settings), the user's own search history (reopening costs
 * nothing) and credit statement, the case reference on the search screens, and the wall around the admin
 * area for everyone else (the browser never shows it; the server answers 403 to every admin call).
 * The admin is demo-admin; the searches spend the credits of a user this spec creates, so no other spec
 * counts them.
 */

const run = promisify(execFile);
/** The columns of the Providers table. */
const PROVIDER_COLUMNS = [
  'Source',
  'Calls',
  'Success',
  'p50',
  'p95',
  'Breaker',
  'Last error',
  'Spend today',
  'Spend this month',
];
const browser = useBrowser();
const adminEmail = 'demo-admin@footprint.test';
const caseReference = `CASE-E2E-${Date.now().toString(36).toUpperCase()}`;
const officer = {
  name: 'Inspector Asha Verma',
  email: uniqueEmail('officer'),
  password: 'field work passphrase 7',
};
let adminToken: string;
let officerToken: string | undefined;
let officerId: string | undefined;

beforeAll(async () => {
  adminToken = await apiSignIn(adminEmail, demoPassword);
});

// The settings are deployment-wide and the e2e server is shared: leave them as found.
let settingsBefore: Record<string, unknown> | undefined;
beforeAll(async () => {
  settingsBefore = (await api('/api/admin/settings', { token: adminToken })).body;
});
afterAll(async () => {
  if (!settingsBefore) return;
  await api('/api/admin/settings', {
    method: 'PATCH',
    token: adminToken,
    body: {
      registration_mode: settingsBefore.registration_mode,
      case_reference_required: settingsBefore.case_reference_required,
    },
  });
});

async function pageAs(token: string, path: string, size: { width?: number; height?: number } = {}) {
  const page = await browser.newPage({ width: 1440, height: 900, ...size });
  await storeSession(page, token);
  await page.goto(path);
  return page;
}

const toast = (page: Page, text: string | RegExp) =>
  page.locator('.Toastify').getByText(text, typeof text === 'string' ? { exact: true } : undefined);
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

async function profileMenu(page: Page) {
  const profile = page.getByRole('button', { name: /^Profile: / });
  await profile.click();
  return page.locator(`[id="${await profile.getAttribute('aria-controls')}"]`);
}

async function phoneSearch(page: Page, digits: string, reference: string) {
  await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
  await page.getByRole('textbox', { name: 'Phone number' }).fill(digits);
  await page.getByLabel(/^Case reference/).fill(reference);
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
  const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  return answer;
}

const credits = async (token: string) => Number((await api('/api/user', { token })).body.credits);

describe('admin area', () => {
  it('an admin creates a user, grants credits and makes them live; their next lookup is in the audit view with its case reference', async () => {
    const admin = await pageAs(adminToken, '/dashboard');
    const menu = await profileMenu(admin);
    await menu.getByRole('link', { name: 'Search history' }).waitFor();
    await menu.getByRole('link', { name: 'Admin', exact: true }).click();
    await admin.waitForURL('**/admin/users');
    await heading(admin, 'Users').waitFor();
    await admin.getByRole('navigation', { name: 'Admin sections' }).waitFor();
    // The sidebar keeps the spec's items first and last, in the spec's order; the history and admin
    // entries (beyond the spec) sit between them in their groups, Admin marked as the current page.
    const sidebar = admin.getByRole('navigation', { name: 'Main' });
    const items = (await sidebar.locator('a, button').allInnerTexts()).map((text) => text.trim());
    expect(items.slice(0, 5)).toEqual([
      'Email Search',
      'Phone Search',
      'Leak Data Finder',
      'Corporate Intelligence',
      'Verified ID',
    ]);
    expect(items.slice(-2)).toEqual(['Logout', 'Help']);
    await sidebar.getByRole('list', { name: 'Work' }).getByRole('link', { name: 'Search history' }).waitFor();
    const adminEntry = sidebar.getByRole('list', { name: 'Account' }).getByRole('link', { name: 'Admin' });
    expect(await adminEntry.getAttribute('aria-current')).toBe('page');

    // New user: checked in the browser first, then created as a trial account.
    await admin.getByRole('button', { name: 'New user' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New user' });
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByText('The name field is required.').waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill(officer.name);
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(officer.email);
    await dialog.getByLabel('Password').fill(officer.password);
    expect(await dialog.getByRole('radio', { name: 'Trial' }).isChecked()).toBe(true);
    await screenshot(admin, 'admin-new-user-desktop');
    const created = admin.waitForResponse(
      (res) => res.url().endsWith('/api/admin/users') && res.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Create user' }).click();
    expect((await created).status()).toBe(201);
    await admin.waitForURL(/\/admin\/users\/[0-9a-f-]{36}$/);
    officerId = admin.url().split('/').pop();
    await heading(admin, officer.name).waitFor();

    // Credits through the ledger, with a reason.
    await admin.getByRole('spinbutton', { name: 'Amount' }).fill('25');
    await admin.getByRole('button', { name: 'Apply' }).click();
    await admin.getByText('Give a reason for the change.').waitFor();
    await admin.getByRole('textbox', { name: 'Reason' }).fill('E2E allocation for the audit case');
    await admin.getByRole('button', { name: 'Apply' }).click();
    await toast(admin, '25 credits granted.').waitFor();
    // A deduction below zero is refused by the server and changes nothing.
    await admin.getByRole('radio', { name: 'Deduct' }).check({ force: true });
    await admin.getByRole('spinbutton', { name: 'Amount' }).fill('26');
    await admin.getByRole('textbox', { name: 'Reason' }).fill('Too much');
    await admin.getByRole('button', { name: 'Apply' }).click();
    await admin
      .getByText(/below zero/)
      .first()
      .waitFor();

    // Live mode.
    await admin.getByRole('radio', { name: 'Live' }).check({ force: true });
    await toast(admin, 'Mode saved.').waitFor();
    const stored = await api(`/api/admin/users/${officerId}`, { token: adminToken });
    expect(stored.body.user).toMatchObject({
      email: officer.email,
      app_mode: 'live',
      credits: 25,
      role: 'user',
    });
    await admin.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
    await screenshot(admin, 'admin-user-desktop');

    // The user signs in and searches with a case reference.
    officerToken = await apiSignIn(officer.email, officer.password);
    expect((await api('/api/user', { token: officerToken })).body).toMatchObject({
      app_mode: 'live',
      credits: 25,
    });
    const user = await pageAs(officerToken, '/dashboard');
    const field = user.getByLabel(/^Case reference/);
    await field.waitFor();
    expect(await field.getAttribute('maxlength')).toBe('100');
    const answer = await phoneSearch(user, '9876543210', caseReference);
    expect(answer.status()).toBe(200);
    expect(new URL(answer.url()).searchParams.get('case_reference')).toBe(caseReference);
    await user.waitForURL('**/results');
    expect(await credits(officerToken)).toBe(24);
    // A paid detail lookup from the results page carries the search's case reference.
    const rc = mergePhoneProfile((await answer.json()) as PhoneLookupResponse).rcNumbers[0]?.value;
    expect(rc).toBeTruthy();
    const detail = user.waitForRequest((request) => request.url().endsWith('/api/rcfull-details'));
    await user.getByRole('button', { name: `RC Details: ${rc}` }).click();
    expect((await detail).postDataJSON()).toEqual({ id_number: rc, case_reference: caseReference });
    await user.getByRole('dialog').getByRole('heading', { name: 'RC Details' }).waitFor();
    await user.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
    expect(await credits(officerToken)).toBe(23);

    // The admin finds it in the audit trail by its case reference.
    await admin.goto('/admin/audit');
    await heading(admin, 'Audit trail').waitFor();
    const filters = admin.getByRole('form', { name: 'Filters' });
    await filters.getByRole('textbox', { name: 'Case reference' }).fill(caseReference);
    // The screen's first, unfiltered page may still be on its way: wait for the filtered one.
    const listed = admin.waitForResponse(
      (res) => res.url().includes('/api/admin/audit?') && res.url().includes('case_reference='),
    );
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const audit = await listed;
    expect(new URL(audit.url()).searchParams.get('case_reference')).toBe(caseReference);
    const events = (await audit.json()) as { data: Array<Record<string, unknown>> };
    expect(events.data.some((e) => e.action === 'lookup.tel' && e.actor_email === officer.email)).toBe(true);
    const row = admin.getByRole('row').filter({ hasText: 'lookup.tel' }).filter({ hasText: officer.email });
    await row.getByText(caseReference).waitFor();
    expect(admin.url()).toContain(`case_reference=${caseReference}`);
    await screenshot(admin, 'admin-audit-desktop');
    // On a laptop every column, Cost and Details included, is in view without scrolling.
    expect(await tableOverflowAtLaptop(admin, 'Audit trail')).toBe(0);

    // The row's details.
    await row.getByRole('button', { name: /Show details of event/ }).click();
    const details = admin.getByRole('dialog', { name: 'Audit event: lookup.tel' });
    await details.getByText(caseReference).first().waitFor();
    await details.getByRole('button', { name: 'Close', exact: true }).click();

    // The same filters as CSV; the export itself goes on record.
    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8');
    expect(csv).toContain(caseReference);
    expect(csv).toContain('lookup.tel');
    const exports = await api(
      `/api/admin/audit?action=admin.audit.export&user=${encodeURIComponent(adminEmail)}`,
      {
        token: adminToken,
      },
    );
    expect((exports.body.data as Array<{ action: string }>).length).toBeGreaterThan(0);

    // A bad date range is stopped in the browser before any call.
    await filters.getByLabel('From').fill('2025-03-10');
    await filters.getByLabel('To').fill('2025-03-01');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await filters.getByText('The end date must be on or after the start date.').waitFor();

    expect(problemsOf(admin)).toEqual([]);
    expect(problemsOf(user)).toEqual([]);
  });

  it('a non-admin gets 403 from every admin endpoint and never sees the admin area', async () => {
    const token = officerToken ?? (await apiSignIn('demo-live@footprint.test', demoPassword));
    const target = officerId ?? '00000000-0000-4000-8000-000000000000';
    const calls: Array<[method: string, path: string, body?: unknown]> = [
      ['GET', '/api/admin/users'],
      [
        'POST',
        '/api/admin/users',
        { name: 'Mallory', email: uniqueEmail('mallory'), role: 'admin', app_mode: 'live' },
      ],
      ['GET', `/api/admin/users/${target}`],
      ['PATCH', `/api/admin/users/${target}`, { role: 'admin' }],
      ['POST', `/api/admin/users/${target}/credits`, { amount: 1000, reason: 'self-service' }],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/audit.csv'],
      ['GET', '/api/admin/audit/chain'],
      ['GET', '/api/admin/settings'],
      ['PATCH', '/api/admin/settings', { registration_enabled: false }],
      ['GET', '/api/admin/providers'],
      ['GET', '/api/admin/leak-sources'],
    ];
    const before = await credits(token);
    for (const [method, path, body] of calls) {
      const answer = await api(path, { method, token, body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(typeof answer.body?.message, `${method} ${path}`).toBe('string');
    }
    // Nothing changed.
    expect(await credits(token)).toBe(before);
    expect((await api('/api/user', { token })).body.role).toBe('user');
    expect((await api('/api/registration-status')).body.registration_enabled).toBe(
      settingsBefore?.registration_enabled,
    );

    const page = await pageAs(token, '/dashboard');
    const adminCalls: string[] = [];
    page.on('request', (request: Request) => {
      if (new URL(request.url()).pathname.startsWith('/api/admin')) adminCalls.push(request.url());
    });
    const menu = await profileMenu(page);
    await menu.getByRole('link', { name: 'Search history' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');
    // Nor does the sidebar offer it to anyone but an admin.
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    await sidebar.getByRole('link', { name: 'Search history' }).waitFor();
    expect(await sidebar.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);

    for (const path of ['/admin', '/admin/users', '/admin/audit?case_reference=x', '/admin/settings']) {
      await page.goto(path);
      await page.waitForURL('**/dashboard');
      await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Admin sections' }).count()).toBe(0);
    }
    expect(adminCalls).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
  });

  it('the admin screens: provider health, leak sources, settings (registration, required case reference)', async () => {
    const admin = await pageAs(adminToken, '/admin/providers');
    await heading(admin, 'Provider health').waitFor();
    const providers = admin.getByRole('region', { name: 'Provider health' });
    for (const column of PROVIDER_COLUMNS) {
      await providers.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    expect(await providers.getByRole('row').count()).toBeGreaterThan(5);
    // This server runs the sandbox only: every source is answered, at no vendor cost. Each source
    // reads by its name, its key below it.
    const whatsApp = providers.getByRole('row').filter({ hasText: 'wpData' });
    await whatsApp.getByText('Sandbox', { exact: true }).waitFor();
    await whatsApp.getByText('WhatsApp', { exact: true }).waitFor();
    await providers
      .getByRole('row')
      .filter({ hasText: 'corporate:corporate_gstin' })
      .getByText('Corporate · GSTIN Details', { exact: true })
      .waitFor();
    // The vendor-only account search of the username lookup (pseudonymData) has no sandbox stand-in:
    // it alone is not configured.
    const notConfigured = providers
      .getByRole('row')
      .filter({ has: admin.getByText('Not configured', { exact: true }) });
    expect(await notConfigured.count()).toBe(1);
    await notConfigured.filter({ hasText: 'pseudonymData' }).waitFor();
    await screenshot(admin, 'admin-providers-desktop');

    await admin
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'Leak sources' })
      .click();
    await heading(admin, 'Leak sources').waitFor();
    const sources = (await api('/api/admin/leak-sources', { token: adminToken })).body.data as Array<{
      name: string;
      record_count: number;
    }>;
    expect(sources.length).toBeGreaterThan(0);
    const first = admin.getByRole('row').filter({ hasText: sources[0]!.name });
    await first.getByText(sources[0]!.record_count.toLocaleString('en-US'), { exact: true }).waitFor();
    await screenshot(admin, 'admin-leak-sources-desktop');

    // Registration and the case reference are deployment-wide: no other file's test runs meanwhile.
    await changingSettings(async () => {
      await admin
        .getByRole('navigation', { name: 'Admin sections' })
        .getByRole('link', { name: 'Settings' })
        .click();
      await heading(admin, 'Settings').waitFor();
      await screenshot(admin, 'admin-settings-desktop');

      // Registration closed: /api/registration-status says so; then open again.
      const mode = (name: string) => admin.getByRole('radio', { name, exact: true });
      expect(await mode('Open').isChecked()).toBe(true);
      await mode('Closed').check();
      await admin.getByRole('button', { name: 'Save settings' }).click();
      await toast(admin, 'Saved.').waitFor();
      expect((await api('/api/registration-status')).body).toEqual({
        registration_enabled: false,
        registration_mode: 'closed',
        // The shared server's sign-up asks for no profile field (support/server.ts).
        required_fields: [],
      });
      await mode('Open').check();
      await admin.getByRole('button', { name: 'Save settings' }).click();
      await expect
        .poll(async () => (await api('/api/registration-status')).body.registration_mode)
        .toBe('open');

      // A required case reference: the field loses its 'Optional' badge and a search without one is
      // refused in the browser (and by the server, without a charge).
      await admin.getByRole('switch', { name: 'Case reference required' }).check();
      await admin.getByRole('button', { name: 'Save settings' }).click();
      await expect
        .poll(async () => (await api('/api/case-reference-policy', { token: adminToken })).body.required)
        .toBe(true);

      const token = officerToken ?? (await apiSignIn('demo-live@footprint.test', demoPassword));
      const before = await credits(token);
      const refused = await api('/api/tel?number=919876543210', { token });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toBe('A case reference is required for every search.');
      expect(await credits(token)).toBe(before);

      const user = await pageAs(token, '/dashboard');
      await user.getByLabel(/^Case reference/).waitFor();
      await expect.poll(() => user.getByText('Optional', { exact: true }).count()).toBe(0);
      let searched = false;
      user.on('request', (request) => {
        if (request.url().includes('/api/tel?')) searched = true;
      });
      await user.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
      await user.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
      await user.getByRole('button', { name: 'Search', exact: true }).click();
      await toast(user, 'A case reference is required for every search.').waitFor();
      expect(searched).toBe(false);
      expect(await user.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('case_reference');
      await screenshot(user, 'dashboard-case-reference-required-desktop');

      await admin.getByRole('switch', { name: 'Case reference required' }).uncheck();
      await admin.getByRole('button', { name: 'Save settings' }).click();
      await expect
        .poll(async () => (await api('/api/case-reference-policy', { token: adminToken })).body.required)
        .toBe(false);
    });
    expect(problemsOf(admin)).toEqual([]);
  });

  it("the audit screen shows the trail's hash chain: intact through its last event, with the head hash", async () => {
    const admin = await pageAs(adminToken, '/admin/audit');
    await heading(admin, 'Audit trail').waitFor();
    const panel = admin.getByRole('region', { name: 'Tamper evidence' });
    // The server verifies a step per call; the screen asks again until it has reached the newest checkpoint.
    await panel.getByText('Intact', { exact: true }).waitFor({ timeout: 30_000 });
    const line = await panel.getByText(/events? verified, through event \d+\./).textContent();
    const through = Number(/through event (\d+)/.exec(line ?? '')?.[1]);
    const shownRoot = (await panel.locator('code').first().textContent()) ?? '';
    expect(shownRoot).toMatch(/^[0-9a-f]{64}$/);
    // The same as the API says (later checkpoints only grow the tree).
    const state = (await api('/api/admin/audit/chain', { token: adminToken }))
      .body as unknown as AuditChainState;
    expect(state.status).toBe('intact');
    expect(state.broken).toBeNull();
    expect(state.checkpoint!.last_id).toBeGreaterThanOrEqual(through);
    expect(await axeProblems(admin, 'admin-audit-chain', '[data-testid="audit-chain"]')).toEqual([]);
    await panel.getByRole('button', { name: 'Copy checkpoint root' }).focus();
    await screenshot(admin, 'admin-audit-chain-desktop');
    await admin.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(admin);
    await screenshot(admin, 'admin-audit-chain-mobile');
    expect(problemsOf(admin)).toEqual([]);
  });

  it('every admin screen fits a 390 px phone: tables scroll inside their frame', async () => {
    const admin = await pageAs(adminToken, '/admin/users', { width: 390, height: 844 });
    const screens: Array<[path: string, title: string, picture: string]> = [
      ['/admin/users', 'Users', 'admin-users-mobile'],
      [`/admin/users/${officerId ?? ''}`, officer.name, 'admin-user-mobile'],
      ['/admin/units', 'Units', 'admin-units-tree-mobile'],
      [`/admin/audit?case_reference=${caseReference}`, 'Audit trail', 'admin-audit-mobile'],
      ['/admin/providers', 'Provider health', 'admin-providers-mobile'],
      ['/admin/leak-sources', 'Leak sources', 'admin-leak-sources-mobile'],
      ['/admin/settings', 'Settings', 'admin-settings-mobile'],
    ];
    for (const [path, title, picture] of screens) {
      if (path.endsWith('/users/')) continue;
      await admin.goto(path);
      await heading(admin, title).waitFor();
      await admin.getByRole('status').filter({ hasText: 'Loading' }).first().waitFor({ state: 'detached' });
      await expectNoSidewaysScroll(admin);
      await screenshot(admin, picture);
    }
    await admin.goto('/admin/users');
    await heading(admin, 'Users').waitFor();
    await admin.setViewportSize({ width: 1440, height: 900 });
    await screenshot(admin, 'admin-users-desktop');
    expect(problemsOf(admin)).toEqual([]);
  });
});

describe('provider health with live vendors', () => {
  /**
   * A server of its own with the sandbox off and two fake vendors on 127.0.0.1: a KYC vendor that
   * answers (at ₹2.50 a call) and HIBP refusing the key (401). The Providers screen shows live,
   * refused and missing sources, and what the vendors cost.
   */
  let server: RunningServer | undefined;
  let vendors: Server | undefined;
  beforeAll(async () => {
    vendors = createServer((req, res) => {
      req.resume();
      const refused = req.url?.startsWith('/hibp/');
      res.writeHead(refused ? 401 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          refused
            ? { statusCode: 401, message: 'Access denied due to invalid hibp-api-key.' }
            : { data: { full_name: 'A SYNTHETIC NAME' }, status_code: 200, success: true },
        ),
      );
    });
    await new Promise<void>((resolve) => vendors!.listen(0, '127.0.0.1', resolve));
    const vendorUrl = `http://127.0.0.1:${(vendors.address() as AddressInfo).port}`;
    server = await startProductServer({
      SANDBOX: 'false',
      SANDBOX_LEAK_RECORDS: '0',
      HIBP_API_KEY: 'synthetic-refused-key',
      HIBP_BASE_URL: `${vendorUrl}/hibp/api/v3`,
      HIBP_COST_PER_CALL: '0.05',
      KYC_BASE_URL: `${vendorUrl}/kyc/api/v1`,
      KYC_TOKEN: 'synthetic-kyc-token',
      KYC_COST_PER_CALL: '2.5',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => vendors?.close(resolve));
  });

  /** A call to this describe's server. */
  async function call(path: string, init: { body?: unknown; token?: string; deviceId?: string } = {}) {
    const res = await fetch(`${server!.url}${path}`, {
      method: init.body ? 'POST' : 'GET',
      headers: {
        'content-type': 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.deviceId ? { 'x-device-id': init.deviceId } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
  }

  /** demo-admin on this server, through the OTP in its outbox. */
  async function adminOnServer(): Promise<string> {
    const deviceId = crypto.randomUUID();
    const since = new Date(Date.now() - 1000);
    const login = await call('/api/login', { body: { email: adminEmail, password: demoPassword }, deviceId });
    expect(login.status).toBe(403);
    let otp: string | undefined;
    for (let i = 0; i < 50 && !otp; i++) {
      const mails = (await (await fetch(`${server!.url}/dev/outbox.json`)).json()) as Array<{
        to: string;
        subject: string;
        text: string;
        created_at: string;
      }>;
      const mail = mails.find(
        (m) => m.to === adminEmail && /verification code/.test(m.subject) && new Date(m.created_at) >= since,
      );
      otp = mail ? /code is (\d{6})/.exec(mail.text)?.[1] : undefined;
      if (!otp) await new Promise((r) => setTimeout(r, 100));
    }
    const verified = await call('/api/verify-email-otp', { body: { email: adminEmail, otp }, deviceId });
    expect(verified.status).toBe(200);
    return verified.body.token as string;
  }

  it('shows each source’s mode, vendor, spend in the vendor’s currency and refused credentials in words, on a laptop and a phone', async () => {
    const token = await adminOnServer();
    // Four KYC phone sources answer; the only e-mail source is HIBP, which refuses the key: 502, refunded.
    expect((await call('/api/tel?number=919876543210', { token })).status).toBe(200);
    expect((await call('/api/email?email=refused%40example.test', { token })).status).toBe(502);

    const page = await browser.newPage({ width: 1366, height: 900 });
    await storeSession(page, token, server!.url);
    await page.goto(`${server!.url}/admin/providers`);
    await heading(page, 'Provider health').waitFor();
    const table = page.getByRole('region', { name: 'Provider health' });
    for (const column of PROVIDER_COLUMNS) {
      await table.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    const rows = table.getByRole('row');
    // Refused credentials come first, said in words as well as in red.
    const hibp = rows.nth(1);
    await hibp.getByText('Credentials refused — check HIBP variables', { exact: true }).waitFor();
    for (const text of ['hibpData', 'Live', 'Have I Been Pwned', '0.0%', '$0.05']) {
      await hibp.getByText(text, { exact: true }).first().waitFor();
    }
    await hibp.getByText('HIBP refused the key (401)', { exact: true }).waitFor();
    await page.getByText('1 vendor refuses our credentials.', { exact: true }).waitFor();

    const kyc = rows.filter({ hasText: 'sKData' });
    for (const text of ['Live', 'KYC vendor', '100.0%', '1 today']) {
      await kyc.getByText(text, { exact: true }).waitFor();
    }
    expect(await kyc.getByText('₹2.50', { exact: true }).count()).toBe(2);
    await page.getByText(/Vendor spend this month: ₹10\.00, \$0\.05/).waitFor();

    const missing = rows.filter({ hasText: 'wpData' });
    await missing.getByText('Not configured', { exact: true }).waitFor();
    await missing.getByText('No provider', { exact: true }).waitFor();
    await screenshot(page, 'admin-providers-vendors-desktop');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await heading(page, 'Provider health').waitFor();
    await page.getByText('Credentials refused — check HIBP variables', { exact: true }).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'admin-providers-vendors-mobile');
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('search history', () => {
  let token: string;
  beforeAll(async () => {
    token = officerToken ?? (await apiSignIn('demo-live@footprint.test', demoPassword));
  });

  it('lists past lookups with their case reference and reopens a stored result at no cost', async () => {
    // One more lookup to find: a leak search with its own case reference.
    const leakReference = `${caseReference}-LEAK`;
    const finder = await pageAs(token, '/leak-data-finder');
    await finder.getByRole('textbox', { name: 'Field 1 value' }).fill('Rohan Deshmukh');
    await finder.getByLabel(/^Case reference/).fill(leakReference);
    const leak = finder.waitForRequest((request) => request.url().includes('/api/leak-data-finder/'));
    await finder.getByRole('button', { name: 'Search', exact: true }).click();
    expect((await leak).postDataJSON()).toMatchObject({ case_reference: leakReference });
    await finder.getByRole('heading', { level: 2 }).waitFor();
    const foundCards = await finder.locator('article.leak-card').count();
    expect(foundCards).toBeGreaterThan(0);
    // And one that finds nothing: its own neutral outcome, not a failure.
    const noneReference = `${caseReference}-NONE`;
    const none = await api('/api/leak-data-finder/?page=1&per_page=10', {
      token,
      body: { fields: [{ type: 'name', value: 'Zebulon Quartermaine' }], case_reference: noneReference },
    });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ total: 0 });

    const page = await pageAs(token, '/dashboard');
    const menu = await profileMenu(page);
    await menu.getByRole('link', { name: 'Search history' }).click();
    await page.waitForURL('**/history');
    await heading(page, 'Search history').waitFor();
    const table = page.getByRole('region', { name: 'Lookups' });
    const phoneRow = table.getByRole('row').filter({ hasText: '+91 9876543210' }).first();
    await phoneRow.getByText('Phone', { exact: true }).waitFor();
    if (officerToken) await phoneRow.getByText(caseReference, { exact: true }).waitFor();
    const leakRow = table.getByRole('row').filter({ hasText: leakReference });
    await leakRow.getByText('Leak Data Finder', { exact: true }).waitFor();
    // The query as typed, with the normalized form it was matched as beside it, never instead of it.
    await leakRow.getByText('Name: Rohan Deshmukh', { exact: true }).waitFor();
    await leakRow.getByText('matched as Name: deshmukh rohan', { exact: true }).waitFor();
    expect(await leakRow.getByText('Name: deshmukh rohan', { exact: true }).count()).toBe(0);
    await leakRow.getByText('Complete', { exact: true }).waitFor();
    // The search that found nothing: a neutral grey "No record", not the red of a failure.
    const noneRow = table.getByRole('row').filter({ hasText: noneReference });
    await noneRow.getByText('Name: Zebulon Quartermaine', { exact: true }).waitFor();
    const noRecord = noneRow.getByText('No record', { exact: true });
    await noRecord.waitFor();
    const badge = (await noRecord.getAttribute('class')) ?? '';
    expect(badge).toContain('chip-slate');
    expect(badge).not.toMatch(/rose|red/);
    expect(await noneRow.getByText(/Failure/).count()).toBe(0);
    // "No record" is not charged (README, "Credits"): the row says its charge came back.
    await noneRow.getByText(messages.history.refunded, { exact: true }).waitFor();
    await screenshot(page, 'history-desktop');

    // Reopening: no new lookup call, no charge, the result page as after the search.
    const before = await credits(token);
    const paid: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/(tel|email)\?/.test(request.url())) paid.push(request.url());
    });
    const opened = page.waitForResponse((res) => /\/api\/history\/[0-9a-f-]{36}$/.test(res.url()));
    await phoneRow.getByRole('button', { name: 'Open the stored result of +91 9876543210' }).click();
    expect((await opened).status()).toBe(200);
    await page.waitForURL('**/results');
    await page.getByRole('heading', { level: 1, name: '+91 9876543210' }).waitFor();
    await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
    expect(paid).toEqual([]);
    expect(await credits(token)).toBe(before);
    // The report of the reopened lookup is the stored lookup's, case reference included.
    const saved = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save Results' }).click();
    await page.getByText('Save as pdf', { exact: true }).click();
    const pdf = await saved;
    const text = (await run('pdftotext', ['-layout', (await pdf.path())!, '-'])).stdout;
    expect(text).toContain('9876543210');
    if (officerToken) expect(text).toContain(caseReference);
    expect(await credits(token)).toBe(before);
    await page.goBack();
    await heading(page, 'Search history').waitFor();

    // Other kinds open in a dialog.
    await leakRow.getByRole('button', { name: /^Open the stored result of/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Leak Data Finder: / });
    await dialog.getByText(leakReference).waitFor();
    // The leak search kept the page it showed: the same record cards, the searched name marked.
    await dialog.getByText(/^Page 1 as it was found: \d+ of \d+ matching records?\.$/).waitFor();
    expect(await dialog.locator('article.leak-card').count()).toBe(foundCards);
    await dialog.locator('mark.leak-mark').first().waitFor();
    await dialog.getByRole('note').filter({ hasText: SANDBOX_BANNER }).waitFor();
    await screenshot(page, 'history-stored-result-desktop');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    expect(await credits(token)).toBe(before);

    // The kind filter.
    await page.getByRole('combobox', { name: 'Kind' }).selectOption('leak');
    await page.waitForURL((url) => url.pathname === '/history' && url.searchParams.get('kind') === 'leak');
    await expect.poll(() => table.getByRole('row').filter({ hasText: '+91 9876543210' }).count()).toBe(0);

    // The credit statement from the ledger.
    await page.getByRole('tab', { name: 'Credit statement' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'statement');
    const statement = page.getByRole('region', { name: 'Credit statement' });
    await statement.getByRole('row').filter({ hasText: 'Charge' }).first().waitFor();
    if (officerToken) {
      await statement
        .getByRole('row')
        .filter({ hasText: 'E2E allocation for the audit case' })
        .getByText('+25')
        .waitFor();
    }
    await page.getByText(String(before), { exact: true }).first().waitFor();
    await screenshot(page, 'history-statement-desktop');

    // Keyboard: arrow keys move between the tabs.
    await page.getByRole('tab', { name: 'Credit statement' }).focus();
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL((url) => url.pathname === '/history' && !url.search.includes('tab='));
    await expect
      .poll(() => page.getByRole('tab', { name: 'Lookups' }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Lookups');

    // The phone: the table scrolls inside its frame.
    const phone = await pageAs(token, '/history', { width: 390, height: 844 });
    await phone.getByRole('region', { name: 'Lookups' }).waitFor();
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'history-mobile');
    await phone.goto('/history?tab=statement');
    await phone.getByRole('region', { name: 'Credit statement' }).waitFor();
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'history-statement-mobile');

    expect(problemsOf(page)).toEqual([]);
    expect(problemsOf(phone)).toEqual([]);

    // The audit trail shows both searches as typed, the one that found nothing with a grey badge.
    const admin = await pageAs(
      adminToken,
      `/admin/audit?case_reference=${caseReference}-&action=lookup.leak`,
    );
    await heading(admin, 'Audit trail').waitFor();
    const trail = admin.getByRole('region', { name: 'Audit trail' });
    const noneEvent = trail.getByRole('row').filter({ hasText: noneReference });
    await noneEvent.getByText('Name: Zebulon Quartermaine', { exact: true }).waitFor();
    expect((await noneEvent.getByText('No record', { exact: true }).getAttribute('class')) ?? '').toContain(
      'chip-slate',
    );
    await trail
      .getByRole('row')
      .filter({ hasText: leakReference })
      .getByText('Name: Rohan Deshmukh')
      .waitFor();
    await screenshot(admin, 'admin-audit-no-record-desktop');
    await admin.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(admin);
    await trail.scrollIntoViewIfNeeded();
    await screenshot(admin, 'admin-audit-no-record-mobile');
    expect(problemsOf(admin)).toEqual([]);
    // The history screens and the audit trail at the end: more than the default minute on a loaded machine.
  }, 120_000);
});

describe('account access', () => {
  it('disabling ends every session and blocks sign-in; re-enabling lets the user back; sign out everywhere', async () => {
    expect(officerId && officerToken).toBeTruthy();
    const admin = await pageAs(adminToken, `/admin/users/${officerId}`);
    await heading(admin, officer.name).waitFor();

    await admin.getByRole('button', { name: 'Disable account' }).click();
    const confirm = admin.getByRole('dialog', { name: 'Disable account' });
    await confirm.getByText(`Disable ${officer.email}?`, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Disable account' }).click();
    await toast(admin, 'Account disabled and signed out everywhere.').waitFor();
    await admin.getByRole('button', { name: 'Re-enable account' }).waitFor();
    expect((await api('/api/user', { token: officerToken })).status).toBe(401);
    const refused = await api('/api/login', { body: { email: officer.email, password: officer.password } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.token).toBeUndefined();

    await admin.getByRole('button', { name: 'Re-enable account' }).click();
    await toast(admin, 'Account re-enabled.').waitFor();
    const again = await apiSignIn(officer.email, officer.password);
    expect((await api('/api/user', { token: again })).status).toBe(200);

    await admin.getByRole('button', { name: 'Sign out everywhere' }).click();
    await admin
      .getByRole('dialog', { name: 'Sign out everywhere' })
      .getByRole('button', { name: 'Sign out everywhere' })
      .click();
    await toast(admin, 'All sessions ended.').waitFor();
    expect((await api('/api/user', { token: again })).status).toBe(401);
    expect(problemsOf(admin)).toEqual([]);
  });
});
