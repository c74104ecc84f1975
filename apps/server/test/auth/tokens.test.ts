import { messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens } from '../../src/db/schema.ts';
import { sha256 } from '../../src/security/crypto.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TOKEN_TTL_MINUTES: '30' } });
});
afterAll(() => t.close());

const me = (token?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/api/user',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('bearer tokens', () => {
  it('expire after the configured time', async () => {
    const user = await createUser(t.db);
    const before = Date.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: user.password }),
    });
    expect(res.statusCode).toBe(403);
    const { token } = await signIn(t, user.email, user.password);
    const [row] = await t.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, sha256(token)));
    const ttl = row!.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThan(31 * 60_000);

    expect((await me(token)).statusCode).toBe(200);
    await t.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.id, row!.id));
    const expired = await me(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: messages.errors.unauthenticated });
  });

  it('are revoked by logout, which itself never answers 401', async () => {
    const user = await createUser(t.db);
    const { token } = await signIn(t, user.email, user.password);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: messages.logout.done });
    expect((await me(token)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout' })).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/logout',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('stop working when the account is disabled', async () => {
    const user = await createUser(t.db);
    const { token } = await signIn(t, user.email, user.password);
    const { users } = await import('../../src/db/schema.ts');
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuse missing, malformed and made-up tokens with a JSON 401', async () => {
    for (const header of [
      undefined,
      'Bearer',
      'Bearer short',
      `Bearer ${'a'.repeat(43)}`,
      'Basic dXNlcjpwYXNz',
      `Bearer ${'é'.repeat(50)}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/user',
        headers: header ? { authorization: header } : {},
      });
      expect(res.statusCode, String(header)).toBe(401);
      expect(res.json()).toEqual({ message: messages.errors.unauthenticated });
    }
  });
});

describe('bodiless JSON requests', () => {
  it('accepts a POST with a JSON content type and no body, as the spec browser sends logout', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
  });
});
