// The media proxy (GET /api/media, the map tiles) against a real image host on 127.0.0.1.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpStatusOf } from '../../src/http/errors.ts';
import { createMediaFetcher, hostAllowed, MediaError } from '../../src/modules/media/fetcher.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { type RecordedRequest, startFakeUpstream } from '../support/upstream.ts';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const MAX_BYTES = 4096;

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let images: Upstream;
/** A second host: the target of a redirect to another host. */
let elsewhere: Upstream;
let t: TestApp;
let auth: Record<string, string>;

const png = (res: ServerResponse, body: Buffer = PNG) => {
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
  res.end(body);
};

function imageHost(req: RecordedRequest, res: ServerResponse) {
  const path = req.url.split('?')[0];
  switch (path) {
    case '/avatar.png':
      return png(res);
    case '/big.png':
      return png(res, Buffer.alloc(MAX_BYTES * 3, 1));
    case '/big-chunked.png': {
      // No content length: the cap must hold while the body streams.
      res.writeHead(200, { 'content-type': 'image/png' });
      for (let i = 0; i < 6; i++) res.write(Buffer.alloc(1024, 2));
      res.end();
      return;
    }
    case '/page.html':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<script>alert(1)</script>');
      return;
    case '/untyped':
      res.writeHead(200);
      res.end(PNG);
      return;
    case '/logo.svg':
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      return;
    case '/moved':
      res.writeHead(302, { location: '/avatar.png' });
      res.end();
      return;
    case '/away':
      res.writeHead(302, { location: `${elsewhere.url}/avatar.png` });
      res.end();
      return;
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('nope');
      return;
    case '/slow.png':
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          if (!res.destroyed) png(res);
          resolve();
        }, 1500),
      );
    default:
      if (path?.startsWith('/tiles/')) return png(res);
      res.writeHead(404);
      res.end();
      return;
  }
}

beforeAll(async () => {
  images = await startFakeUpstream(imageHost);
  elsewhere = await startFakeUpstream((_req, res) => png(res));
  t = await createTestApp({
    env: {
      RATE_LIMIT_ENABLED: 'false',
      // Only 127.0.0.1 is allowed by name; `localhost` is the host off the allow-list. Its address is
      // allowed on the fake servers' ports only (without a port: only 80 and 443), and on port 1, where
      // nothing listens.
      MEDIA_HOSTS: '127.0.0.1',
      MEDIA_ALLOW_ADDRESSES: [images, elsewhere]
        .map((u) => `127.0.0.1:${new URL(u.url).port}`)
        .concat('127.0.0.1:1')
        .join(','),
      MEDIA_MAX_BYTES: String(MAX_BYTES),
      MEDIA_TIMEOUT_MS: '500',
      MEDIA_CACHE_MB: '1',
      MAP_TILE_URL: `${images.url}/tiles/{z}/{x}/{y}.png`,
      MAP_TILE_ATTRIBUTION: '© Test tiles',
    },
  });
  const user = await createUser(t.db, { appMode: 'trial', credits: 1 });
  const { token, deviceId } = await signIn(t, user.email, user.password);
  auth = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
}, 60_000);
afterAll(async () => {
  await t?.close();
  await images?.close();
  await elsewhere?.close();
});
beforeEach(() => {
  images.requests.length = 0;
  elsewhere.requests.length = 0;
});

const media = (url: string | undefined, headers: Record<string, string> = auth) =>
  t.app.inject({
    method: 'GET',
    url: url === undefined ? '/api/media' : `/api/media?url=${encodeURIComponent(url)}`,
    headers,
  });

