import { readFile } from 'node:fs/promises';
import { filterLayout, layoutRecord, layoutSize, messages } from '@footprint/domain';
import type { Page, Request, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * Corporate Intelligence and Identity Intelligence (spec §2.3, §2.7, §2.8, §4, §5, §8) against the built
 * product and its sandbox KYC data: a trial account is sent to /upgrade and refused by the API; a live
 * account runs a corporate search, one verification of each form layout, meets the employment
 * combination rule and a 422 'no record', and downloads credit reports from the corporate form and the
 * phone results' modal. The live account is made for this file by demo-admin, so its balance is exact.
 */

const browser = useBrowser();

/** Fixed sandbox identities (apps/server/src/sandbox/providers/intel-common.ts, README). */
const demo = {
  gstin: '27AADCN4821K1ZC',
  gstinUnknown: '29AAACZ0000Z1ZQ',
  pan: 'BQZPD4821K',
  mobile: '9876543210',
  uan: '100482190612',
  drivingLicence: 'MH1220110048219',
  dob: '1990-04-17',
  passportFile: 'PN1064821906217',
  accountNumber: '50100482190612',
  ifsc: 'KCBX0PUN482',
  vehicle: 'MH12FP1234',
};

const startCredits = 100;
let live: { email: string; password: string; token: string };

beforeAll(async () => {
  const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const email = uniqueEmail('intel-live');
  const password = 'corporate intel passphrase';
  const created = await api('/api/admin/users', {
    body: { name: 'Intel Live', email, password, app_mode: 'live', credits: startCredits },
    token: admin,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  live = { email, password, token: await apiSignIn(email, password) };
});

async function pageFor(token: string, path: string, size: { width?: number; height?: number } = {}) {
  const page = await browser.newPage({ width: 1440, height: 900, ...size });
  await storeSession(page, token);
  await page.goto(path);
  return page;
}

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });
const typeSelect = (page: Page) => page.getByRole('combobox', { name: 'Search type' });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const isIntelCall = (url: string) =>
  /\/api\/(corporate-intelligence|verification-id)$/.test(new URL(url).pathname);
const creditsShown = (page: Page, n: number) => page.getByText(`Credits: ${n}`, { exact: true }).first();

/** Closes every toast, for pictures that show the page rather than the last message. */
async function dismissToasts(page: Page) {
  // Closes every toast, again on each try (one may appear after the first round), and gives their
  // closing animation time on a loaded machine.
  await expect
    .poll(
      async () => {
        // Clicked in the page: a toast already leaving is never still, and a pointer click waited
        // up to 2 s for it to stand still before giving up.
        return page.evaluate(() => {
          for (const close of Array.from(document.querySelectorAll<HTMLElement>('.Toastify__close-button')))
            close.click();
          return document.querySelectorAll('.Toastify__toast').length;
        });
      },
      { timeout: 15_000 },
    )
    .toBe(0);
}

async function balance(token: string): Promise<number> {
  const user = await api('/api/user', { token });
  expect(user.status).toBe(200);
  return Number(user.body.credits);
}

/** Presses the submit button and resolves with the intel answer the page received. */
async function submit(page: Page, label: string): Promise<{ response: Response; request: Request }> {
  const answer = page.waitForResponse((res) => isIntelCall(res.url()));
  await button(page, label).click();
  const response = await answer;
  return { response, request: response.request() };
}

/** Scrolls a record table's title to just under the sticky results bar, for a screenshot of its header. */
async function showTableTop(page: Page, title: string): Promise<void> {
  await page.getByRole('region', { name: title }).evaluate((el) => {
    const top = el.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, top - 190);
  });
}

