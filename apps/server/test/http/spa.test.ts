import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

/** A tiny stand-in for apps/web/dist: an index, a bundle and its source map. */
async function fakeWebBuild() {
  const dir = await mkdtemp(join(tmpdir(), 'fp-web-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Footprint</title><div id="root"></div>');
  await writeFile(
    join(dir, 'assets', 'app-abc123.js'),
    'console.log(1);\n//# sourceMappingURL=app-abc123.js.map',
  );
  await writeFile(join(dir, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
  return dir;
}

describe('serving the web build', () => {
  let dir: string;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    dir = await fakeWebBuild();
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('withholds source maps in production and answers a missing asset with 404, not the app', async () => {
    const t = await createTestApp({ env: { WEB_DIST: dir, NODE_ENV: 'production' } });
    apps.push(t);
    const bundle = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['cache-control']).toContain('immutable');
    const map = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
    const stale = await t.app.inject({ method: 'GET', url: '/assets/old-chunk-0000.js' });
    expect(stale.statusCode).toBe(404);
    expect(stale.json()).toEqual({ message: expect.any(String) });
    // Client-side routes still get the app.
    const route = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<div id="root">');
    // Each test starts a server of its own: give it the hook's time, not a test's.
  }, 60_000);

  it('serves source maps outside production', async () => {
    const t = await createTestApp({ env: { WEB_DIST: dir } });
    apps.push(t);
    const map = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js.map' });
    expect(map.statusCode).toBe(200);
    expect(map.body).toContain('secret.ts');
  }, 60_000);
});
