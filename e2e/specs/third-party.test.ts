import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiSignIn, demoPassword } from '../support/api.ts';
import {
  openInApp,
  problemsOf,
  screenshot,
  storeSession,
  thirdPartyRequestsOf,
  useBrowser,
} from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';

/**
 * No request leaves the investigator's browser for another host. The product runs here with an avatar
 * vendor (a fake Gravatar) whose avatars live on an outside image host, and a tile server for the map,
 * both on 127.0.0.1 but on another port: another origin. A signed-in demo admin visits every screen;
 * every request the page makes is watched (support/browser.ts), and any to an origin other than the
 * product's fails. The image host must still have served the avatars and the tiles: through the server.
 */

/** A real PNG of `size`×`size`: a plain colour with a grid line on two edges (a recognisable tile). */
function png(size: number, rgb: [number, number, number], line: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) rows.push(...(x === 0 || y === 0 ? line : rgb));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const TILE = png(256, [214, 222, 230], [170, 182, 196]);
const AVATAR = png(96, [37, 99, 235], [255, 255, 255]);

let outside: Server;
let outsideUrl: string;
const outsideRequests: string[] = [];
let server: RunningServer;
let token: string;

beforeAll(async () => {
  outside = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    outsideRequests.push(path);
    if (path.startsWith('/profiles/')) {
      const hash = path.slice('/profiles/'.length);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          hash,
          display_name: 'Rohan Deshmukh',
          profile_url: 'https://gravatar.example.test/rohandeshmukh',
          avatar_url: `${outsideUrl}/avatar/${hash}.png`,
          location: 'Pune, India',
          job_title: 'Analyst',
          company: 'Nimbus Lane',
          verified_accounts: [
            { service_type: 'github', service_label: 'GitHub', url: 'https://github.example.test/rohan' },
          ],
        }),
      );
      return;
    }
    const body = path.startsWith('/tiles/') ? TILE : path.startsWith('/avatar/') ? AVATAR : undefined;
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
  outsideUrl = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
  server = await startProductServer({
    GRAVATAR_API_KEY: 'third-party-spec-key',
    GRAVATAR_BASE_URL: outsideUrl,
    MEDIA_HOSTS: '127.0.0.1',
    MEDIA_ALLOW_ADDRESSES: `127.0.0.1:${(outside.address() as AddressInfo).port}`,
    MAP_TILE_URL: `${outsideUrl}/tiles/{z}/{x}/{y}.png`,
    MAP_TILE_ATTRIBUTION: '© Test tiles',
  });
  token = await apiSignIn('demo-admin@footprint.test', demoPassword, server.url);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (outside ? outside.close(() => resolve()) : resolve()));
});

// Its pages sign in afresh; the contexts they leave are reused, their HTTP cache kept (support/browser.ts).
const browser = useBrowser({ reuseContexts: true });

async function signedInPage(size: { width: number; height: number }) {
  const page = await browser.newPage(size);
  await storeSession(page, token, server.url);
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
  return page;
}

async function search(page: Page, type: 'tel' | 'email', value: string, origin = server.url) {
  await openInApp(page, `${origin}/dashboard`);
  await page.getByRole('radio', { name: type === 'tel' ? 'Phone' : 'Email' }).check({ force: true });
  await page.getByRole('textbox', { name: type === 'tel' ? 'Phone number' : 'Email address' }).fill(value);
  const terms = page.getByRole('checkbox', { name: /Terms of Services, Policies/ });
  if (!(await terms.isChecked())) await terms.check();
  const answer = page.waitForResponse((res) =>
    res.url().includes(type === 'tel' ? '/api/tel?' : '/api/email?'),
  );
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  expect((await answer).status()).toBe(200);
  await page.waitForURL('**/results');
}

/**
 * Waits until every map tile has its picture (an SPA page reaches Playwright's 'networkidle' once, at
 * its first load, so that state says nothing about later fetches), then lists every <img> showing a
 * broken picture.
 */
async function brokenImages(page: Page): Promise<string[]> {
  await expect
    .poll(() => page.locator('.leaflet-tile:not(.leaflet-tile-loaded)').count(), { timeout: 15_000 })
    .toBe(0);
  return page.evaluate(() =>
    Array.from(document.images)
      .filter((img) => !img.complete || img.naturalWidth === 0)
      .map((img) => `${img.className} ${img.src || '(no src)'}`),
  );
}

