import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  casesMessages,
  type HistoryDetail,
  LEGAL_BASIS_LABELS,
  legalBasisMessages,
  messages,
  type PhoneLookupResponse,
} from '@footprint/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, dismissToasts, settle } from '../support/a11y.ts';
import { api, apiSignIn } from '../support/api.ts';
import {
  expectNoSidewaysScroll,
  picture,
  screenshotDir,
  storeSession,
  useBrowser,
} from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

/**
 * A search that states its own legal basis, in the browser. With the deployment's
 * `legal_basis_required` on (demo-admin, through the API), an investigator's phone search on the
 * dashboard needs either a case with a legal basis or a basis of its own: with neither it is refused
 * before anything is asked (the message under the kind of the basis, nothing charged), a bad
 * acknowledgement number is explained under its input, and a search stating an NCRP complaint runs
 * without a case. Its results, and its history entry, say the basis it stated; the next search form of
 * the tab (the leak finder) already holds it.
 *
 * The spec runs its own server: `legal_basis_required` is deployment-wide, and would refuse every
 * other spec's searches made outside a case.
 */

const browser = useBrowser();
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
/** The web app's words for the section (apps/web/src/lib/case-reference.ts, `searchBasisTexts`). */
const t = {
  legend: 'Legal basis of this search',
  show: 'State a legal basis',
  hide: 'Hide',
  change: 'Change',
  noneStated: 'None stated',
};
const ncrp = LEGAL_BASIS_LABELS.ncrp_complaint;
const acknowledgement = '31201260012345';
const purpose = 'Tracing the caller of an extortion complaint';

const investigator = {
  name: 'Sub-Inspector Meera Iyer',
  email: `search-basis-${randomUUID().slice(0, 8)}@example.org`,
};
const password = 'search basis spec passphrase 3';

let server: RunningServer;
let adminToken: string;
let token: string;

