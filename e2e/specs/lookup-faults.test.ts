import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

/**
 * Lookups when things go wrong: a user who has spent every credit, and sources that fail. This spec
 * runs its own server with two sandbox sources failing on every call (SANDBOX_FAILURES).
 */

const browser = useBrowser();
let server: RunningServer;

beforeAll(async () => {
  server = await startProductServer({
    SANDBOX_FAILURES: 'tcData=1,smData=1',
    TRIAL_CREDITS: '3',
    SANDBOX_LEAK_RECORDS: '0',
  });
});
afterAll(() => server?.stop());

async function call(
  path: string,
  init: { body?: unknown; token?: string; deviceId?: string; method?: string } = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.deviceId ? { 'x-device-id': init.deviceId } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
}

/** A new trial account on this spec's server, signed in through the mailed OTP. */
async function newAccount() {
  const email = uniqueEmail('faults');
  const password = 'fault tolerant passphrase';
  expect(
    (
      await call('/api/register', {
        body: { name: 'Fault Tester', email, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  const deviceId = crypto.randomUUID();
  const since = new Date(Date.now() - 1000);
  expect((await call('/api/login', { body: { email, password }, deviceId })).status).toBe(403);
  const mails = async () =>
    (await (await fetch(`${server.url}/dev/outbox.json`)).json()) as Array<{
      to: string;
      subject: string;
      text: string;
      created_at: string;
    }>;
  let mail: { text: string } | undefined;
  for (let i = 0; i < 50 && !mail; i++) {
    mail = (await mails()).find(
      (m) => m.to === email && /verification code/.test(m.subject) && new Date(m.created_at) >= since,
    );
    if (!mail) await new Promise((r) => setTimeout(r, 100));
  }
  const otp = /code is (\d{6})/.exec(mail!.text)![1];
  const verified = await call('/api/verify-email-otp', { body: { email, otp }, deviceId });
  expect(verified.status).toBe(200);
  return verified.body.token as string;
}

async function openDashboard(token: string): Promise<Page> {
  const page = await browser.newPage();
  await storeSession(page, token, server.url);
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
  return page;
}

describe('lookups when sources fail or credits run out', () => {
  it('still shows the sources that answered when some fail, and names the ones that did not', async () => {
    const token = await newAccount();
    const page = await openDashboard(token);
    await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
    await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
    const answer = page.waitForResponse((res) => res.url().includes('/api/tel?'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const body = await (await answer).json();
    expect(body.errors.tcData).toBeTruthy();
    expect(body.errors.smData).toBeTruthy();
    expect(body.wpData).toBeTruthy();
    await page.waitForURL('**/results');
    // Partial results: the merged profile holds what the WhatsApp and Gov sources gave, the failed
    // ones are named.
    await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
    // The source panel counts them, and names them in the investigator's words once opened (tcData is
    // Caller ID, smData Social Media).
    await page
      .locator('summary')
      .filter({ hasText: /\d+ of 11 sources answered · 2 failed/ })
      .click();
    const sources = page.getByRole('list', { name: 'Sources' });
    for (const name of ['Caller ID', 'Social Media'])
      expect(await sources.getByRole('listitem').filter({ hasText: name }).textContent()).toContain('Failed');
    await screenshot(page, 'results-partial-sources');
    expect(body.credits).toBe(2);
  });

  it('warns about insufficient credits before any search once the balance is spent', async () => {
    const token = await newAccount();
    // Spend the three trial credits through the API.
    for (const n of ['9000000001', '9000000002', '9000000003']) {
      expect((await call(`/api/tel?number=91${n}`, { token })).status).toBe(200);
    }
    const refused = await call('/api/tel?number=919000000004', { token });
    expect(refused).toEqual({ status: 402, body: { message: 'Insufficient credits.', credits: 0 } });

    const page = await openDashboard(token);
    await page.getByText('Credits: 0').first().waitFor();
    let calledServer = false;
    page.on('request', (req) => {
      if (req.url().includes('/api/tel')) calledServer = true;
    });
    await page.getByRole('textbox', { name: 'Phone number' }).fill('9876543210');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('.Toastify').getByText('Insufficient credits. Please upgrade your plan.').waitFor();
    expect(calledServer).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });
});
