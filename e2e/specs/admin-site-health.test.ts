// Admin → Site checks, the username catalogue's self-check in the browser. On the shared server the site
// check is off, and the screen says so. On a server of its own with the site check on against sites
// faked on 127.0.0.1 (one healthy, one answering any name, one dead, one behind a WAF): every site is
// unchecked, an admin runs the self-check (confirmed, toasted), the false positive and the dead site
// come back quarantined "failing since" today, the WAF blocked, the healthy one ok with its precision;
// the state filter narrows the table; at phone width nothing scrolls sideways.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSignIn, demoPassword } from '../support/api.ts';
import {
  expectNoSidewaysScroll,
  problemsOf,
  storeSession,
  tableOverflowAtLaptop,
  useBrowser,
} from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

const browser = useBrowser();
const adminEmail = 'demo-admin@footprint.test';
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

let sites: Server;
let server: RunningServer;

/** Sites on 127.0.0.1, one path prefix each: `/<site>/<username>`. */
async function startSites() {
  const fake = createServer((req, res) => {
    const [, site, name] = (req.url ?? '/').split('/');
    if (site === 'waf') {
      res.writeHead(403, { 'cf-mitigated': 'challenge', server: 'cloudflare', 'content-type': 'text/html' });
      return void res.end('<html><head><title>Just a moment...</title></head></html>');
    }
    const status = site === 'anyone' ? 200 : site === 'dead' ? 500 : name === 'alice' ? 200 : 404;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>${site} ${name}</title></head><body>${'profile '.repeat(80)}</body></html>`);
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  return fake;
}

function writeCatalogue(port: number): string {
  const base = `http://127.0.0.1:${port}`;
  const site = (id: string, name: string, category: string, india = false) => ({
    id,
    name,
    main: `${base}/`,
    url: `${base}/${id}/{username}`,
    check: 'status_code',
    claimed: 'alice',
    category,
    tags: [category],
    india,
    from: ['sherlock'],
  });
  const entries = [
    site('good', 'Good Site', 'social', true),
    site('anyone', 'Anyone Forum', 'forum'),
    site('dead', 'Dead Blog', 'blog'),
    site('waf', 'Walled Shop', 'shopping'),
  ];
  const file = join(mkdtempSync(join(tmpdir(), 'fp-e2e-sites-')), 'catalogue.json');
  writeFileSync(
    file,
    JSON.stringify({
      built_from: { sherlock: { sites: entries.length }, maigret: { sites: 0 } },
      dropped: {},
      sites: entries,
    }),
  );
  return file;
}

beforeAll(async () => {
  sites = await startSites();
  const port = (sites.address() as AddressInfo).port;
  server = await startProductServer({
    SANDBOX_LEAK_RECORDS: '0',
    SITE_CHECK_ENABLED: 'true',
    SITE_CHECK_USER_AGENT: 'Footprint-SiteCheck/e2e (+http://127.0.0.1/contact)',
    SITE_CHECK_CATALOGUE: writeCatalogue(port),
    SITE_CHECK_ALLOW_ADDRESSES: `127.0.0.1:${port}`,
    SITE_CHECK_INTERVAL_MS: '0',
    // No scheduled run: the admin's run is the first.
    SITE_CHECK_SELF_CHECK_HOURS: '0',
  });
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => sites?.close(resolve));
});

describe('Admin → Site checks', () => {
  it('says the site check is off where it is (the shared server)', async () => {
    const token = await apiSignIn(adminEmail, demoPassword);
    const page = await browser.newPage({ width: 1440, height: 900 });
    await storeSession(page, token);
    await page.goto('/admin/users');
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'Site checks' })
      .click();
    await heading(page, 'Site checks').waitFor();
    await page.getByText(/The site check is off in this deployment/).waitFor();
    expect(await page.getByRole('button', { name: 'Run self-check now' }).count()).toBe(0);
    expect(problemsOf(page)).toEqual([]);
  });

  it('runs the self-check: the false positive and the dead site quarantined, the WAF blocked, the healthy ok', async () => {
    const token = await apiSignIn(adminEmail, demoPassword, server.url);
    const page = await browser.newPage({ width: 1440, height: 900 });
    await storeSession(page, token, server.url);
    await page.goto(`${server.url}/admin/site-health`);
    await heading(page, 'Site checks').waitFor();
    await page.getByText('Never run yet.').waitFor();
    const total = (name: string) =>
      page
        .locator('dl > div')
        .filter({ has: page.getByText(name, { exact: true }) })
        .locator('dd');
    expect(await total('Unchecked').textContent()).toBe('4');

    await page.getByRole('button', { name: 'Run self-check now' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Check every site of the catalogue now\?/).waitFor();
    await dialog.getByRole('button', { name: 'Run self-check now' }).click();
    await toast(page, 'Self-check queued: the table updates when it finishes.').waitFor();
    // The screen reads the answer again every few seconds while a run goes on.
    await page.getByText(/Last run .*: 1 passed, 2 failed, 1 blocked\./).waitFor({ timeout: 60_000 });

    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    await row('Anyone Forum').getByText('Quarantined', { exact: true }).waitFor();
    expect(await row('Anyone Forum').textContent()).toMatch(/failing since/);
    expect(await row('Dead Blog').textContent()).toMatch(/Quarantined/);
    expect(await row('Walled Shop').textContent()).toMatch(/Blocked/);
    expect(await row('Good Site').textContent()).toMatch(/OK.*100 %/);
    expect(await total('Quarantined').textContent()).toBe('2');
    expect(await total('OK').textContent()).toBe('1');

    await page.getByLabel('State').selectOption('quarantined');
    await page.getByText('2 of 4 sites').waitFor();
    expect(await row('Good Site').count()).toBe(0);
    expect(await tableOverflowAtLaptop(page, 'Site checks')).toBeLessThanOrEqual(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('State').selectOption('');
    await page.getByText('4 of 4 sites').waitFor();
    await expectNoSidewaysScroll(page);
    expect(problemsOf(page)).toEqual([]);
  });
});