const call = (path: string, init: Parameters<typeof api>[1] = {}) => api(path, init, server.url);
const setBasisRequired = async (on: boolean) => {
  const settings = await call('/api/admin/settings', {
    method: 'PATCH',
    token: adminToken,
    body: { legal_basis_required: on },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
};

/**
 * Pictures for people to look at, of the screen with the section in its middle: under E2E_SHOTS_DIR
 * when given, else docs/screenshots (when this run keeps pictures).
 */
async function shot(page: Page, name: string) {
  await page
    .getByText(`${t.legend}:`)
    .first()
    .evaluate((el) => {
      el.scrollIntoView({ block: 'start' });
      // Clear of the sticky header.
      window.scrollBy(0, -96);
    });
  await settle(page);
  await picture(page, join(process.env.E2E_SHOTS_DIR ?? screenshotDir, `${name}.png`));
}

beforeAll(async () => {
  server = await startProductServer({ SANDBOX_LEAK_RECORDS: '0' });
  adminToken = await apiSignIn('demo-admin@footprint.test', 'e2e-demo-password', server.url);
  const created = await call('/api/admin/users', {
    token: adminToken,
    body: { ...investigator, password, app_mode: 'live', credits: 50 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  token = await apiSignIn(investigator.email, password, server.url);
  await setBasisRequired(true);
}, 180_000);

afterAll(async () => {
  if (server && adminToken) await setBasisRequired(false).catch(() => undefined);
  await server?.stop();
});

async function open(path: string, size = desktop) {
  const page = await browser.newPage(size);
  await storeSession(page, token, server.url);
  await page.goto(`${server.url}${path}`);
  return page;
}

/** The dashboard's phone form, filled with the rich demo number and the terms accepted. */
async function fillPhoneSearch(page: Page) {
  await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
  await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
}

const form = (page: Page) => page.getByRole('form', { name: messages.mainNav.phoneSearch });

async function expectAccessibleAt(page: Page, screen: string) {
  await settle(page);
  expect(await axeProblems(page, screen)).toEqual([]);
}

describe('a search that states its own legal basis', () => {
  it('the server refuses a search with neither a case nor a basis of its own, charging nothing', async () => {
    const refused = await call('/api/tel?number=919876543210', { token });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect((refused.body.errors as Record<string, unknown> | undefined)?.case_reference).toEqual([
      casesMessages.legalBasisRequired,
    ]);
  });

  it('on the dashboard: refused with neither, explained under a bad fact, then run with an NCRP complaint and no case', async () => {
    const page = await open('/dashboard');
    await fillPhoneSearch(page);
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/tel?')) searches.push(request.url());
    });

    // No case and no basis: the section is open (nothing else applies) and says none is stated.
    const section = form(page).getByRole('group', { name: messages.cases.legalBasisFacts });
    await section.waitFor();
    await form(page).getByText(`${t.legend}:`).waitFor();
    const kind = section.getByLabel(messages.cases.legalBasisKind, { exact: true });
    expect(await kind.inputValue()).toBe('');

    await page.getByRole('button', { name: messages.search.submit, exact: true }).click();
    const refusal = section.getByRole('alert').getByText(casesMessages.legalBasisRequired);
    await refusal.waitFor();
    await expect.poll(() => kind.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await kind.getAttribute('aria-describedby')).toMatch(/-general/);
    expect(searches).toEqual([]);
    await dismissToasts(page);
    await expectAccessibleAt(page, 'search basis refused (desktop)');
    await shot(page, 'search-basis-dashboard-refused-desktop');

    // A bad acknowledgement number is explained under its input, which takes the focus.
    await kind.selectOption({ label: ncrp });
    await expect.poll(() => refusal.count()).toBe(0);
    const number = section.getByLabel('Acknowledgement number', { exact: true });
    await number.fill('3120126');
    await section.getByLabel(messages.cases.legalBasisPurpose, { exact: true }).fill(purpose);
    await page.getByRole('button', { name: messages.search.submit, exact: true }).click();
    await section.getByText(legalBasisMessages.acknowledgement).waitFor();
    await expect.poll(() => number.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await number.getAttribute('aria-invalid')).toBe('true');
    expect(searches).toEqual([]);
    await dismissToasts(page);

    // Complete: the section says the basis in one line, and the search runs with it.
    await number.fill(acknowledgement);
    const line = `${ncrp} acknowledgement ${acknowledgement}: ${purpose}`;
    await form(page).getByText(line).waitFor();
    await expectAccessibleAt(page, 'search basis open (desktop)');
    await shot(page, 'search-basis-dashboard-desktop');

    const small = await open('/dashboard', phone);
    await fillPhoneSearch(small);
    // The tab's draft came along (sessionStorage is per tab: a new page starts empty), so the phone
    // picture shows the section as a new tab does, open with its kind chosen.
    await form(small)
      .getByRole('group', { name: messages.cases.legalBasisFacts })
      .getByLabel(messages.cases.legalBasisKind, { exact: true })
      .selectOption({ label: ncrp });
    await small.getByLabel('Acknowledgement number', { exact: true }).fill(acknowledgement);
    await small.getByLabel(messages.cases.legalBasisPurpose, { exact: true }).fill(purpose);
    await settle(small);
    await expectNoSidewaysScroll(small);
    await expectAccessibleAt(small, 'search basis open (mobile)');
    await shot(small, 'search-basis-dashboard-mobile');
    // Under a case (whose basis usually applies) the section keeps to its one line, behind 'Change'.
    await small.getByLabel(/^Case reference/).fill('FIR-204/2026');
    const change = form(small).getByRole('button', { name: t.change, exact: true });
    await change.waitFor();
    expect(await change.getAttribute('aria-expanded')).toBe('false');
    expect(await form(small).getByRole('group', { name: messages.cases.legalBasisFacts }).count()).toBe(0);
    await expectNoSidewaysScroll(small);
    await shot(small, 'search-basis-dashboard-mobile-under-case');
    await small.close();

    const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
    await page.getByRole('button', { name: messages.search.submit, exact: true }).click();
    const response = await answer;
    expect(response.status()).toBe(200);
    const sent = new URL(response.url()).searchParams;
    expect(sent.get('case_reference')).toBeNull();
    expect(JSON.parse(sent.get('legal_basis') ?? 'null')).toEqual({
      kind: 'ncrp_complaint',
      acknowledgement_number: acknowledgement,
      purpose,
    });
    const results = (await response.json()) as PhoneLookupResponse & { lookup_id?: string };
    await page.waitForURL('**/results');
    const stated = page.getByRole('main').getByText(t.legend);
    await stated.waitFor();
    expect(await page.getByRole('main').getByText(`acknowledgement ${acknowledgement}`).count()).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    await picture(page, join(process.env.E2E_SHOTS_DIR ?? screenshotDir, 'search-basis-results-desktop.png'));

    // Its history entry answers the basis, and its page (a phone search opens on /results) says it.
    const lookupId = results.lookup_id;
    expect(typeof lookupId).toBe('string');
    const entry = await call(`/api/history/${lookupId}`, { token });
    expect(entry.status, JSON.stringify(entry.body)).toBe(200);
    expect((entry.body as unknown as HistoryDetail).legal_basis).toMatchObject({
      kind: 'ncrp_complaint',
      number: `acknowledgement ${acknowledgement}`,
      purpose,
    });
    const again = await open(`/history/${lookupId}`);
    await again.waitForURL('**/results');
    const main = again.getByRole('main');
    await main.getByText(t.legend).waitFor();
    await main.getByText(`${ncrp} acknowledgement ${acknowledgement}`).waitFor();
    await main.getByText(purpose).waitFor();
    await expectAccessibleAt(again, 'search basis history entry (desktop)');
    await again.close();

    // The tab's next search form holds the same basis, its one line said above its inputs, ready to send.
    await page.goto(`${server.url}/leak-data-finder`);
    const leakForm = page.getByRole('form', { name: messages.mainNav.leakFinder });
    await leakForm.getByText(line).waitFor();
    await page.close();
  });
});
