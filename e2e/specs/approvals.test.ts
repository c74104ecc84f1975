import { randomUUID } from 'node:crypto';
import {
  APPROVAL_STATUS_LABELS,
  approvalsMessages,
  type BulkJob,
  mergePhoneProfile,
  messages,
  type PhoneLookupResponse,
  type SearchApproval,
} from '@footprint/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, dismissToasts, settle } from '../support/a11y.ts';
import { api, apiSignIn } from '../support/api.ts';
import { expectNoSidewaysScroll, screenshot, storeSession, useBrowser } from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

/**
 * Approval of sensitive searches in the browser: demo-admin names UPI a sensitive kind (through the
 * API); an investigator of a unit opens a UPI id's details from a phone search's results and is told
 * the search waits for a supervisor (nothing charged); the unit's supervisor approves it on /approvals;
 * the investigator follows My requests to the result. A second request is rejected with a reason,
 * which the investigator reads.
 *
 * The spec runs its own server: the sensitive kinds are deployment-wide, and would hold every other
 * spec's UPI lookups.
 */

const browser = useBrowser();
/** The web app's words for approvals (apps/web/src/lib/approval-texts.ts, outside this project's sources). */
const t = {
  heldTitle: "Waiting for your supervisor's approval",
  heldLink: 'See My requests',
  menuLink: 'Approvals',
  title: 'Approvals',
  mineTab: 'My requests',
  emptyToDecide: 'Nothing waits for your decision.',
  openResultLabel: (query: string) => `Open the result of ${query}`,
  approveLabel: (query: string) => `Approve the search of ${query}`,
  approveNoteLabel: 'Note (optional)',
  approveSend: 'Approve and run',
  reasonLabel: 'Reason',
  rejectSend: 'Reject request',
  approved: 'Approved: the search ran as theirs.',
  rejected: 'Rejected: the requester is told why.',
  settingsKinds: "Searches that need a supervisor's approval",
  settingsHours: 'Approval requests expire after (hours)',
  settingsBulkRows: messages.admin.settings.approvalBulkRows,
};
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

