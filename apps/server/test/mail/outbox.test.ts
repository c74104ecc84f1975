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
