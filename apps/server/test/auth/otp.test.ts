import { messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedDevices } from '../../src/db/schema.ts';
import { createTestApp, createUser, json, newDeviceId, type TestApp } from '../support/app.ts';
import { otpCodeOf } from '../support/smtp.ts';

let t: TestApp;
let clock = Date.now();
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

async function startLogin(email: string, password: string, deviceId: string) {
  const before = t.smtp.inbox.length;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    ...json({ email, password }, deviceId),
  });
  expect(res.statusCode).toBe(403);
  const mail = await t.smtp.waitFor((m) => m.to.includes(email), { after: before });
  return otpCodeOf(mail);
}

const verify = (email: string, otp: string, deviceId: string) =>
  t.app.inject({ method: 'POST', url: '/api/verify-email-otp', ...json({ email, otp }, deviceId) });

const wrongCode = (code: string) => (code === '000000' ? '000001' : '000000');

describe('OTP verification', () => {
  it('allows at most five wrong tries per code, after which even the right code fails', async () => {
    const user = await createUser(t.db);
    const device = newDeviceId();
    const code = await startLogin(user.email, user.password, device);
    for (let i = 0; i < 4; i++) {
      const res = await verify(user.email, wrongCode(code), device);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.otp).toEqual([messages.otp.wrong]);
    }
    const fifth = await verify(user.email, wrongCode(code), device);
    expect(fifth.json().errors.otp).toEqual([messages.otp.tooManyAttempts]);
    const right = await verify(user.email, code, device);
    expect(right.statusCode).toBe(422);
    expect(right.json().errors.otp).toEqual([messages.otp.tooManyAttempts]);
    expect(await t.db.select().from(trustedDevices).where(eq(trustedDevices.userId, user.id))).toHaveLength(
      0,
    );
  });

  it('expires a code after ten minutes', async () => {
    const user = await createUser(t.db);
    const device = newDeviceId();
    const code = await startLogin(user.email, user.password, device);
    clock += 10 * 60_000 + 1_000;
    const res = await verify(user.email, code, device);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.otp).toEqual([messages.otp.expired]);
  });

  it('works once: a used code cannot sign in again', async () => {
    const user = await createUser(t.db);
    const device = newDeviceId();
    const code = await startLogin(user.email, user.password, device);
    expect((await verify(user.email, code, device)).statusCode).toBe(200);
    expect((await verify(user.email, code, device)).statusCode).toBe(422);
  });

  it('rejects codes that are not six digits without spending a try', async () => {
    for (const otp of ['12345', '1234567', 'abcdef', '12 456', 123456]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/verify-email-otp',
        ...json({ email: 'x@example.test', otp }),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.otp[0]).toEqual(expect.any(String));
    }
  });

  it('answers a code for an account that does not exist like a wrong code', async () => {
    const res = await verify('ghost@example.test', '123456', newDeviceId());
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.otp).toEqual([messages.otp.wrong]);
  });
});

describe('POST /api/resend-otp', () => {
  it('enforces a cooldown, then sends a new code and retires the old one', async () => {
    const user = await createUser(t.db);
    const device = newDeviceId();
    const oldCode = await startLogin(user.email, user.password, device);

    const early = await t.app.inject({
      method: 'POST',
      url: '/api/resend-otp',
      ...json({ email: user.email }, device),
    });
    expect(early.statusCode).toBe(429);
    expect(early.json().message).toMatch(/^Please wait \d+ seconds before requesting a new OTP\.$/);

    clock += 61_000;
    const before = t.smtp.inbox.length;
    const resent = await t.app.inject({
      method: 'POST',
      url: '/api/resend-otp',
      ...json({ email: user.email }, device),
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ message: messages.otp.resent, otp_expires_at: expect.any(String) });
    const newCode = otpCodeOf(await t.smtp.waitFor((m) => m.to.includes(user.email), { after: before }));

    if (newCode !== oldCode) expect((await verify(user.email, oldCode, device)).statusCode).toBe(422);
    const ok = await verify(user.email, newCode, device);
    expect(ok.statusCode).toBe(200);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = t.smtp.inbox.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/resend-otp',
      ...json({ email: 'nobody@example.test' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: messages.otp.resent, otp_expires_at: expect.any(String) });
    await new Promise((r) => setTimeout(r, 200));
    expect(t.smtp.inbox.length).toBe(before);
  });
});
