import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  brotliCompressSync,
  brotliDecompressSync,
  gunzipSync,
  gzipSync,
  zstdDecompressSync,
} from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

const robotsFile = new URL('../../../web/public/robots.txt', import.meta.url);

/**
 * A stand-in for apps/web/dist as the build writes it: every text asset with .br and .gz copies
 * beside it. The copies are real compressions of the same bytes, so what the browser decodes can be
 * compared with the plain file.
 */
async function compressedWebBuild() {
  const dir = await mkdtemp(join(tmpdir(), 'fp-web-z-'));
  await mkdir(join(dir, 'assets'));
  await mkdir(join(dir, 'prerendered'));
  const index = `<!doctype html><title>Footprint</title><div id="root"></div>${'<!-- padding -->'.repeat(80)}`;
  const bundle = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i}`))};\n`;
  // The pages the build prerenders (apps/web/scripts/prerender.ts), each its own document.
  const home = index.replace(
    '<div id="root"></div>',
    '<div id="root" data-prerendered="" inert=""><h1>Home</h1></div>',
  );
  const login = index.replace(
    '<div id="root"></div>',
    '<div id="root" data-prerendered="" inert=""><h1>Login</h1></div>',
  );
  const files: Record<string, string> = {
    'index.html': index,
    'assets/app-abc123.js': bundle,
    'prerendered/index.html': home,
    'prerendered/login.html': login,
  };
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text);
    await writeFile(join(dir, `${name}.br`), brotliCompressSync(text));
    await writeFile(join(dir, `${name}.gz`), gzipSync(text));
  }
  await writeFile(join(dir, 'robots.txt'), await readFile(robotsFile));
  return { dir, files };
}

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br'
    ? brotliDecompressSync(body)
    : encoding === 'gzip'
      ? gunzipSync(body)
      : encoding === 'zstd'
        ? zstdDecompressSync(body)
        : body;

describe('compressed answers', () => {
  let t: TestApp;
  let dir: string;
  let files: Record<string, string>;
  beforeAll(async () => {
    ({ dir, files } = await compressedWebBuild());
    t = await createTestApp({ env: { WEB_DIST: dir, NODE_ENV: 'production' } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
  ])('serves the build copy of an asset the browser accepts (%s → %s)', async (accept, encoding) => {
    const res = await get('/assets/app-abc123.js', accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.rawPayload.length).toBeLessThan(files['assets/app-abc123.js']!.length / 2);
    expect(decode(encoding, res.rawPayload).toString()).toBe(files['assets/app-abc123.js']);
  });

  it('sends the plain file to a client that accepts no encoding, still marked as varying', async () => {
    const res = await get('/assets/app-abc123.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body).toBe(files['assets/app-abc123.js']);
  });

  it.each([
    ['/about', 'br'],
    ['/dashboard', 'gzip'],
  ])('serves the app page %s compressed (%s) and never cached without asking', async (url, encoding) => {
    const res = await get(url, encoding);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(decode(encoding, res.rawPayload).toString()).toBe(files['index.html']);
  });

  it.each([
    ['/', 'prerendered/index.html', 'br'],
    ['/login', 'prerendered/login.html', 'gzip'],
    ['/login?from=menu', 'prerendered/login.html', 'br'],
    ['/login', 'prerendered/login.html', undefined],
  ])(
    'serves %s as the page the build prerendered (%s, %s), under the same rules',
    async (url, file, encoding) => {
      const res = await get(url, encoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(decode(encoding, res.rawPayload).toString()).toBe(files[file]);
    },
  );

  it('serves every other page the plain shell, prerendered pages only at their exact path', async () => {
    for (const url of ['/register', '/login/extra', '/prerendered', '/dashboard']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(decode('br', res.rawPayload).toString(), url).toBe(files['index.html']);
    }
  });

  it('does not hand out the compressed copies by their own names', async () => {
    expect((await get('/assets/app-abc123.js.br', 'br')).statusCode).toBe(404);
    // Outside /assets/ an unknown name is a route of the app: the page, not the gzip bytes.
    const page = await get('/index.html.gz');
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.body).toBe(files['index.html']);
  });

  it('compresses a JSON answer above the threshold, and leaves a small one alone', async () => {
    const big = await get('/api/openapi.json', 'gzip, deflate, br');
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    const document = JSON.parse(decode('br', big.rawPayload).toString());
    expect(document.openapi).toMatch(/^3\./);
    const plain = await get('/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(document);
    expect(big.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const small = await get('/api/health', 'gzip, deflate, br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
  });

  it.each([
    ['gzip, deflate, br, zstd', 'zstd'],
    ['gzip, deflate, br', 'br'],
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ])('answers JSON to a client accepting %s in %s, the same document', async (accept, encoding) => {
    const plain = await get('/api/openapi.json');
    const res = await get('/api/openapi.json', accept);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(JSON.parse(decode(encoding, res.rawPayload).toString())).toEqual(plain.json());
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('answers /robots.txt with the file that keeps crawlers out, not the app page', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('User-agent: *');
    expect(res.body).toMatch(/^Disallow: \/$/m);
    expect(res.body).not.toContain('<div id="root">');
  });
});
