import { messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedDevices } from '../../src/db/schema.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { resetTokenOf } from '../support/smtp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** What the spec's browser does: the CSRF cookie call first, then the cookie echoed in a header. */
async function csrf() {
  const res = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  expect(res.statusCode).toBe(204);
  const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
  expect(cookie?.httpOnly).toBeFalsy();
  expect(cookie?.sameSite?.toLowerCase()).toBe('lax');
  return { cookie: `XSRF-TOKEN=${cookie!.value}`, 'x-xsrf-token': encodeURIComponent(cookie!.value) };
}

async function post(url: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(await csrf()) },
  });
}

describe('forgot and reset password', () => {
  it('refuses both calls without the CSRF cookie and header', async () => {
    for (const url of ['/forgot-password', '/api/reset-password']) {
      const res = await t.app.inject({ method: 'POST', url, ...json({ email: 'a@b.co' }) });
      expect(res.statusCode).toBe(419);
      expect(res.json()).toEqual({ message: messages.errors.csrfMismatch });
    }
  });

  it('resets with the mailed link once, signs out every session, and lets the new password in', async () => {
    const user = await createUser(t.db);
    const { token: oldSession } = await signIn(t, user.email, user.password);
    const before = t.smtp.inbox.length;

    const forgot = await post('/forgot-password', { email: user.email.toUpperCase() });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json()).toEqual({ status: messages.forgot.status });
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email), { after: before });
    expect(mail.subject).toBe('Reset your Footprint password');
    const link = resetTokenOf(mail);
    expect(link.email).toBe(user.email);
    expect(mail.text).toContain('http://footprint.test/password-reset/');

    const body = {
      email: user.email,
      token: link.token,
      password: 'brand new secret',
      password_confirmation: 'brand new secret',
    };
    const reset = await post('/api/reset-password', body);
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ status: messages.reset.status });

    const reused = await post('/api/reset-password', {
      ...body,
      password: 'third secret!',
      password_confirmation: 'third secret!',
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors).toEqual({ email: [messages.reset.invalidToken] });

    const old = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${oldSession}` },
    });
    expect(old.statusCode).toBe(401);

    const oldPassword = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: user.password }),
    });
    expect(oldPassword.statusCode).toBe(422);
    const { token } = await signIn(t, user.email, 'brand new secret');
    expect(token).toBeTruthy();
  });

  it('forgets every trusted device: a browser trusted before the reset is asked for a mailed code again', async () => {
    const deviceId = newDeviceId();
    const user = await createUser(t.db, { trustedDevice: deviceId });
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/login', ...json({ email: user.email, password }, deviceId) });
    // Before: the device with its secret signs in at once.
    expect((await login(user.password)).statusCode).toBe(200);

    const before = t.smtp.inbox.length;
    await post('/forgot-password', { email: user.email });
    const link = resetTokenOf(await t.smtp.waitFor((m) => m.to.includes(user.email), { after: before }));
    const reset = await post('/api/reset-password', {
      email: user.email,
      token: link.token,
      password: 'brand new secret',
      password_confirmation: 'brand new secret',
    });
    expect(reset.statusCode).toBe(200);
    expect(await t.db.select().from(trustedDevices).where(eq(trustedDevices.userId, user.id))).toEqual([]);

    // After: the same browser, still sending its old cookie, must prove a mailed code.
    const after = await login('brand new secret');
    expect(after.statusCode).toBe(403);
    expect(after.json().otp_required).toBe(true);
  });

  it('answers an unknown address exactly like a known one and sends nothing', async () => {
    const before = t.smtp.inbox.length;
    const res = await post('/forgot-password', { email: 'no-such-person@example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: messages.forgot.status });
    await new Promise((r) => setTimeout(r, 300));
    expect(t.smtp.inbox.length).toBe(before);
  });

  it('rejects a made-up token, a token for another account and mismatched passwords', async () => {
    const a = await createUser(t.db);
    const b = await createUser(t.db);
    const before = t.smtp.inbox.length;
    await post('/forgot-password', { email: a.email });
    const { token } = resetTokenOf(await t.smtp.waitFor((m) => m.to.includes(a.email), { after: before }));

    const forged = await post('/api/reset-password', {
      email: a.email,
      token: 'x'.repeat(43),
      password: 'new secret 1',
      password_confirmation: 'new secret 1',
    });
    expect(forged.json().errors).toEqual({ email: [messages.reset.invalidToken] });
    const crossed = await post('/api/reset-password', {
      email: b.email,
      token,
      password: 'new secret 1',
      password_confirmation: 'new secret 1',
    });
    expect(crossed.json().errors).toEqual({ email: [messages.reset.invalidToken] });
    const mismatch = await post('/api/reset-password', {
      email: a.email,
      token,
      password: 'new secret 1',
      password_confirmation: 'new secret 2',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.password).toEqual(['The password field confirmation does not match.']);
    // The real token still works after those failures.
    const ok = await post('/api/reset-password', {
      email: a.email,
      token,
      password: 'new secret 1',
      password_confirmation: 'new secret 1',
    });
    expect(ok.statusCode).toBe(200);
  });

  it('shows the field errors the forms read', async () => {
    const forgot = await post('/forgot-password', { email: '' });
    expect(forgot.statusCode).toBe(422);
    expect(forgot.json().errors).toEqual({ email: ['The email field is required.'] });
    const reset = await post('/api/reset-password', {
      email: 'a@b.co',
      token: 't',
      password: '',
      password_confirmation: '',
    });
    expect(reset.json().errors).toEqual({
      password: ['The password field is required.'],
      password_confirmation: ['The password confirmation field is required.'],
    });
  });
});