describe('GET /api/media', () => {
  it('refuses anonymous callers with a JSON 401 and fetches nothing', async () => {
    const res = await media(`${images.url}/avatar.png`, {});
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toEqual(expect.any(String));
    expect(images.requests).toHaveLength(0);
  });

  it('passes an image through with headers that keep it inert', async () => {
    const res = await media(`${images.url}/avatar.png?v=1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain('sandbox');
    // The image host learns nothing about the investigator: no cookie, no token, no referrer.
    const seen = images.requests[0]!;
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers.referer).toBeUndefined();
  });

  it('answers a missing or non-http url with a JSON 400', async () => {
    for (const url of [
      undefined,
      '',
      'not a url',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:image/png,x',
    ]) {
      const res = await media(url);
      expect(res.statusCode, String(url)).toBe(400);
      expect(res.json().message, String(url)).toMatch(/url/);
    }
  });

  it('refuses a host that is not on the allow-list, without asking it', async () => {
    const port = new URL(images.url).port;
    const res = await media(`http://localhost:${port}/avatar.png`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/localhost.*allow-list/);
    expect(images.requests).toHaveLength(0);
  });

  it('refuses a picture over MEDIA_MAX_BYTES, declared or streamed, with a JSON 413', async () => {
    for (const path of ['/big.png', '/big-chunked.png']) {
      const res = await media(`${images.url}${path}`);
      expect(res.statusCode, path).toBe(413);
      expect(res.json().message, path).toMatch(/larger than the 4096 bytes/);
    }
  });

  it('refuses an answer that is not an image with a JSON 415', async () => {
    for (const path of ['/page.html', '/untyped']) {
      const res = await media(`${images.url}${path}`);
      expect(res.statusCode, path).toBe(415);
      expect(res.json().message, path).toMatch(/not a picture/);
    }
  });

  it('serves SVG only sandboxed and unsniffable', async () => {
    const res = await media(`${images.url}/logo.svg`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(String(res.headers['content-security-policy'])).toMatch(/default-src 'none'.*sandbox/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the second request for a picture from its cache', async () => {
    const url = `${images.url}/avatar.png?cache=${Date.now()}`;
    const first = await media(url);
    const second = await media(url);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(first.headers['x-media-cache']).toBe('miss');
    expect(second.headers['x-media-cache']).toBe('hit');
    expect(second.rawPayload.equals(PNG)).toBe(true);
    expect(images.requests.filter((r) => r.url.startsWith('/avatar.png?cache='))).toHaveLength(1);
  });

  it('follows a redirect within the host but refuses one to another host', async () => {
    const same = await media(`${images.url}/moved`);
    expect(same.statusCode).toBe(200);
    expect(same.headers['content-type']).toBe('image/png');

    const away = await media(`${images.url}/away`);
    expect(away.statusCode).toBe(502);
    expect(away.json().message).toMatch(/redirected to another host/);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('answers an upstream error with 502 and a slow host with 504, never a 500', async () => {
    const missing = await media(`${images.url}/missing`);
    expect(missing.statusCode).toBe(502);
    expect(missing.json().message).toMatch(/answered 404/);
    const slow = await media(`${images.url}/slow.png`);
    expect(slow.statusCode).toBe(504);
    expect(slow.json().message).toMatch(/did not answer in time/);
    const closed = await media('http://127.0.0.1:1/avatar.png');
    expect(closed.statusCode).toBe(502);
  });
});

describe('the map tiles', () => {
  it('tells the web app a tile server is configured, with its credit line', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/map', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tiles: true, attribution: '© Test tiles', max_zoom: 19 });
  });

  it('serves a tile of the configured server through the proxy, signed-in users only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/map/tiles/3/4/5', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(images.requests.map((r) => r.url)).toEqual(['/tiles/3/4/5.png']);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/map/tiles/3/4/5' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a tile outside the grid with a JSON 400', async () => {
    for (const path of ['3/8/0', '3/0/8', '25/0/0', 'a/b/c', '-1/0/0']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/map/tiles/${path}`, headers: auth });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().message, path).toBe('No such tile.');
    }
  });
});

describe('the fetcher on its own', () => {
  const options = { hosts: ['127.0.0.1', 'localhost'], maxBytes: 4096, timeoutMs: 1000, cacheBytes: 0 };

  it('refuses loopback and private addresses unless MEDIA_ALLOW_ADDRESSES lists them', async () => {
    const strict = createMediaFetcher({ ...options, allowAddresses: [] });
    const port = new URL(images.url).port;
    for (const url of [`${images.url}/avatar.png`, `http://localhost:${port}/avatar.png`]) {
      const error = await strict.get(url).catch((e: unknown) => e);
      expect(error, url).toBeInstanceOf(MediaError);
      expect((error as MediaError).code, url).toBe('media_address_refused');
      expect(httpStatusOf((error as MediaError).code), url).toBe(403);
    }
    expect(images.requests).toHaveLength(0);
    const open = createMediaFetcher({ ...options, allowAddresses: [`127.0.0.0/8:${port}`] });
    expect((await open.get(`http://localhost:${port}/avatar.png`)).contentType).toBe('image/png');
  });

  it('opens an allowed address on its own port only, or on 80 and 443 when it names none', async () => {
    const port = new URL(images.url).port;
    // A fake database on the loopback: an allowed address without a port does not reach it (it did).
    const database = await startFakeUpstream((_req, res) => png(res));
    const databasePort = new URL(database.url).port;
    try {
      const cases: Array<[string[], string, boolean]> = [
        [['127.0.0.1'], `http://127.0.0.1:${databasePort}/avatar.png`, false],
        [['127.0.0.1'], `http://127.0.0.1:${port}/avatar.png`, false],
        [['127.0.0.0/8'], `http://localhost:${port}/avatar.png`, false],
        [[`127.0.0.1:${port}`], `http://127.0.0.1:${databasePort}/avatar.png`, false],
        [[`127.0.0.1:${port}`], `http://127.0.0.1:${port}/avatar.png`, true],
        [[`127.0.0.0/8:${port}`], `http://localhost:${port}/avatar.png`, true],
        [[`127.0.0.1:${databasePort}`, `127.0.0.1:${port}`], `http://127.0.0.1:${port}/avatar.png`, true],
        [['[::1]:443', `127.0.0.1:${port}`], `http://127.0.0.1:${port}/avatar.png`, true],
      ];
      for (const [allowAddresses, url, reached] of cases) {
        const fetcher = createMediaFetcher({ ...options, allowAddresses });
        const where = `${allowAddresses.join(',')} → ${url}`;
        if (reached) {
          expect((await fetcher.get(url)).contentType, where).toBe('image/png');
        } else {
          const error = await fetcher.get(url).catch((e: unknown) => e);
          expect((error as MediaError).code, where).toBe('media_address_refused');
        }
      }
      // The refused port was never connected to.
      expect(database.requests).toHaveLength(0);
    } finally {
      await database.close();
    }
  });

  it('matches allow-list entries by exact name or *.domain', () => {
    expect(hostAllowed('gravatar.com', ['gravatar.com'])).toBe(true);
    expect(hostAllowed('evilgravatar.com', ['gravatar.com', '*.gravatar.com'])).toBe(false);
    expect(hostAllowed('secure.gravatar.com', ['*.gravatar.com'])).toBe(true);
    expect(hostAllowed('gravatar.com', ['*.gravatar.com'])).toBe(false);
    expect(hostAllowed('gravatar.com.evil.test', ['gravatar.com', '*.gravatar.com'])).toBe(false);
  });
});

describe('the media variables', () => {
  it('stop the start with a list when they are malformed', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config.ts');
    for (const [name, value] of [
      ['MEDIA_HOSTS', 'gravatar.com,https://evil.test/'],
      ['MEDIA_ALLOW_ADDRESSES', '127.0.0.1,not-an-address'],
      ['MEDIA_ALLOW_ADDRESSES', '10.0.0.0/33'],
      ['MEDIA_ALLOW_ADDRESSES', '10.0.0.5:0'],
      ['MEDIA_ALLOW_ADDRESSES', '10.0.0.5:65536'],
      ['MEDIA_ALLOW_ADDRESSES', 'fd00::1:443x'],
      ['MEDIA_ALLOW_ADDRESSES', '[10.0.0.5]:443'],
      ['MEDIA_ALLOW_ADDRESSES', '[fd00::1]:'],
      ['MEDIA_MAX_BYTES', '12'],
      ['MAP_TILE_URL', 'https://tiles.example.org/tile.png'],
      ['MAP_TILE_URL', 'ftp://tiles.example.org/{z}/{x}/{y}.png'],
    ] as const) {
      let thrown: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, `${name}=${value}`).toBeInstanceOf(ConfigError);
      expect((thrown as InstanceType<typeof ConfigError>).problems.join('\n'), name).toContain(name);
    }
    const config = loadConfig({
      MEDIA_ALLOW_ADDRESSES: '127.0.0.1, 10.0.0.0/8,::1,10.0.0.5:8080,[fd00::1]:443,[fd00::/8]',
      MAP_TILE_URL: 'https://tiles.example.org/{z}/{x}/{y}.png',
    });
    expect(config.media.allowAddresses).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      '10.0.0.5:8080',
      '[fd00::1]:443',
      '[fd00::/8]',
    ]);
    expect(config.map.tileUrl).toBe('https://tiles.example.org/{z}/{x}/{y}.png');
    expect(loadConfig({}).map.tileUrl).toBeUndefined();
  });
});
