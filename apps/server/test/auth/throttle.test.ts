// Throttling that an outsider cannot turn against a user (security/rate-limit.ts). The outsider knows
// only the victim's e-mail address and sends from its own address; the victim signs in from another.
// Limits are the defaults unless a test says otherwise; the slowdown is shortened so the files stay
// fast (its own figures are checked at the end).
import { messages } from '@footprint/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpChallenges } from '../../src/db/schema.ts';
import { defaultSlowdown, slowdownMs } from '../../src/security/rate-limit.ts';
import {
  cookiesOf,
  createTestApp,
  createUser,
  keepCookies,
  newDeviceId,
  type TestApp,
} from '../support/app.ts';
import { otpCodeOf, resetTokenOf } from '../support/smtp.ts';

const SLOWDOWN = { afterFailures: 5, baseMs: 20, maxMs: 80 };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true' }, slowdown: SLOWDOWN });
});
afterAll(() => t.close());

let n = 0;
const ip = () => `198.18.${Math.floor(++n / 250)}.${(n % 250) + 1}`;

/** A browser's POST from an address: its device id, and the trusted-device cookies it holds and keeps. */
async function post(
  url: string,
  body: unknown,
  from: string,
  deviceId?: string,
  headers: Record<string, string> = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: from,
    payload: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      ...(deviceId ? { 'x-device-id': deviceId } : {}),
      ...cookiesOf(deviceId),
      ...headers,
    },
  });
  if (deviceId) keepCookies(deviceId, res);
  return res;
}

async function csrf() {
  const res = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
  return { cookie: `XSRF-TOKEN=${cookie.value}`, 'x-xsrf-token': encodeURIComponent(cookie.value) };
}

describe('login: an outsider cannot lock the owner out', () => {
  it("refuses the outsider's address after 10 failures, while the owner's right password from another address gets in", async () => {
    const victim = await createUser(t.db);
    const outsider = ip();
    for (let i = 0; i < 10; i++) {
      const res = await post('/api/login', { email: victim.email, password: `guess number ${i}` }, outsider);
      expect(res.statusCode, res.body).toBe(422);
    }
    const blocked = await post('/api/login', { email: victim.email, password: victim.password }, outsider);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);

    // The owner, from home, with a new device: not refused, at most slowed down, and asked for the code.
    const started = performance.now();
    const owner = await post(
      '/api/login',
      { email: victim.email, password: victim.password },
      ip(),
      newDeviceId(),
    );
    expect(owner.statusCode, owner.body).toBe(403);
    expect(owner.json().otp_required).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('never limits an office address whose officers sign in successfully, however many', async () => {
    const office = ip();
    const officers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const device = newDeviceId();
        return { ...(await createUser(t.db, { trustedDevice: device })), device };
      }),
    );
    // 60 sign-ins from one address (twice the old per-IP limit of 30), a few typos among them.
    for (let round = 0; round < 10; round++) {
      for (const officer of officers) {
        const res = await post(
          '/api/login',
          { email: officer.email, password: officer.password },
          office,
          officer.device,
        );
        expect(res.statusCode, res.body).toBe(200);
      }
      if (round % 3 === 0) {
        const typo = await post(
          '/api/login',
          { email: officers[0]!.email, password: 'fat fingered pass' },
          office,
        );
        expect(typo.statusCode).toBe(422);
      }
    }
  });

  it("lets a trusted device in through an office address a noisy neighbour locked; everyone else gets the lock's 429", async () => {
    const office = ip();
    const device = newDeviceId();
    const trusted = await createUser(t.db, { trustedDevice: device });
    const untrusted = await createUser(t.db);
    // The neighbour guesses at other accounts, real and not, until the address is locked (50 failures).
    const other = await createUser(t.db);
    for (let i = 0; i < 50; i++) {
      const email = i % 5 === 0 ? other.email : `nobody${i}-${n}@example.test`;
      const res = await post('/api/login', { email, password: `guess number ${i}` }, office);
      expect(res.statusCode, res.body).toBe(422);
    }
    const locked = await post('/api/login', { email: other.email, password: other.password }, office);
    expect(locked.statusCode).toBe(429);

    // The browser that proved a code for this account before: its right password gets in.
    const inside = await post(
      '/api/login',
      { email: trusted.email, password: trusted.password },
      office,
      device,
    );
    expect(inside.statusCode, inside.body).toBe(200);
    expect(typeof inside.json().token).toBe('string');

    // Without that proof, the same 429 whoever asks, whether the account exists or not: the untrusted
    // colleague, an unknown address, and the trusted browser signing in to an account it is not trusted for.
    const refusals = [
      await post(
        '/api/login',
        { email: untrusted.email, password: untrusted.password },
        office,
        newDeviceId(),
      ),
      await post(
        '/api/login',
        { email: `nobody-${n}@example.test`, password: 'whatever it is' },
        office,
        newDeviceId(),
      ),
      await post('/api/login', { email: untrusted.email, password: untrusted.password }, office, device),
      // The right secret's device id, but no cookie: not proven.
      await t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: office,
        payload: { email: trusted.email, password: trusted.password },
        headers: { 'x-device-id': device },
      }),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json().message).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
    }
    expect(new Set(refusals.map((r) => Object.keys(r.json()).sort().join()))).toHaveProperty('size', 1);
  });

  it('slows an account down across addresses but never refuses it, and a trusted device never waits', async () => {
    const slow = await createTestApp({
      env: { RATE_LIMIT_ENABLED: 'true' },
      slowdown: { afterFailures: 2, baseMs: 600, maxMs: 600 },
    });
    try {
      const device = newDeviceId();
      const victim = await createUser(slow.db, { trustedDevice: device });
      const from = (address: string, password: string, deviceId?: string) =>
        slow.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: address,
          payload: JSON.stringify({ email: victim.email, password }),
          headers: {
            'content-type': 'application/json',
            ...(deviceId ? { 'x-device-id': deviceId } : {}),
            ...cookiesOf(deviceId),
          },
        });
      // A distributed guess: every failure from a new address.
      for (let i = 0; i < 4; i++) expect((await from(ip(), `distributed ${i}`)).statusCode).toBe(422);

      let started = performance.now();
      const fresh = await from(ip(), victim.password, newDeviceId());
      expect(fresh.statusCode).toBe(403);
      expect(performance.now() - started).toBeGreaterThanOrEqual(590);

      started = performance.now();
      const trusted = await from(ip(), victim.password, device);
      expect(trusted.statusCode).toBe(200);
      expect(performance.now() - started).toBeLessThan(590);
    } finally {
      await slow.close();
    }
  });

  it('grows the slowdown from 250 ms to at most 4 s', () => {
    expect(defaultSlowdown).toEqual({ afterFailures: 5, baseMs: 250, maxMs: 4000 });
    expect([5, 6, 7, 8, 9, 10, 11, 50].map((f) => slowdownMs(f))).toEqual([
      0, 250, 500, 1000, 2000, 4000, 4000, 4000,
    ]);
  });
});

