// The per-IP limits on the sign-in endpoints (security/rate-limit.ts): each stops one address after its
// points are spent, with a 429 JSON answer and Retry-After, changes nothing, and leaves other
// addresses alone. The limits are set to 2 here; the defaults are in `defaultLimits`.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { defaultLimits, type LimitName } from '../../src/security/rate-limit.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

const POINTS = 2;
const perIp = [
  'loginFailuresPerIp',
  'otpFailuresPerIp',
  'resendPerIp',
  'registerPerIp',
  'forgotPerIp',
  'resetFailuresPerIp',
] as const satisfies readonly LimitName[];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { RATE_LIMIT_ENABLED: 'true' },
    limits: Object.fromEntries(
      perIp.map((name) => [name, { ...defaultLimits[name], points: POINTS }]),
    ) as Partial<Record<LimitName, (typeof defaultLimits)[LimitName]>>,
  });
});
afterAll(() => t.close());

let n = 0;
const unique = () => `ip-limits-${process.pid}-${++n}@example.test`;

/** The CSRF cookie and header the forgot and reset calls need (spec §7). */
async function csrf() {
  const res = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
  return { cookie: `XSRF-TOKEN=${cookie.value}`, 'x-xsrf-token': encodeURIComponent(cookie.value) };
}

interface Endpoint {
  url: string;
  /** A fresh body for each call, so per-account limits never come into play. */
  body: () => Record<string, string>;
  csrf?: boolean;
  /** What the call answers while the address still has points. */
  allowed: number;
}

const endpoints: Record<(typeof perIp)[number], Endpoint> = {
  loginFailuresPerIp: {
    url: '/api/login',
    body: () => ({ email: unique(), password: 'not the password' }),
    allowed: 422,
  },
  otpFailuresPerIp: {
    url: '/api/verify-email-otp',
    body: () => ({ email: unique(), otp: '123456' }),
    allowed: 422,
  },
  resendPerIp: { url: '/api/resend-otp', body: () => ({ email: unique() }), allowed: 200 },
  registerPerIp: {
    url: '/api/register',
    body: () => ({
      name: 'Priya Raman',
      email: unique(),
      password: 'long enough password',
      password_confirmation: 'long enough password',
      organisation: 'Synthetic Bureau',
      designation: 'Analyst',
    }),
    allowed: 201,
  },
  forgotPerIp: { url: '/forgot-password', body: () => ({ email: unique() }), csrf: true, allowed: 200 },
  resetFailuresPerIp: {
    url: '/api/reset-password',
    body: () => ({
      email: unique(),
      token: 'not-a-real-token',
      password: 'brand new secret',
      password_confirmation: 'brand new secret',
    }),
    csrf: true,
    allowed: 422,
  },
};

async function call(endpoint: Endpoint, ip: string, body = endpoint.body()) {
  return t.app.inject({
    method: 'POST',
    url: endpoint.url,
    remoteAddress: ip,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(endpoint.csrf ? await csrf() : {}) },
  });
}

describe('per-IP limits on the sign-in endpoints', () => {
  it.each(perIp)(
    '%s: stops one address after its points with 429 and Retry-After; others go on',
    async (name) => {
      const endpoint = endpoints[name];
      const index = perIp.indexOf(name);
      const spent = `198.51.100.${index + 1}`;
      const other = `203.0.113.${index + 1}`;

      for (let i = 0; i < POINTS; i++) {
        const res = await call(endpoint, spent);
        expect(res.statusCode, res.body).toBe(endpoint.allowed);
      }
      const body = endpoint.body();
      const refused = await call(endpoint, spent, body);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.json().message).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // A refused registration creates nobody.
      if (name === 'registerPerIp') {
        expect(await t.db.select().from(users).where(eq(users.email, body.email!))).toHaveLength(0);
      }

      const elsewhere = await call(endpoint, other);
      expect(elsewhere.statusCode, elsewhere.body).toBe(endpoint.allowed);
    },
  );
});
