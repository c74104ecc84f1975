// The token check is cached in memory for under a second (http/session-cache.ts). A revoked token or a
// disabled account must stop working within a second whoever wrote it (another server process on the
// same database, the CLI: here, SQL straight to the database), and at once when this process wrote it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, users } from '../../src/db/schema.ts';
import { SESSION_CACHE_MS, type Session, SessionCache } from '../../src/http/session-cache.ts';
import { TOUCH_FLUSH_MS } from '../../src/modules/auth/session-check.ts';
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

describe('the refresh of the sessions in use', () => {
  const session = (tokenId: string) =>
    ({
      user: {},
      tokenId,
      lastUsedAt: null,
      expiresAt: new Date(Date.now() + 60_000),
      hasSecondFactor: true,
    }) as unknown as Session;
  const ticketAt = (cache: SessionCache) => cache.ticket();

  it('checks every session read lately in one call, drops the missing, leaves the unread', async () => {
    // Sessions read in the last 200 ms are checked again (SESSION_KEEP_WARM_MS in the product).
    const cache = new SessionCache(900, 10_000, 200);
    for (const hash of ['a', 'b', 'c']) cache.set(hash, session(hash), ticketAt(cache));
    cache.get('a');
    cache.get('b');
    const calls: string[][] = [];
    const recheck = (answer: (hashes: string[]) => Map<string, Session>) => async (hashes: string[]) => {
      calls.push([...hashes].sort());
      return answer(hashes);
    };
    await cache.refresh(recheck(() => new Map([['a', session('a2')]])));
    expect(calls).toEqual([['a', 'b']]);
    expect(cache.get('a')?.tokenId).toBe('a2');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')?.tokenId).toBe('c');
    // 'a' and 'c' were read by the checks above. 'a' stays in the next refreshes without being read
    // again: a session read about twice a second must not miss one refresh and expire.
    await cache.refresh(recheck((hashes) => new Map(hashes.map((h) => [h, session(h)]))));
    expect(calls[1]).toEqual(['a', 'c']);
    await cache.refresh(recheck((hashes) => new Map(hashes.map((h) => [h, session(h)]))));
    expect(calls[2]).toEqual(['a', 'c']);
    // Unread for longer than that: left to expire, no call at all.
    await sleep(250);
    await cache.refresh(recheck(() => new Map()));
    expect(calls).toHaveLength(3);
    expect(cache.get('a')?.tokenId).toBe('a');
  });

  it('does not bring back sessions forgotten while it ran', async () => {
    const cache = new SessionCache(900);
    cache.set('a', session('a'), ticketAt(cache));
    cache.get('a');
    await cache.refresh(async (hashes) => {
      cache.forget();
      return new Map(hashes.map((h) => [h, session(h)]));
    });
    expect(cache.get('a')).toBeUndefined();
  });

  it('stops a token revoked elsewhere within a second while it is in constant use', async () => {
    const { token } = await signedIn();
    let revokedAt = 0;
    let refusedAt = 0;
    const end = Date.now() + 3000;
    while (Date.now() < end && !refusedAt) {
      const status = await history(token);
      if (status === 401) refusedAt = Date.now();
      else expect(status).toBe(200);
      if (!revokedAt && Date.now() > end - 2000) {
        await t.db
          .update(authTokens)
          .set({ revokedAt: new Date() })
          .where(eq(authTokens.tokenHash, sha256(token)));
        revokedAt = Date.now();
      }
      await sleep(50);
    }
    expect(refusedAt).toBeGreaterThan(0);
    expect(refusedAt - revokedAt).toBeLessThan(1000);
  });

  it("writes a token's last use after the request, in the next batch", async () => {
    const { token } = await signedIn();
    const hash = sha256(token);
    const old = new Date(Date.now() - 3_600_000);
    await t.db.update(authTokens).set({ lastUsedAt: old }).where(eq(authTokens.tokenHash, hash));
    await sleep(SESSION_CACHE_MS);
    const before = Date.now();
    expect(await history(token)).toBe(200);
    await sleep(TOUCH_FLUSH_MS + 500);
    const [row] = await t.db.select().from(authTokens).where(eq(authTokens.tokenHash, hash));
    expect(row!.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});