describe('OTP: a code without an open challenge counts for nothing', () => {
  it('refuses wrong codes for an account with no open challenge without counting them against it', async () => {
    const victim = await createUser(t.db);
    const outsider = ip();
    // 20 wrong codes: more than the old per-account block of 15.
    for (let i = 0; i < 20; i++) {
      const res = await post('/api/verify-email-otp', { email: victim.email, otp: '000000' }, outsider);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.otp).toEqual([messages.otp.wrong]);
    }
    const device = newDeviceId();
    const before = t.smtp.inbox.length;
    const home = ip();
    expect(
      (await post('/api/login', { email: victim.email, password: victim.password }, home, device)).statusCode,
    ).toBe(403);
    const code = otpCodeOf(await t.smtp.waitFor((m) => m.to.includes(victim.email), { after: before }));
    const ok = await post('/api/verify-email-otp', { email: victim.email, otp: code }, home, device);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("cannot spend the tries of the owner's open challenge, nor retire its code with a resend", async () => {
    const victim = await createUser(t.db);
    const device = newDeviceId();
    const home = ip();
    const before = t.smtp.inbox.length;
    expect(
      (await post('/api/login', { email: victim.email, password: victim.password }, home, device)).statusCode,
    ).toBe(403);
    const code = otpCodeOf(await t.smtp.waitFor((m) => m.to.includes(victim.email), { after: before }));
    const wrong = code === '000000' ? '111111' : '000000';

    const outsider = ip();
    for (let i = 0; i < 6; i++) {
      const res = await post(
        '/api/verify-email-otp',
        { email: victim.email, otp: wrong },
        outsider,
        newDeviceId(),
      );
      expect(res.json().errors.otp).toEqual([messages.otp.wrong]);
    }
    const resent = await post('/api/resend-otp', { email: victim.email }, outsider, newDeviceId());
    expect(resent.statusCode).toBe(200);
    expect(resent.json().message).toBe(messages.otp.resent);
    const [open] = await t.db
      .select()
      .from(otpChallenges)
      .where(and(eq(otpChallenges.userId, victim.id), isNull(otpChallenges.consumedAt)));
    expect(open?.attempts).toBe(0);

    const ok = await post('/api/verify-email-otp', { email: victim.email, otp: code }, home, device);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('forgot password: an outsider cannot stop the owner resetting', () => {
  it("answers the owner from another address after the outsider's requests are refused, and a mailed link works", async () => {
    const victim = await createUser(t.db);
    const outsider = ip();
    const before = t.smtp.inbox.length;
    for (let i = 0; i < 3; i++) {
      expect(
        (await post('/forgot-password', { email: victim.email }, outsider, undefined, await csrf()))
          .statusCode,
      ).toBe(200);
    }
    const refused = await post(
      '/forgot-password',
      { email: victim.email },
      outsider,
      undefined,
      await csrf(),
    );
    expect(refused.statusCode).toBe(429);

    const owner = await post('/forgot-password', { email: victim.email }, ip(), undefined, await csrf());
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toEqual({ status: messages.forgot.status });
    // The inbox holds links (at most three per quarter hour, however many were asked for).
    await t.smtp.waitFor((m) => m.to.includes(victim.email), { after: before });
    await new Promise((r) => setTimeout(r, 300));
    const links = t.smtp.inbox.slice(before).filter((m) => m.to.includes(victim.email));
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(3);
    const { token } = resetTokenOf(links.at(-1)!);
    const reset = await post(
      '/api/reset-password',
      {
        email: victim.email,
        token,
        password: 'a brand new passphrase',
        password_confirmation: 'a brand new passphrase',
      },
      ip(),
      undefined,
      await csrf(),
    );
    expect(reset.statusCode, reset.body).toBe(200);
  });
});