/** Holds the next intel calls until the returned function is called (to see what shows meanwhile). */
async function holdIntelCalls(page: Page): Promise<() => Promise<void>> {
  let open = () => {};
  const held = new Promise<void>((resolve) => {
    open = resolve;
  });
  const pattern = /\/api\/(corporate-intelligence|verification-id)$/;
  await page.route(
    pattern,
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  return async () => open();
}

describe('trial accounts', () => {
  it('sends a trial user to /upgrade from every intel page, and the API refuses them without a charge', async () => {
    const email = uniqueEmail('intel-trial');
    const password = 'trial account passphrase';
    const created = await api('/api/register', {
      body: { name: 'Intel Trial', email, password, password_confirmation: password },
    });
    expect(created.status).toBe(201);
    const token = await apiSignIn(email, password);
    const before = await balance(token);

    const page = await pageFor(token, '/dashboard');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Corporate Intelligence' })
      .click();
    await page.waitForURL('**/upgrade');
    await page.getByRole('heading', { level: 1, name: 'Not Availabe for trial' }).waitFor();
    for (const path of ['/verification-id', '/corporate-results', '/verification-results', '/corporate']) {
      await page.goto(path);
      await page.waitForURL('**/upgrade');
      await page.getByRole('heading', { name: messages.upgrade.title }).waitFor();
    }
    expect(await page.getByRole('combobox', { name: 'Search type' }).count()).toBe(0);
    await screenshot(page, 'intel-upgrade-desktop');
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL('**/dashboard');

    const corporate = await api('/api/corporate-intelligence', {
      body: { type: 'corporate_cin', data: { id_number: 'U72200MH2015PTC248219' } },
      token,
    });
    expect(corporate.status).toBe(403);
    expect(typeof corporate.body.message).toBe('string');
    const verification = await api('/api/verification-id', {
      body: { type: 'pan', data: { pan: demo.pan } },
      token,
    });
    expect(verification.status).toBe(403);
    expect(await balance(token)).toBe(before);
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('corporate intelligence', () => {
  it('draws the form from the type, clears values on a type change, checks before calling, and shows the flattened result', async () => {
    const page = await pageFor(live.token, '/corporate');
    const calls: Request[] = [];
    page.on('request', (request) => {
      if (isIntelCall(request.url())) calls.push(request);
    });
    await page.getByRole('heading', { level: 1, name: 'Corporate Intelligence' }).waitFor();

    // corporate_gstin: id_number, the year select (2024 first and chosen), four boxes, 'Search'.
    expect(await typeSelect(page).inputValue()).toBe('corporate_gstin');
    const year = page.getByRole('combobox', { name: 'Financial Year' });
    expect(await year.inputValue()).toBe('2024');
    expect(await year.locator('option').allTextContents()).toEqual(['2024', '2023', '2022', '2021']);
    for (const box of ['Filing Status', 'HSN Info', 'Filing Frequency', 'Split Address']) {
      expect(await page.getByRole('checkbox', { name: box }).isChecked()).toBe(false);
    }
    await button(page, 'Search').waitFor();

    // Nothing typed: the spec message, no call.
    await button(page, 'Search').click();
    await toast(page, 'GSTIN is required.').waitFor();
    expect(await field(page, 'GSTIN').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('id_number');

    // A type change clears the values, and the form follows the type.
    await field(page, 'GSTIN').fill(demo.gstin);
    await year.selectOption('2022');
    await page.getByRole('checkbox', { name: 'HSN Info' }).check();
    await typeSelect(page).selectOption('corporate_cin');
    expect(await page.getByRole('combobox', { name: 'Financial Year' }).count()).toBe(0);
    expect(await field(page, 'CIN').inputValue()).toBe('');
    await typeSelect(page).selectOption('corporate_gstin');
    expect(await field(page, 'GSTIN').inputValue()).toBe('');
    expect(await year.inputValue()).toBe('2024');
    expect(await page.getByRole('checkbox', { name: 'HSN Info' }).isChecked()).toBe(false);

    // The credit report's own layout: mobile, PAN, name, gender radio, consent, 'Download Report'.
    await typeSelect(page).selectOption('credit_report');
    await button(page, 'Download Report').waitFor();
    await page.getByRole('radio', { name: 'Male', exact: true }).waitFor();
    await field(page, 'Mobile').fill('98765abc');
    await button(page, 'Download Report').click();
    await toast(page, 'Mobile number must contain only digits.').waitFor();
    await field(page, 'Mobile').fill('98765');
    await button(page, 'Download Report').click();
    await toast(page, 'Mobile number must be between 7 and 12 digits.').waitFor();
    await field(page, 'Mobile').fill(demo.mobile);
    await field(page, 'PAN').fill('ABCDE12345');
    await button(page, 'Download Report').click();
    await toast(page, 'Invalid PAN format.').waitFor();
    await typeSelect(page).selectOption('corporate_gstin');
    expect(calls).toHaveLength(0);

    // The search itself, with two boxes ticked.
    await field(page, 'GSTIN').fill(` ${demo.gstin} `);
    await page.getByRole('checkbox', { name: 'Filing Status' }).check();
    await page.getByRole('checkbox', { name: 'Split Address' }).check();
    await dismissToasts(page);
    await screenshot(page, 'intel-corporate-desktop');
    // The request is held, so the overlay can be seen while it is out.
    const release = await holdIntelCalls(page);
    const answer = page.waitForResponse((res) => isIntelCall(res.url()));
    await button(page, 'Search').click();
    await page.getByRole('status').filter({ hasText: 'Searching...' }).waitFor();
    expect(await button(page, 'Search').isDisabled()).toBe(true);
    await release();
    const response = await answer;
    expect(response.status(), `${response.request().postData()} → ${await response.text()}`).toBe(200);
    expect(response.request().postDataJSON()).toMatchObject({
      type: 'corporate_gstin',
      data: {
        id_number: demo.gstin,
        year: '2024',
        filing_status: true,
        hsn_info: false,
        filing_frequency: false,
        address: true,
      },
    });
    const body = (await response.json()) as { data: unknown; credits: number };
    expect(body.credits).toBe(startCredits - 2);
    await page.waitForURL('**/corporate-results');
    await toast(page, 'Found data based on your search').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Corporate Result:' }).waitFor();
    await creditsShown(page, body.credits).waitFor();

    // Every line of the domain's layout is on the page in its curated order (legal name first), none of
    // the hidden values; the GST filings are a table with a header and a row per filing.
    const layout = layoutRecord(body.data, 'corporate:corporate_gstin');
    const lines = layout.rows;
    const total = layoutSize(layout);
    expect(lines.length).toBeGreaterThan(5);
    const shown = page.locator('.intel-line');
    await expect.poll(() => shown.count()).toBe(lines.length);
    expect(await page.locator('.intel-line-label').first().textContent()).toBe('Legal Name');
    const filings = layout.tables.find((table) => table.path === 'filing_status');
    expect(filings?.rows.length).toBeGreaterThan(4);
    const filingTable = page.getByRole('region', { name: 'Filing Status' }).locator('table');
    expect(await filingTable.locator('thead th').allTextContents()).toEqual(
      filings!.columns.map((column) => column.label),
    );
    await expect.poll(() => filingTable.locator('tbody tr').count()).toBe(filings!.rows.length);
    expect(await filingTable.locator('tbody tr').first().locator('td').allTextContents()).toEqual(
      filings!.rows[0],
    );
    for (const hidden of ['N/A', '1800-01-01', '-']) {
      expect(await page.locator('.intel-line-value').getByText(hidden, { exact: true }).count()).toBe(0);
    }
    await page
      .getByText(/nimbuslane/i)
      .first()
      .waitFor();
    await page.getByText(`${total} fields`, { exact: true }).waitFor();
    await dismissToasts(page);
    await screenshot(page, 'intel-corporate-results-desktop');
    const size = page.viewportSize();
    await page.setViewportSize({ width: 1366, height: 900 });
    await showTableTop(page, 'Filing Status');
    await screenshot(page, 'intel-gst-filings-desktop');
    if (size) await page.setViewportSize(size);

    // The search box narrows the lines (label or value, any case).
    const filter = page.getByRole('searchbox', { name: 'Search in these results' });
    await filter.fill('ADDRESS');
    const matching = filterLayout(layout, 'ADDRESS');
    expect(matching.rows.length).toBeGreaterThan(0);
    await expect.poll(() => shown.count()).toBe(matching.rows.length);
    await page.getByText(`${layoutSize(matching)} of ${total} fields`, { exact: true }).waitFor();
    await filter.fill('no such thing anywhere');
    await page.getByText('No field matches “no such thing anywhere”.').waitFor();
    await filter.fill('');
    await expect.poll(() => shown.count()).toBe(lines.length);

    // 'New Search' goes back to the form as it was.
    await button(page, 'New Search').click();
    await page.waitForURL('**/corporate');
    expect(await field(page, 'GSTIN').inputValue()).toBe(` ${demo.gstin} `);
    expect(await page.getByRole('checkbox', { name: 'Split Address' }).isChecked()).toBe(true);
    expect(await balance(live.token)).toBe(startCredits - 2);
    expect(problemsOf(page)).toEqual([]);
  });

  it('opens the empty results on a 422 with no charge, and shows the server message with the balance', async () => {
    const page = await pageFor(live.token, '/corporate');
    const before = await balance(live.token);
    await field(page, 'GSTIN').fill(demo.gstinUnknown);
    const { response } = await submit(page, 'Search');
    expect(response.status()).toBe(422);
    const body = (await response.json()) as { message: string; credits: number };
    expect(body.credits).toBe(before);
    await page.waitForURL('**/corporate-results');
    await toast(page, 'No data found').waitFor();
    await toast(page, `${body.message}${messages.intelPages.creditsRemaining(before)}`).waitFor();
    await page.getByRole('heading', { name: 'No data found for this search.' }).waitFor();
    await screenshot(page, 'intel-corporate-empty');
    await button(page, 'Try another search').click();
    await page.waitForURL('**/corporate');
    expect(await field(page, 'GSTIN').inputValue()).toBe(demo.gstinUnknown);
    expect(await balance(live.token)).toBe(before);
  });

  it('downloads the credit report as credit_report_{timestamp}.pdf, toasts, clears the form and shows the balance', async () => {
    const page = await pageFor(live.token, '/corporate');
    const before = await balance(live.token);
    await typeSelect(page).selectOption('credit_report');
    await field(page, 'Mobile').fill(demo.mobile);
    // A PAN typed in lower case is taken in capitals.
    await field(page, 'PAN').fill(demo.pan.toLowerCase());
    expect(await field(page, 'PAN').inputValue()).toBe(demo.pan);
    await field(page, 'Name').fill('Rohan Suresh Deshmukh');
    // Gender first, then consent: the spec messages in form order.
    await button(page, 'Download Report').click();
    await toast(page, 'Gender is required.').waitFor();
    await page.getByRole('radio', { name: 'Male', exact: true }).check();
    await button(page, 'Download Report').click();
    await toast(page, 'You must consent to fetch your credit report.').waitFor();
    await page.getByRole('checkbox', { name: /consent/i }).check();
    await dismissToasts(page);
    await screenshot(page, 'intel-credit-report-form');

    const download = page.waitForEvent('download');
    const release = await holdIntelCalls(page);
    const submitted = submit(page, 'Download Report');
    await page.getByRole('status').filter({ hasText: 'Generating PDF...' }).waitFor();
    await release();
    const { response, request } = await submitted;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect(request.postDataJSON()).toEqual({
      type: 'credit_report',
      data: {
        mobile: demo.mobile,
        pan: demo.pan,
        name: 'Rohan Suresh Deshmukh',
        gender: 'male',
        consent: 'Y',
      },
    });
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^credit_report_\d{13}\.pdf$/);
    const bytes = await readFile((await file.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await toast(page, 'Report downloaded successfully').waitFor();

    // The form is cleared and stays on the credit report; the header shows the charge.
    expect(await typeSelect(page).inputValue()).toBe('credit_report');
    for (const label of ['Mobile', 'PAN', 'Name']) expect(await field(page, label).inputValue()).toBe('');
    expect(await page.getByRole('radio', { name: 'Male', exact: true }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: /consent/i }).isChecked()).toBe(false);
    const after = Number(response.headers()['x-credits']);
    expect(after).toBe(before - 5);
    await creditsShown(page, after).waitFor();
    expect(await balance(live.token)).toBe(after);
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('identity intelligence', () => {
  /** One type of each form layout: its values, and what the results must show. */
  const layouts: Array<{ type: string; fill: Array<[label: string, value: string]> }> = [
    // A text field and an optional name.
    { type: 'pan', fill: [['PAN Number', demo.pan]] },
    // A text field and a date.
    {
      type: 'driving_license',
      fill: [
        ['Driving License Number', demo.drivingLicence],
        ['Date of Birth', demo.dob],
      ],
    },
    // Text, optional name and a date.
    {
      type: 'passport',
      fill: [
        ['File Number', demo.passportFile],
        ['Name', 'Rohan Suresh Deshmukh'],
        ['Date of Birth', demo.dob],
      ],
    },
    // Two text fields, an optional name and an optional phone.
    {
      type: 'bank_account',
      fill: [
        ['Account Number', demo.accountNumber],
        ['IFSC', demo.ifsc],
        ['Phone', demo.mobile],
      ],
    },
    // A single field.
    { type: 'vehicle_rc', fill: [['Vehicle Number', demo.vehicle]] },
    // The combinations of employment.
    {
      type: 'employment',
      fill: [
        ['Phone', demo.mobile],
        ['PAN', demo.pan],
      ],
    },
  ];

  it('opens on PAN with the optional badges and the Verify button', async () => {
    const page = await pageFor(live.token, '/verification-id');
    await page.getByRole('heading', { level: 1, name: 'Identity Intelligence' }).waitFor();
    expect(await typeSelect(page).inputValue()).toBe('pan');
    // Optional fields carry the badge; the button is 'Verify'.
    await page.getByText('Optional', { exact: true }).first().waitFor();
    await button(page, 'Verify').waitFor();
  });

  // One test per layout, so a slow machine meets the per-test time limit and a failure names its form.
  for (const [index, layout] of layouts.entries()) {
    it(`verifies a ${layout.type} search, shows the flattened answer, and charges one credit`, async () => {
      const page = await pageFor(live.token, '/verification-id');
      await page.getByRole('heading', { level: 1, name: 'Identity Intelligence' }).waitFor();
      const before = await balance(live.token);
      await typeSelect(page).selectOption(layout.type);
      for (const [label, value] of layout.fill) await field(page, label).fill(value);
      if (layout.type === 'bank_account') {
        expect(await page.getByText('Optional', { exact: true }).count()).toBe(3); // name, phone, case ref
        await dismissToasts(page).catch(() => {});
        await screenshot(page, 'intel-verification-desktop');
      }
      const { response, request } = await submit(page, 'Verify');
      expect(response.status(), `${layout.type}: ${await response.text()}`).toBe(200);
      expect((request.postDataJSON() as { type: string }).type).toBe(layout.type);
      const body = (await response.json()) as { data: unknown; credits: number };
      expect(body.credits).toBe(before - 1);
      await page.waitForURL('**/verification-results');
      await page.getByRole('heading', { level: 1, name: 'Identity Verified Result :' }).waitFor();
      await toast(page, 'Found data based on your search').waitFor();
      const lines = layoutRecord(body.data, `verification:${layout.type}`).rows;
      expect(lines.length).toBeGreaterThan(0);
      await expect.poll(() => page.locator('.intel-line').count()).toBe(lines.length);
      await creditsShown(page, before - 1).waitFor();
      if (index === 0) {
        await dismissToasts(page);
        await screenshot(page, 'intel-verification-results-desktop');
      }
      await button(page, 'New Search').click();
      await page.waitForURL('**/verification-id');
      expect(await typeSelect(page).inputValue()).toBe(layout.type);
      expect(await balance(live.token)).toBe(before - 1);
      expect(problemsOf(page)).toEqual([]);
    });
  }

  it('refuses an employment search without a complete combination before calling', async () => {
    const page = await pageFor(live.token, '/verification-id');
    const calls: string[] = [];
    page.on('request', (request) => {
      if (isIntelCall(request.url())) calls.push(request.url());
    });
    expect(await field(page, 'PAN Number').getAttribute('aria-required')).toBe('true');
    expect(await field(page, 'Name').getAttribute('aria-required')).toBe('false');
    await typeSelect(page).selectOption('employment');
    // No employment field is required on its own; the hint says what is.
    for (const label of ['Phone', 'PAN', 'UAN', 'Date of Birth', 'Employee Name', 'Employer Name']) {
      expect(await field(page, label).getAttribute('aria-required')).toBe('false');
    }
    await page.getByText(messages.intelPages.combinationHint).waitFor();
    await field(page, 'Employer Name').fill('Nimbuslane Technologies');
    await field(page, 'PAN').fill(demo.pan);
    await button(page, 'Verify').click();
    const message = messages.intel.combination;
    await toast(page, message).waitFor();
    await page.getByRole('form').getByRole('alert').filter({ hasText: message }).waitFor();
    await screenshot(page, 'intel-employment-combination');
    expect(calls).toEqual([]);
  });

  it('opens the empty results on a 422 without a charge', async () => {
    const page = await pageFor(live.token, '/verification-id');
    const before = await balance(live.token);
    await typeSelect(page).selectOption('ifsc');
    await field(page, 'IFSC').fill('ABCD0000000');
    const { response } = await submit(page, 'Verify');
    expect(response.status()).toBe(422);
    await page.waitForURL('**/verification-results');
    await toast(page, 'No data found').waitFor();
    await page.getByRole('heading', { name: 'No data found for this search.' }).waitFor();
    expect(await balance(live.token)).toBe(before);
    await button(page, 'Try another search').click();
    await page.waitForURL('**/verification-id');
    expect(await typeSelect(page).inputValue()).toBe('ifsc');
  });
});

describe('failures', () => {
  it('says each failure in the spec words: 402 with the balance, a failed source, a refused request', async () => {
    const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
    const email = uniqueEmail('intel-poor');
    const password = 'almost out of credits';
    const created = await api('/api/admin/users', {
      body: { name: 'Intel Poor', email, password, app_mode: 'live', credits: 1 },
      token: admin,
    });
    expect(created.status).toBe(201);
    const token = await apiSignIn(email, password);
    const page = await pageFor(token, '/corporate');

    // A real 402: a corporate search costs 2 and the account holds 1.
    await typeSelect(page).selectOption('corporate_cin');
    await field(page, 'CIN').fill('U72200MH2015PTC248219');
    const { response } = await submit(page, 'Search');
    expect(response.status()).toBe(402);
    const body = (await response.json()) as { message: string; credits: number };
    expect(body.credits).toBe(1);
    await toast(page, `${body.message}${messages.intelPages.creditsRemaining(1)}`).waitFor();
    expect(page.url()).toMatch(/\/corporate$/);
    expect(await toast(page, 'Something went wrong').count()).toBe(0);
    await dismissToasts(page);

    // A source that did not answer (staged in the browser: the sandbox always answers).
    const failed = {
      message: 'The source did not answer this search. Your credits were refunded.',
      credits: 1,
    };
    await page.route('**/api/corporate-intelligence', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify(failed) }),
    );
    await button(page, 'Search').click();
    await toast(page, `${failed.message}${messages.intelPages.creditsRemaining(1)}`).waitFor();
    await toast(page, 'Something went wrong').waitFor();
    await dismissToasts(page);
    await typeSelect(page).selectOption('credit_report');
    await field(page, 'Mobile').fill(demo.mobile);
    await field(page, 'PAN').fill(demo.pan);
    await field(page, 'Name').fill('Rohan Suresh Deshmukh');
    await page.getByRole('radio', { name: 'Female', exact: true }).check();
    await page.getByRole('checkbox', { name: /consent/i }).check();
    await button(page, 'Download Report').click();
    // A failed credit report is one toast: the server's message with the balance.
    await toast(page, `${failed.message}${messages.intelPages.creditsRemaining(1)}`).waitFor();
    expect(await page.locator('.Toastify__toast').count()).toBe(1);
    // A failed report keeps what was typed.
    expect(await field(page, 'PAN').inputValue()).toBe(demo.pan);
    await page.unroute('**/api/corporate-intelligence');

    // Verification: 502 and 400 in their own words (staged), 402 as 'Insufficient credits.'.
    await page.goto('/verification-id');
    await field(page, 'PAN Number').fill(demo.pan);
    const staged: Array<[status: number, body: Record<string, unknown>, texts: string[]]> = [
      [502, failed, [failed.message, 'internal server error']],
      [
        400,
        { error: 'PAN Number is required.', message: 'PAN Number is required.' },
        ['PAN Number is required.'],
      ],
      [400, {}, ['Bad request.']],
      [402, { message: 'Insufficient credits.', credits: 0 }, ['Insufficient credits.']],
    ];
    for (const [status, answer, texts] of staged) {
      await page.route('**/api/verification-id', (route) =>
        route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(answer) }),
      );
      await button(page, 'Verify').click();
      for (const text of texts) await toast(page, text).waitFor();
      expect(page.url()).toMatch(/\/verification-id$/);
      await dismissToasts(page);
      await page.unroute('**/api/verification-id');
    }
    // The 402 said the balance is 0: the next search is stopped in the browser.
    await creditsShown(page, 0).waitFor();
    await button(page, 'Verify').click();
    await toast(page, 'Insufficient credits. Please upgrade your plan.').waitFor();
  });
});

describe('server refusals', () => {
  it("puts the server's per-field message under the field it names, focused, and charges nothing", async () => {
    const before = await balance(live.token);
    const page = await pageFor(live.token, '/corporate');
    await page.getByRole('heading', { level: 1, name: 'Corporate Intelligence' }).waitFor();
    // The form only sends years it offers; a request changed on its way (as a stale tab or a script
    // might send it) reaches the real server, which names the field it refuses.
    await page.route(/\/api\/corporate-intelligence$/, async (route) => {
      const sent = route.request().postDataJSON() as { data: Record<string, unknown> };
      await route.continue({ postData: JSON.stringify({ ...sent, data: { ...sent.data, year: '1999' } }) });
    });
    await field(page, 'GSTIN').fill(demo.gstin);
    const { response } = await submit(page, 'Search');
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    const said = body.errors['data.year']?.[0];
    expect(said, JSON.stringify(body)).toBeTruthy();

    const year = page.getByRole('combobox', { name: 'Financial Year' });
    await expect.poll(() => year.getAttribute('aria-invalid')).toBe('true');
    await page.locator('.field-error').filter({ hasText: said! }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('year');
    expect(await balance(live.token)).toBe(before);
  });
});

describe('layout', () => {
  it('fits a 390 px phone screen, form and results, without sideways scrolling', async () => {
    const page = await pageFor(live.token, '/corporate', { width: 390, height: 844 });
    await typeSelect(page).waitFor();
    const noSideways = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await noSideways();
    await screenshot(page, 'intel-corporate-mobile');
    await typeSelect(page).selectOption('corporate_cin');
    await field(page, 'CIN').fill('U72200MH2015PTC248219');
    const { response } = await submit(page, 'Search');
    expect(response.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Corporate Result:' }).waitFor();
    await noSideways();
    await dismissToasts(page);
    await screenshot(page, 'intel-corporate-results-mobile');

    // A GST answer's filings table scrolls inside its frame; the page itself does not.
    await page.goto('/corporate');
    await typeSelect(page).selectOption('corporate_gstin');
    await field(page, 'GSTIN').fill(demo.gstin);
    await page.getByRole('checkbox', { name: 'Filing Status' }).check();
    expect((await submit(page, 'Search')).response.status()).toBe(200);
    const filings = page.getByRole('region', { name: 'Filing Status' });
    await filings.locator('tbody tr').first().waitFor();
    await noSideways();
    await dismissToasts(page);
    await showTableTop(page, 'Filing Status');
    expect(await filings.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await screenshot(page, 'intel-gst-filings-mobile');

    await page.goto('/verification-id');
    await typeSelect(page).selectOption('employment');
    await noSideways();
    await screenshot(page, 'intel-verification-mobile');
  });

  it('is usable with the keyboard alone', async () => {
    const page = await pageFor(live.token, '/verification-id');
    await typeSelect(page).focus();
    await page.keyboard.press('ArrowDown'); // driving_license
    expect(await typeSelect(page).inputValue()).toBe('driving_license');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('dl_number');
    await page.keyboard.type(demo.drivingLicence);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('dob');
    await field(page, 'Date of Birth').fill(demo.dob);
    const answer = page.waitForResponse((res) => isIntelCall(res.url()));
    await field(page, 'Date of Birth').press('Enter');
    expect((await answer).status()).toBe(200);
    await page.waitForURL('**/verification-results');
    // The search box takes typing; Shift+Tab from it reaches 'New Search', which goes back to the form.
    const filter = page.getByRole('searchbox', { name: 'Search in these results' });
    await filter.focus();
    await page.keyboard.type('zzz-nothing');
    await page.getByText('No field matches “zzz-nothing”.').waitFor();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('New Search');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/verification-id');
    expect(await typeSelect(page).inputValue()).toBe('driving_license');
  });
});

describe('results-page credit report', () => {
  it('downloads the report from the phone results modal through the same call', async () => {
    const page = await pageFor(live.token, '/dashboard');
    await page.getByRole('radio', { name: 'Phone' }).check({ force: true });
    await page.getByRole('textbox', { name: 'Phone number' }).fill(demo.mobile);
    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    await button(page, 'Search').click();
    await page.waitForURL('**/results');
    const before = await balance(live.token);

    await page.getByRole('button', { name: /^Credit Report:/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Credit Report Request' }).waitFor();
    await dialog.getByRole('radio', { name: 'Female', exact: true }).check();
    const download = page.waitForEvent('download');
    const answer = page.waitForResponse((res) => isIntelCall(res.url()));
    await dialog.getByRole('button', { name: 'Download Report' }).click();
    const response = await answer;
    expect(response.status()).toBe(200);
    const sent = response.request().postDataJSON() as { type: string; data: Record<string, string> };
    expect(sent.type).toBe('credit_report');
    expect(sent.data).toMatchObject({ gender: 'female', consent: 'Y' });
    expect(sent.data.pan).toMatch(/^[A-Z]{5}\d{4}[A-Z]$/);
    expect(Object.keys(sent.data).sort()).toEqual(['consent', 'gender', 'mobile', 'name', 'pan']);
    expect((await download).suggestedFilename()).toMatch(/^credit_report_\d{13}\.pdf$/);
    await toast(page, 'Report downloaded successfully').waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    await creditsShown(page, before - 5).waitFor();
    expect(await balance(live.token)).toBe(before - 5);
  });
});
