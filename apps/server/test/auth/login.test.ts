import { messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, trustedDevices } from '../../src/db/schema.ts';
import { createTestApp, createUser, json, newDeviceId, type TestApp } from '../support/app.ts';
import { otpCodeOf } from '../support/smtp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    limits: { loginFailuresPerAccountIp: { points: 3, durationSeconds: 900, blockSeconds: 900 } },
  });
});
afterAll(() => t.close());

describe('POST /api/login', () => {
  it('asks a new device for an e-mailed OTP, then trusts it', async () => {
    const user = await createUser(t.db, { email: 'Agent.Smith@Example.test' });
    const deviceId = newDeviceId();
    const before = t.smtp.inbox.length;

    const first = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: 'agent.smith@example.test', password: user.password }, deviceId),
    });
    expect(first.statusCode).toBe(403);
    const body = first.json();
    expect(body).toMatchObject({
      otp_required: true,
      email: 'agent.smith@example.test',
      message: messages.login.otpSent,
    });
    const expiresIn = new Date(body.otp_expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);

    const mail = await t.smtp.waitFor((m) => m.to.includes('agent.smith@example.test'), { after: before });
    expect(mail.subject).toBe('Your Footprint verification code');
    const code = otpCodeOf(mail);
    expect(code).toMatch(/^\d{6}$/);

    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/verify-email-otp',
      ...json({ email: 'agent.smith@example.test', otp: code }, deviceId),
    });
    expect(verified.statusCode).toBe(200);
    const { token, expires_at } = verified.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(expires_at).getTime()).toBeGreaterThan(Date.now());

    // Only the hash is stored.
    const stored = await t.db.select().from(authTokens).where(eq(authTokens.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tokenHash).not.toContain(token);
    expect(stored[0]?.tokenHash).toHaveLength(64);

    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'agent.smith@example.test',
      app_mode: 'trial',
      role: 'user',
      credits: 0,
    });
    expect(me.json()).not.toHaveProperty('password_hash');
    expect(me.json()).not.toHaveProperty('passwordHash');

    // The same device now signs in without a code.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: 'AGENT.SMITH@example.test', password: user.password }, deviceId),
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toHaveProperty('token');
    expect(again.json()).toHaveProperty('expires_at');

    // Another device still needs one.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: 'agent.smith@example.test', password: user.password }, newDeviceId()),
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().otp_required).toBe(true);
  });

  it('answers wrong credentials with 422 and errors, never 401, and the same for unknown accounts', async () => {
    const user = await createUser(t.db);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: 'not the password' }, newDeviceId()),
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: 'nobody-here@example.test', password: 'whatever123' }, newDeviceId()),
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: messages.login.invalidCredentials,
        errors: { email: [messages.login.invalidCredentials] },
      });
    }
  });

  it('refuses a disabled account after a correct password, with 403 and no token', async () => {
    const user = await createUser(t.db, {
      status: 'disabled',
      trustedDevice: 'aaaaaaaa-1111-2222-3333-444444444444',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: user.password }, 'aaaaaaaa-1111-2222-3333-444444444444'),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: messages.login.accountDisabled, account_status: 'disabled' });
    expect(await t.db.select().from(authTokens).where(eq(authTokens.userId, user.id))).toHaveLength(0);
  });

  it('locks an account at the address that failed repeatedly, even for the right password, with 429', async () => {
    const user = await createUser(t.db, { trustedDevice: 'bbbbbbbb-1111-2222-3333-444444444444' });
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        ...json({ email: user.email, password: `guess-${i}-wrong` }),
      });
      expect(res.statusCode).toBe(422);
    }
    const locked = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: user.password }, 'bbbbbbbb-1111-2222-3333-444444444444'),
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('rejects malformed input with 4xx JSON and spec-shaped errors, changing nothing', async () => {
    const tokensBefore = (await t.db.select().from(authTokens)).length;
    const devicesBefore = (await t.db.select().from(trustedDevices)).length;
    const cases: Array<{ payload: string; contentType?: string; status: number; field?: string }> = [
      { payload: '{"email":', status: 400 },
      { payload: '', status: 422, field: 'email' },
      { payload: 'email=a@b.co&password=x', contentType: 'application/x-www-form-urlencoded', status: 415 },
      { payload: '{}', status: 422, field: 'email' },
      { payload: '[]', status: 422, field: 'body' },
      { payload: 'null', status: 422, field: 'email' },
      { payload: '{"email":"not-an-email","password":"x"}', status: 422, field: 'email' },
      { payload: '{"email":"a b@c.de","password":"x"}', status: 422, field: 'email' },
      { payload: '{"email":{"$ne":null},"password":"x"}', status: 422, field: 'email' },
      { payload: `{"email":"${'a'.repeat(200)}@b.co","password":"x"}`, status: 422, field: 'email' },
      { payload: `{"email":"a@b.co","password":"${'x'.repeat(10_000)}"}`, status: 422, field: 'password' },
      { payload: '{"email":"a@b.co","password":"x","role":"admin"}', status: 422, field: 'role' },
      { payload: '{"email":"a@b.co","password":"x","__proto__":{"admin":true}}', status: 400 },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: c.payload,
        headers: { 'content-type': c.contentType ?? 'application/json' },
      });
      expect(res.statusCode, c.payload.slice(0, 60)).toBe(c.status);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const body = res.json();
      expect(typeof body.message).toBe('string');
      if (c.field) expect(body.errors?.[c.field]?.[0], c.payload.slice(0, 60)).toEqual(expect.any(String));
    }
    expect(await t.db.select().from(authTokens)).toHaveLength(tokensBefore);
    expect(await t.db.select().from(trustedDevices)).toHaveLength(devicesBefore);
  });

  it('gives the required-field messages the forms show', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: '', password: '' }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      email: ['The email field is required.'],
      password: ['The password field is required.'],
    });
  });
});
