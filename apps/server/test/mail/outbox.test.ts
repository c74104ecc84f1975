import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { type Runtime, startRuntime } from '../../src/runtime.ts';
import { createTestDatabase } from '../support/db.ts';

let runtime: Runtime;
let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  // No SMTP_URL: mail goes to the outbox table, as on the embedded default.
  runtime = await startRuntime(
    loadConfig({
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'true',
      DEMO_PASSWORD: 'demo-pass-123',
      SANDBOX_LEAK_RECORDS: '0',
    }),
    { database },
  );
});
afterAll(async () => {
  await runtime.close();
  await database.close();
});

describe('development outbox', () => {
  it('seeds the demo accounts once, and keeps sign-in mail readable at /dev/outbox', async () => {
    expect(runtime.demoCreated).toEqual([
      'demo-live@footprint.test',
      'demo-trial@footprint.test',
      'demo-admin@footprint.test',
    ]);
    const login = await runtime.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'demo-trial@footprint.test', password: 'demo-pass-123' },
    });
    expect(login.statusCode).toBe(403);

    const list = await runtime.app.inject({ method: 'GET', url: '/dev/outbox.json' });
    expect(list.statusCode).toBe(200);
    const [latest] = list.json();
    expect(latest).toMatchObject({
      to: 'demo-trial@footprint.test',
      subject: 'Your Footprint verification code',
    });
    expect(latest.text).toMatch(/code is \d{6}/);
    expect(Object.keys(latest).sort()).toEqual(['created_at', 'id', 'subject', 'text', 'to']);

    const page = await runtime.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Your Footprint verification code');
  });

  it('answers only a Host that names this machine or APP_URL: a DNS-rebinding page gets 403', async () => {
    const asked = (host: string, url = '/dev/outbox.json') =>
      runtime.app.inject({ method: 'GET', url, headers: { host } });
    for (const host of [
      'localhost:3000',
      'localhost',
      '127.0.0.1:3000',
      '127.0.0.2',
      '[::1]:3000',
      'LOCALHOST:3000',
    ]) {
      expect((await asked(host)).statusCode, host).toBe(200);
    }
    // APP_URL is http://localhost:3000 here (the default); its host is already a loopback name.
    for (const host of [
      'attacker.example:3000',
      'localhost.attacker.example:3000',
      '127.0.0.1.nip.io:3000',
      'evil.test',
      'localhost:3000/x',
      'user@localhost:3000',
      '[::2]:3000',
    ]) {
      for (const url of ['/dev/outbox.json', '/dev/outbox', '/dev/outbox.css']) {
        const res = await asked(host, url);
        expect(res.statusCode, `${host} ${url}`).toBe(403);
        expect(res.json().message, host).toContain('only requests from this machine');
        expect(res.body, host).not.toMatch(/code is \d{6}/);
      }
    }
  });

  it('answers APP_URL’s own host name', async () => {
    const db = await createTestDatabase();
    const named = await startRuntime(
      loadConfig({
        NODE_ENV: 'development',
        LOG_LEVEL: 'silent',
        APP_URL: 'http://footprint.internal:8080',
        SANDBOX_LEAK_RECORDS: '0',
      }),
      { database: db },
    );
    try {
      const at = (host: string) =>
        named.app.inject({ method: 'GET', url: '/dev/outbox.json', headers: { host } });
      expect((await at('footprint.internal:8080')).statusCode).toBe(200);
      expect((await at('localhost:8080')).statusCode).toBe(200);
      expect((await at('other.internal:8080')).statusCode).toBe(403);
    } finally {
      await named.close();
      await db.close();
    }
  });

  it('does not exist in production', async () => {
    const prodDb = await createTestDatabase();
    const prod = await startRuntime(
      loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        // Production refuses to start without it; nothing is sent in this test.
        SMTP_URL: 'smtp://127.0.0.1:2525',
        DATABASE_URL: 'postgres://unused@127.0.0.1/x',
      }),
      { database: prodDb },
    );
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/dev/outbox.json' })).statusCode).toBe(404);
      expect((await prod.app.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await prod.close();
      await prodDb.close();
    }
  });
});
