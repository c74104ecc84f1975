// Sign-in limits survive a restart of the application: in the database (table rate_limits) when no
// Redis is configured, in Redis when REDIS_URL is set.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../src/db/schema.ts';
import { createTestApp, createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const limits = { loginFailuresPerAccountIp: { points: 3, durationSeconds: 900, blockSeconds: 900 } };

const database = await createTestDatabase();
afterAll(() => database.close());

/** Three failures from one address, a restart, then the right password from that address and another. */
async function failThenRestart(env: Record<string, string>) {
  const attacker = `192.0.2.${Math.floor(Math.random() * 200) + 1}`;
  const first = await createTestApp({ database, env: { RATE_LIMIT_ENABLED: 'true', ...env }, limits });
  const victim = await createUser(first.db, { email: `restart-${randomUUID()}@example.test` });
  const login = (app: typeof first, from: string, password: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: from,
      payload: JSON.stringify({ email: victim.email, password }),
      headers: { 'content-type': 'application/json' },
    });
  for (let i = 0; i < 3; i++) expect((await login(first, attacker, `wrong guess ${i}`)).statusCode).toBe(422);
  expect((await login(first, attacker, victim.password)).statusCode).toBe(429);
  await first.close();

  const second = await createTestApp({ database, env: { RATE_LIMIT_ENABLED: 'true', ...env }, limits });
  try {
    const after = await login(second, attacker, victim.password);
    expect(after.statusCode, after.body).toBe(429);
    expect(Number(after.headers['retry-after'])).toBeGreaterThan(800);
    // Elsewhere the owner still gets in.
    expect((await login(second, '203.0.113.77', victim.password)).statusCode).toBe(403);
  } finally {
    await second.close();
  }
  return victim.email;
}

describe('sign-in limits across a restart', () => {
  it('are kept in the database without Redis', async () => {
    const email = await failThenRestart({});
    const rows = await database.db.select().from(rateLimits);
    expect(
      rows.some((row) => row.key.startsWith('fp:loginFailuresPerAccountIp:') && row.key.includes(email)),
    ).toBe(true);
  });

  it('are kept in Redis when REDIS_URL is set', async () => {
    const before = await database.db.select().from(rateLimits);
    const email = await failThenRestart({ REDIS_URL });
    // Nothing of this run went to the database.
    const after = await database.db.select().from(rateLimits);
    expect(after.filter((row) => row.key.includes(email))).toEqual([]);
    expect(after.length).toBe(before.length);
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`fp:loginFailures*${email}*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });
});