const mail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.org`;
const people = {
  supervisor: { name: 'Inspector Kavya Menon', email: mail('approvals-supervisor') },
  investigator: { name: 'Constable Rohan Pillai', email: mail('approvals-investigator') },
};
const password = 'approvals spec passphrase 7';
const reason = 'No FIR names this UPI id yet; file it under the case first.';

let server: RunningServer;
let adminToken: string;
const tokens = { supervisor: '', investigator: '' };
/** The UPI ids of the rich demo number's profile. */
let upiIds: string[] = [];

const call = (path: string, init: Parameters<typeof api>[1] = {}) => api(path, init, server.url);

beforeAll(async () => {
  server = await startProductServer({ SANDBOX_LEAK_RECORDS: '0' });
  adminToken = await apiSignIn('demo-admin@footprint.test', 'e2e-demo-password', server.url);
  for (const key of ['supervisor', 'investigator'] as const) {
    const created = await call('/api/admin/users', {
      token: adminToken,
      body: { ...people[key], password, app_mode: 'live', credits: 50 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    tokens[key] = await apiSignIn(people[key].email, password, server.url);
  }
  const unit = await call('/api/units', {
    token: adminToken,
    body: { name: 'Eastbank Police Station', parent_id: null },
  });
  expect(unit.status, JSON.stringify(unit.body)).toBe(201);
  for (const key of ['supervisor', 'investigator'] as const) {
    const member = await call(`/api/units/${unit.body.id}/members`, {
      token: adminToken,
      body: { email: people[key].email, role: key },
    });
    expect(member.status, JSON.stringify(member.body)).toBe(201);
  }
  const settings = await call('/api/admin/settings', {
    method: 'PATCH',
    token: adminToken,
    body: { approval_kinds: ['upi'], approval_hours: 24 },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
}, 180_000);

afterAll(() => server?.stop());

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

async function open(token: string, path: string, size = desktop) {
  const page = await browser.newPage(size);
  await storeSession(page, token, server.url);
  await page.goto(`${server.url}${path}`);
  return page;
}

/** The request cards in the page's main region (not the menu's list). */
const card = (page: Page, query: string) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: query, exact: true }) });

async function expectAccessibleAt(page: Page, screen: string) {
  await expect
    .poll(() =>
      page
        .getByRole('status')
        .filter({ hasText: /^Loading/ })
        .count(),
    )
    .toBe(0);
  await settle(page);
  expect(await axeProblems(page, screen)).toEqual([]);
}

/** A phone search of the rich demo number on the dashboard, to its results page. */
async function searchPhone(page: Page): Promise<PhoneLookupResponse> {
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
  await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
  await page.getByLabel(/^Case reference/).fill('FIR-204/2026');
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
  const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  expect((await answer).status()).toBe(200);
  await page.waitForURL('**/results');
  return (await (await answer).json()) as PhoneLookupResponse;
}

/** Opens a UPI id's details from the results page: held, a 202 and the notice, nothing charged. */
async function askForUpi(page: Page, upi: string) {
  const before = (await call('/api/user', { token: tokens.investigator })).body.credits;
  const answer = page.waitForResponse((res) => res.url().includes('/api/upifull-details'));
  await page.getByRole('button', { name: `UPI Details: ${upi}` }).click();
  expect((await answer).status()).toBe(202);
  await toast(page, t.heldTitle).waitFor();
  await page.locator('.Toastify').getByText("needs a supervisor's approval", { exact: false }).waitFor();
  // No result dialog, and nothing charged.
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  expect((await call('/api/user', { token: tokens.investigator })).body.credits).toBe(before);
}

describe('approval of sensitive searches', () => {
  it('an admin sees the two settings on the settings page', async () => {
    const page = await open(adminToken, '/admin/settings');
    const kinds = page.getByRole('group', { name: t.settingsKinds });
    await kinds.waitFor();
    expect(await kinds.getByRole('checkbox', { name: 'UPI', exact: true }).isChecked()).toBe(true);
    expect(await kinds.getByRole('checkbox', { name: 'RC', exact: true }).isChecked()).toBe(false);
    await kinds.getByRole('checkbox', { name: 'Credit Report', exact: true }).waitFor();
    const hours = page.getByRole('spinbutton', { name: t.settingsHours });
    expect(await hours.inputValue()).toBe('24');
    // Over the maximum is refused under the field, before anything is sent.
    await hours.fill('1000');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The approval hours field must not be greater than 720.').waitFor();
    expect(await hours.getAttribute('aria-invalid')).toBe('true');
    await hours.fill('48');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(async () => (await call('/api/admin/settings', { token: adminToken })).body.approval_hours)
      .toBe(48);
    expect((await call('/api/admin/settings', { token: adminToken })).body.approval_kinds).toEqual(['upi']);
    await dismissToasts(page);
    await page.getByRole('group', { name: t.settingsKinds }).scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-settings-approvals-desktop');
  });

  it("the investigator's UPI lookup waits for their supervisor, and says so", async () => {
    const page = await open(tokens.investigator, '/dashboard');
    const answer = await searchPhone(page);
    upiIds = mergePhoneProfile(answer).upiIds.map((item) => item.value);
    expect(upiIds.length).toBeGreaterThan(0);
    await dismissToasts(page);
    await askForUpi(page, upiIds[0]!);
    await expectAccessibleAt(page, 'approvals-held (desktop)');
    await screenshot(page, 'approvals-held-desktop');

    const small = await open(tokens.investigator, '/dashboard', phone);
    await searchPhone(small);
    await dismissToasts(small);
    // A second UPI id (or the same one again): a request of its own, for the rejection below.
    await askForUpi(small, upiIds[1] ?? upiIds[0]!);
    await expectAccessibleAt(small, 'approvals-held (mobile)');
    await screenshot(small, 'approvals-held-mobile');

    // The notice leads to My requests, where both wait.
    await small.locator('.Toastify').getByRole('link', { name: t.heldLink }).click();
    await small.waitForURL('**/approvals?view=mine');
    await expect
      .poll(() => small.getByRole('main').getByText(APPROVAL_STATUS_LABELS.pending).count())
      .toBe(2);
  });

  it('the supervisor approves one request and rejects the other with a reason', async () => {
    const page = await open(tokens.supervisor, '/dashboard');
    await page.getByRole('link', { name: t.menuLink, exact: true }).click();
    await page.waitForURL('**/approvals');
    await page.getByRole('heading', { level: 1, name: t.title }).waitFor();
    const first = card(page, upiIds[0]!).first();
    await first.getByText(people.investigator.name).waitFor();
    await first.getByText('FIR-204/2026').waitFor();
    await expectAccessibleAt(page, 'approvals-queue (desktop)');
    await screenshot(page, 'approvals-queue-desktop');
    const small = await open(tokens.supervisor, '/approvals', phone);
    await card(small, upiIds[0]!).first().waitFor();
    await expectAccessibleAt(small, 'approvals-queue (mobile)');
    await expectNoSidewaysScroll(small);
    await screenshot(small, 'approvals-queue-mobile');

    const queue = (await call('/api/approvals?status=open', { token: tokens.supervisor })).body
      .data as SearchApproval[];
    expect(queue).toHaveLength(2);
    // Nobody decides their own: the investigator's call is refused with the server's words.
    const own = await call(`/api/approvals/${queue[0]!.id}`, {
      token: tokens.investigator,
      body: { decision: 'approve' },
    });
    expect(own.status).toBe(403);

    // Approve the first (the oldest is listed last, or first: find it by its query).
    const approveLabel = t.approveLabel(upiIds[0]!);
    await page.getByRole('button', { name: approveLabel }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: t.approveNoteLabel }).fill('Filed under FIR-204/2026.');
    await dialog.getByRole('button', { name: t.approveSend }).click();
    await toast(page, t.approved).waitFor();
    await expect.poll(() => dialog.count()).toBe(0);

    // Reject the other: without a reason it is refused under the field.
    await page
      .getByRole('button', { name: /^Reject the search of / })
      .first()
      .click();
    await dialog.getByRole('button', { name: t.rejectSend }).click();
    await dialog.getByText(approvalsMessages.reasonRequired).waitFor();
    const reasonField = dialog.getByRole('textbox', { name: t.reasonLabel });
    expect(await reasonField.getAttribute('aria-invalid')).toBe('true');
    await reasonField.fill(reason);
    await dialog.getByRole('button', { name: t.rejectSend }).click();
    await toast(page, t.rejected).waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByText(t.emptyToDecide).waitFor();

    // Both are under Decided; deciding again is refused (409).
    await page.getByRole('main').getByText(APPROVAL_STATUS_LABELS.approved).first().waitFor();
    await page.getByRole('main').getByText(reason, { exact: false }).waitFor();
    const again = await call(`/api/approvals/${queue[0]!.id}`, {
      token: tokens.supervisor,
      body: { decision: 'approve' },
    });
    expect(again.status).toBe(409);
  });

  it('the investigator reads both decisions under My requests and opens the result', async () => {
    const page = await open(tokens.investigator, '/approvals?view=mine');
    expect(await page.getByRole('tab', { name: t.mineTab }).getAttribute('aria-selected')).toBe('true');
    const main = page.getByRole('main');
    await main.getByText(APPROVAL_STATUS_LABELS.approved).first().waitFor();
    await main.getByText(APPROVAL_STATUS_LABELS.rejected).first().waitFor();
    await main.getByText(reason, { exact: false }).waitFor();
    await main.getByText(people.supervisor.name, { exact: false }).first().waitFor();
    await expectAccessibleAt(page, 'approvals-mine (desktop)');
    await screenshot(page, 'approvals-mine-desktop');

    const small = await open(tokens.investigator, '/approvals?view=mine', phone);
    await small.getByRole('main').getByText(APPROVAL_STATUS_LABELS.approved).first().waitFor();
    await expectAccessibleAt(small, 'approvals-mine (mobile)');
    await expectNoSidewaysScroll(small);
    await screenshot(small, 'approvals-mine-mobile');

    // The approved search's result, as Search history keeps it.
    await page.getByRole('link', { name: t.openResultLabel(upiIds[0]!) }).click();
    await page.waitForURL('**/history/*');
    await page.getByRole('heading', { level: 1, name: new RegExp(`: ${upiIds[0]}$`) }).waitFor();
    await page.getByRole('main').getByText('FIR-204/2026').waitFor();
    await expectAccessibleAt(page, 'approvals-result (desktop)');
    await screenshot(page, 'approvals-result-desktop');
  });

  it('a verification search of a sensitive kind is held on its form too, and opens no results page', async () => {
    const settings = await call('/api/admin/settings', {
      method: 'PATCH',
      token: adminToken,
      body: { approval_kinds: ['upi', 'verification:ifsc'] },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const page = await open(tokens.investigator, '/verification-id');
    await page.getByRole('heading', { level: 1, name: 'Identity Intelligence' }).waitFor();
    const before = (await call('/api/user', { token: tokens.investigator })).body.credits;
    await page.getByRole('combobox', { name: 'Search type' }).selectOption('ifsc');
    await page.getByLabel('IFSC', { exact: true }).fill('SBIN0001234');
    const answer = page.waitForResponse((res) => res.url().endsWith('/api/verification-id'));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    expect((await answer).status()).toBe(202);
    await toast(page, t.heldTitle).waitFor();
    // The form stays, as typed; no error is said beside the notice, nothing is charged.
    expect(new URL(page.url()).pathname).toBe('/verification-id');
    expect(await page.getByLabel('IFSC', { exact: true }).inputValue()).toBe('SBIN0001234');
    expect(await page.locator('.Toastify__toast--error').count()).toBe(0);
    expect((await call('/api/user', { token: tokens.investigator })).body.credits).toBe(before);
    const mine = (await call('/api/approvals/mine', { token: tokens.investigator })).body
      .data as SearchApproval[];
    expect(mine.find((item) => item.status === 'pending')?.kind).toBe('verification:ifsc');
  });

  it("a bulk list longer than approval_bulk_rows waits for the supervisor's approval, then runs", {
    timeout: 180_000,
  }, async () => {
    const b = messages.bulkPage;
    const set = (rows: number) =>
      call('/api/admin/settings', { method: 'PATCH', token: adminToken, body: { approval_bulk_rows: rows } });
    const setting = await set(2);
    expect(setting.status, JSON.stringify(setting.body)).toBe(200);
    try {
      // The admin reads the setting on the settings page; over the maximum is refused under it.
      const settingsPage = await open(adminToken, '/admin/settings');
      const rowsField = settingsPage.getByRole('spinbutton', { name: t.settingsBulkRows });
      expect(await rowsField.inputValue()).toBe('2');
      await rowsField.fill('100001');
      await settingsPage.getByRole('button', { name: 'Save settings' }).click();
      await settingsPage.getByText('The approval bulk rows field must not be greater than 100000.').waitFor();
      expect(await rowsField.getAttribute('aria-invalid')).toBe('true');
      expect((await call('/api/admin/settings', { token: adminToken })).body.approval_bulk_rows).toBe(2);

      // The investigator pastes three numbers, checks them and starts: held, not started.
      const before = (await call('/api/user', { token: tokens.investigator })).body.credits;
      const page = await open(tokens.investigator, '/bulk');
      await page.getByRole('heading', { name: b.title, level: 1 }).waitFor();
      await page.locator('label.search-toggle-option').filter({ hasText: b.sourcePaste }).click();
      await page.getByLabel(b.pasteLabel).fill(['9876543210', '9123456780', '9000000001'].join('\n'));
      await page.getByLabel(/^Case reference/).fill('FIR-204/2026');
      await page.getByRole('button', { name: b.check }).click();
      await page.getByRole('region', { name: b.previewTitle }).waitFor();
      const started = page.waitForResponse(
        (res) => res.url().endsWith('/api/bulk') && res.request().method() === 'POST',
      );
      await page.getByRole('button', { name: b.start, exact: true }).click();
      const answer = await started;
      expect(answer.status()).toBe(202);
      const job = (await answer.json()) as BulkJob;
      expect(job.status).toBe('awaiting_approval');
      expect(job.approval_id).toEqual(expect.any(String));
      await toast(page, b.startedAwaiting).waitFor();
      expect(await page.locator('.Toastify').getByText(b.started, { exact: true }).count()).toBe(0);
      const jobCard = page
        .getByRole('main')
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: b.pastedName, exact: true }) });
      await jobCard.getByText(b.statuses.awaiting_approval!, { exact: true }).waitFor();
      await jobCard.getByText(b.awaitingApproval, { exact: false }).waitFor();
      // It may only be withdrawn, and it leads to My requests.
      await jobCard.getByRole('button', { name: b.actionLabel(b.cancel, b.pastedName) }).waitFor();
      expect(await jobCard.getByRole('button', { name: b.actionLabel(b.pause, b.pastedName) }).count()).toBe(
        0,
      );
      expect(await jobCard.getByRole('link', { name: b.awaitingApprovalLink }).getAttribute('href')).toBe(
        '/approvals?view=mine',
      );
      await dismissToasts(page);
      await expectAccessibleAt(page, 'bulk-awaiting-approval (desktop)');
      const small = await open(tokens.investigator, '/bulk', phone);
      await small.getByRole('main').getByText(b.awaitingApproval).waitFor();
      await expectNoSidewaysScroll(small);
      expect((await call('/api/user', { token: tokens.investigator })).body.credits).toBe(before);

      // The supervisor sees it on /approvals as a bulk request and approves it.
      const query = 'Pasted list (3 rows)';
      const supervisor = await open(tokens.supervisor, '/approvals');
      const request = card(supervisor, query);
      await request.waitFor();
      await request.getByText('Bulk phone', { exact: true }).waitFor();
      const held = (await call(`/api/approvals/${job.approval_id}`, { token: tokens.supervisor }))
        .body as unknown as SearchApproval;
      expect(held).toMatchObject({ kind: 'bulk:tel', kind_label: 'Bulk phone', query, job_id: job.id });
      await request.getByText(b.approval.cost(held.cost), { exact: true }).waitFor();
      await request.getByText(people.investigator.name).waitFor();
      await expectAccessibleAt(supervisor, 'approvals-bulk-queue (desktop)');
      const smallQueue = await open(tokens.supervisor, '/approvals', phone);
      await card(smallQueue, query).waitFor();
      await expectNoSidewaysScroll(smallQueue);
      await supervisor.getByRole('button', { name: b.approval.approveLabel(query) }).click();
      const dialog = supervisor.getByRole('dialog', { name: b.approval.approveTitle });
      await dialog
        .getByText(b.approval.approveLead(query, `${held.cost} ${held.cost === 1 ? 'credit' : 'credits'}`))
        .waitFor();
      await dialog.getByRole('button', { name: t.approveSend }).click();
      await toast(supervisor, b.approval.approved).waitFor();
      await expect.poll(() => dialog.count()).toBe(0);
      await supervisor
        .getByRole('main')
        .getByText(b.approval.approvedStatus, { exact: true })
        .first()
        .waitFor();

      // The investigator's page, following the job, sees it run to done.
      await jobCard.getByText(b.statuses.done!, { exact: true }).waitFor({ timeout: 30_000 });
      const done = (await call(`/api/bulk/${job.id}`, { token: tokens.investigator })).body as BulkJob;
      expect(done.status).toBe('done');
      expect(done.done).toBe(3);
      expect(done.approval_id).toBe(job.approval_id);
      expect(await jobCard.getByText(b.awaitingApproval, { exact: false }).count()).toBe(0);

      // Under My requests it reads approved (with no result of its own, nothing failed) and opens /bulk.
      const mine = await open(tokens.investigator, '/approvals?view=mine');
      const own = card(mine, query);
      await own.getByText(b.approval.approvedStatus, { exact: true }).first().waitFor();
      await own.getByRole('link', { name: b.approval.openJobLabel(query) }).click();
      await mine.waitForURL('**/bulk');
      await mine.getByRole('heading', { name: b.title, level: 1 }).waitFor();
    } finally {
      expect((await set(0)).status).toBe(200);
    }
  });
});