describe('no request leaves the browser for another host', () => {
  it('visits every screen of a signed-in investigator and asks only the product server', async () => {
    const page = await signedInPage({ width: 1366, height: 900 });
    // The requests under way, and when the last one started or ended.
    let pending = 0;
    let lastMove = Date.now();
    page.on('request', () => {
      pending += 1;
      lastMove = Date.now();
    });
    const ended = () => {
      pending = Math.max(0, pending - 1);
      lastMove = Date.now();
    };
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    const visit = async (path: string, ready: () => Promise<unknown>) => {
      // Inside the app, as its menu goes (a load would start the whole app again for each screen), then
      // as Playwright's 'networkidle' does: no request under way for half a second, so what the screen
      // fetches after it shows has been asked for, and watched, too.
      await openInApp(page, `${server.url}${path}`);
      await ready();
      await expect
        .poll(() => pending === 0 && Date.now() - lastMove >= 500, { timeout: 15_000, interval: 100 })
        .toBe(true);
    };
    const heading = (name: RegExp | string) => page.getByRole('heading', { level: 1, name }).first();

    await search(page, 'tel', '9876543210');
    await page.getByText('Phone Status', { exact: true }).waitFor();
    expect(await brokenImages(page)).toEqual([]);

    await search(page, 'email', 'rich.demo@example.test');
    await page.getByRole('heading', { name: 'Avatar service' }).waitFor();
    // The vendor's avatar, from the outside host, drawn through the proxy as a blob: URL.
    const avatar = page.getByRole('img', { name: /Gravatar/ }).first();
    await avatar.waitFor();
    expect(await avatar.getAttribute('src')).toMatch(/^blob:/);
    await page.getByRole('button', { name: 'Show map' }).click();
    await page.locator('.leaflet-marker-icon').first().waitFor();
    await expect
      .poll(() => page.locator('.leaflet-tile-loaded').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.getByText('© Test tiles').waitFor();
    expect(await brokenImages(page)).toEqual([]);

    await visit('/leak-data-finder', () => page.getByRole('textbox', { name: 'Field 1 value' }).waitFor());
    await visit('/corporate', () => page.getByRole('combobox', { name: 'Search type' }).waitFor());
    await visit('/verification-id', () => page.getByRole('combobox', { name: 'Search type' }).waitFor());
    await visit('/history', () =>
      page.getByRole('region', { name: 'Lookups' }).getByRole('row').nth(1).waitFor(),
    );
    await visit('/reviews', () => heading(/./).waitFor());
    await visit('/upgrade', () => heading(/./).waitFor());
    await visit('/subscription', () => heading(/./).waitFor());
    await visit('/help', () => heading(/./).waitFor());
    for (const admin of ['users', 'units', 'audit', 'providers', 'leak-sources', 'settings']) {
      await visit(`/admin/${admin}`, () => heading(/./).waitFor());
    }

    // The avatars and the tiles did come from the outside host: the server fetched them.
    expect(outsideRequests.some((path) => path.startsWith('/avatar/'))).toBe(true);
    expect(outsideRequests.some((path) => path.startsWith('/tiles/'))).toBe(true);
    expect(thirdPartyRequestsOf(page)).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
  });

  it('shows the e-mail results with the map, desktop and phone, without a broken picture', async () => {
    for (const [size, name] of [
      [{ width: 1366, height: 900 }, 'desktop'],
      [{ width: 390, height: 844 }, 'mobile'],
    ] as const) {
      const page = await signedInPage(size);
      await search(page, 'email', 'rich.demo@example.test');
      await page
        .getByRole('img', { name: /Gravatar/ })
        .first()
        .waitFor();
      await page.getByRole('button', { name: 'Show map' }).click();
      await expect
        .poll(() => page.locator('.leaflet-tile-loaded').count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
      expect(await brokenImages(page)).toEqual([]);
      await page.locator('.leaflet-container').scrollIntoViewIfNeeded();
      await screenshot(page, `media-proxy-email-map-${name}`);
      await page.evaluate(() => scrollTo(0, 0));
      await screenshot(page, `media-proxy-email-${name}`);
      expect(thirdPartyRequestsOf(page)).toEqual([]);
      expect(problemsOf(page)).toEqual([]);
    }
  });

  it('draws the map without a tile server on a plain background, fetching no tile', async () => {
    // The suite's own server has no MAP_TILE_URL.
    const suiteUrl = inject('baseURL');
    const suiteToken = await apiSignIn('demo-admin@footprint.test', demoPassword, suiteUrl);
    for (const [size, name] of [
      [{ width: 1366, height: 900 }, 'desktop'],
      [{ width: 390, height: 844 }, 'mobile'],
    ] as const) {
      const page = await browser.newPage(size);
      const tileRequests: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/map/tiles/')) tileRequests.push(request.url());
      });
      await storeSession(page, suiteToken, suiteUrl);
      await search(page, 'email', 'rich.demo@example.test', suiteUrl);
      await page.getByRole('button', { name: 'Show map' }).click();
      await page.locator('.leaflet-marker-icon').first().waitFor();
      await page.getByText('No base map configured').waitFor();
      expect(await page.locator('.leaflet-tile').count()).toBe(0);
      expect(tileRequests).toEqual([]);
      expect(await brokenImages(page)).toEqual([]);
      await page.locator('.leaflet-container').scrollIntoViewIfNeeded();
      await screenshot(page, `media-proxy-email-map-plain-${name}`);
      expect(thirdPartyRequestsOf(page)).toEqual([]);
      expect(problemsOf(page)).toEqual([]);
    }
  });

  it('catches a request to another origin (the watch can fail)', async () => {
    const page = await signedInPage({ width: 1366, height: 900 });
    expect(thirdPartyRequestsOf(page)).toEqual([]);
    // A top-level visit is outside the product's CSP: only the watch sees it.
    await page.goto(`${outsideUrl}/avatar/direct.png`);
    expect(thirdPartyRequestsOf(page)).toEqual([`GET ${outsideUrl}/avatar/direct.png (document)`]);
    // This test wanted the request: the support's end-of-test check must not fail it.
    thirdPartyRequestsOf(page).length = 0;
  });
});
