// The token check is cached in memory for under a second (http/session-cache.ts). A revoked token or a
// disabled account must stop working within a second whoever wrote it (another server process on the
// same database, the CLI: here, SQL straight to the database), and at once when this process wrote it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, users } from '../../src/db/schema.ts';
import { SESSION_CACHE_MS } from '../../src/http/session-cache.ts';
import { sha256 } from '../../src/security/crypto.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { trustedDevice: deviceId, ...options });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  return { user, token, deviceId };
}

/** A route behind the token check that reads its session from the cache (not a `freshSession` one). */
const history = async (token: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/api/history',
      headers: { authorization: `Bearer ${token}` },
    })
  ).statusCode;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the session cache', () => {
  it('is kept under a second', () => {
    expect(SESSION_CACHE_MS).toBeGreaterThan(0);
    expect(SESSION_CACHE_MS).toBeLessThan(1000);
  });

  it('lets a token revoked elsewhere through for at most a second', async () => {
    const { token } = await signedIn();
    // Checked, and so cached, just before the revocation.
    expect(await history(token)).toBe(200);
    expect(await history(token)).toBe(200);
    await t.db
      .update(authTokens)
      .set({ revokedAt: new Date() })
      .where(eq(authTokens.tokenHash, sha256(token)));
    await sleep(1000);
    expect(await history(token)).toBe(401);
  });

  it('lets an account disabled elsewhere through for at most a second', async () => {
    const { user, token } = await signedIn();
    expect(await history(token)).toBe(200);
    expect(await history(token)).toBe(200);
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    await sleep(1000);
    expect(await history(token)).toBe(401);
  });

  it('lets a token expired meanwhile through for at most a second', async () => {
    const { token } = await signedIn();
    expect(await history(token)).toBe(200);
    await t.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.tokenHash, sha256(token)));
    await sleep(1000);
    expect(await history(token)).toBe(401);
  });

  it('ends a session signed out on this process at once', async () => {
    const { token, deviceId } = await signedIn();
    expect(await history(token)).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', ...json({}, deviceId, token) });
    expect(out.statusCode).toBe(200);
    expect(await history(token)).toBe(401);
  });

  it('ends every session at once on sign-out everywhere', async () => {
    const { user, token, deviceId } = await signedIn();
    const { token: other } = await signIn(t, user.email, user.password, deviceId);
    expect(await history(token)).toBe(200);
    expect(await history(other)).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/security/sign-out-everywhere',
      ...json({}, deviceId, token),
    });
    expect(out.statusCode).toBe(200);
    expect(await history(token)).toBe(401);
    expect(await history(other)).toBe(401);
  });

  it("ends an account's sessions at once when an admin disables it", async () => {
    const admin = await signedIn({ role: 'admin', appMode: 'live' });
    const { user, token } = await signedIn();
    expect(await history(token)).toBe(200);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${user.id}`,
      ...json({ status: 'disabled' }, admin.deviceId, admin.token),
    });
    expect(res.statusCode).toBe(200);
    expect(await history(token)).toBe(401);
  });
});
