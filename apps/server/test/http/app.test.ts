import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('HTTP shell', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    // A traversal never reaches the file system: it is a 404 or, once normalised, the SPA's page.
    for (const url of [
      '/api/user/../../etc/passwd',
      '/api/user/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const traversal = await t.app.inject({ method: 'GET', url });
      expect(traversal.body, url).not.toContain('root:');
      expect(traversal.body, url).not.toContain('"workspaces"');
    }
    for (const url of ['/api/nope', '/dev/nothing']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/api/login' });
    expect(wrongMethod.statusCode).toBe(404);
    expect(wrongMethod.json().message).toBe('Not found.');
  });

  it('sends security headers on every answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/registration-status' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    // Pictures and map tiles come through the media proxy: the browser asks no outside host.
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toMatch(/https:|http:|\*/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('refuses bodies over 1 MiB with a JSON 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The request body is too large.');
  });
});

describe('configuration', () => {
  it('lists every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'eighty', TOKEN_TTL_MINUTES: '-5', DATABASE_URL: 'not a url' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('PORT');
      expect(problems).toContain('TOKEN_TTL_MINUTES');
      expect(problems).toContain('DATABASE_URL');
    }
  });

  it('runs the embedded default with demo accounts and the outbox', () => {
    const config = loadConfig({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.demo.seed).toBe(true);
    expect(config.mail.smtpUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/y' }).demo.seed).toBe(false);
  });
});
