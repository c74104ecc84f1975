// API keys end to end (docs/api.md): a live account makes a key on the API keys page, copies it from
// the dialog that shows it once, and a script (this test, with fetch to the product on 127.0.0.1)
// runs a sandbox phone lookup with it; the key is revoked in the browser, and the same call is then
// refused. The page is pictured at desktop and phone sizes and checked with axe.
import { messages } from '@footprint/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, dismissToasts, screenPicture, settle, viewports } from '../support/a11y.ts';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { picture, problemsOf, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

const browser = useBrowser();
const t = messages.apiKeys;

let live: { email: string; token: string };

beforeAll(async () => {
  const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const email = uniqueEmail('api-keys');
  const password = 'scripted lookups passphrase';
  const created = await api('/api/admin/users', {
    body: { name: 'Script Owner', email, password, app_mode: 'live', credits: 50 },
    token: admin,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  live = { email, token: await apiSignIn(email, password) };
});

/** What a script does: GET /api/tel with the key, straight to the product server. */
const telWithKey = async (key: string) => {
  const res = await fetch(`${browser.baseURL}/api/tel?number=919876543210`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** A picture at each size (the whole page, or the screen when a dialog is open), checked with axe. */
async function lookAt(page: Page, name: string, fullPage = true) {
  for (const size of ['desktop', 'mobile'] as const) {
    await page.setViewportSize(viewports[size]);
    await dismissToasts(page);
    await settle(page);
    await picture(page, screenPicture(name, size), { fullPage });
    expect(await axeProblems(page, `${name}-${size}`)).toEqual([]);
  }
  await page.setViewportSize(viewports.desktop);
}

describe('API keys page', () => {
  it('makes a key shown once, the key runs a lookup, and revoking it in the browser stops it', async () => {
    const page = await browser.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await storeSession(page, live.token);
    await page.goto('/dashboard');
    // Reached from the profile menu, beside Security.
    await page.getByRole('button', { name: /^Profile: / }).click();
    await page.getByRole('banner').getByRole('link', { name: t.navLabel }).click();
    await page.waitForURL('**/api-keys');
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    await page.getByText(t.empty).waitFor();
    // The curl example names this deployment's own origin.
    await expect
      .poll(() => page.getByTestId('curl-example').textContent())
      .toContain(`${new URL(browser.baseURL).origin}/api/tel?number=`);

    await page.getByLabel(t.name, { exact: true }).fill('Case intake script');
    await page.getByRole('checkbox', { name: /^leaks/ }).check();
    await page.getByRole('button', { name: t.create, exact: true }).click();

    const dialog = page.getByRole('dialog', { name: t.shownOnceTitle });
    await dialog.waitFor();
    await dialog.getByText(t.shownOnce).first().waitFor();
    const shown = (await dialog.getByTestId('new-api-key').textContent())?.trim() ?? '';
    expect(shown).toMatch(/^fp_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: t.copyKey }).click();
    await dialog.getByRole('status').getByText(messages.results.copied).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await lookAt(page, 'api-keys-created', false);
    await dialog.getByRole('button', { name: t.done }).click();
    await dialog.waitFor({ state: 'detached' });

    // The script's call, with the copied key.
    const lookup = await telWithKey(copied);
    expect(lookup.status, JSON.stringify(lookup.body)).toBe(200);
    expect(lookup.body.sandbox).toBe(true);

    // The list never shows the secret; after the call it shows the use.
    await page.reload();
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Case intake script' });
    await row.getByText(`${copied.slice(0, 7)}…`).waitFor();
    expect(await page.content()).not.toContain(copied);
    await expect.poll(async () => (await row.textContent()) ?? '').not.toContain(t.never);
    await lookAt(page, 'api-keys');

    // Revoke, confirmed in a dialog.
    await row.getByRole('button', { name: `${t.revoke} Case intake script` }).click();
    const confirm = page.getByRole('dialog', { name: t.revokeTitle });
    await confirm.getByText(t.revokeConfirm('Case intake script')).waitFor();
    await confirm.getByRole('button', { name: t.revoke, exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await row.getByText(t.statusRevoked).waitFor();

    const refused = await telWithKey(copied);
    expect(refused.status).toBe(401);
    expect(problemsOf(page)).toEqual([]);
  });

  it('is not offered to a trial account, whose direct visit goes to /upgrade', async () => {
    const trial = await apiSignIn('demo-trial@footprint.test', demoPassword);
    const page = await browser.newPage();
    await storeSession(page, trial);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: /^Profile: / }).click();
    // Neither the profile menu nor the sidebar offers it.
    await page.getByRole('banner').getByRole('link', { name: messages.security.navLabel }).waitFor();
    expect(await page.getByRole('link', { name: t.navLabel }).count()).toBe(0);
    await page.goto('/api-keys');
    await page.waitForURL('**/upgrade');
  });
});
