import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authTokens,
  creditEntries,
  otpChallenges,
  passwordResets,
  settings,
  users,
} from '../../src/db/schema.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
let token: string;
let csrfHeaders: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  const admin = await createUser(t.db, { role: 'admin', appMode: 'live', credits: 3 });
  token = (await signIn(t, admin.email, admin.password)).token;
  const res = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
  csrfHeaders = { cookie: `XSRF-TOKEN=${cookie.value}`, 'x-xsrf-token': cookie.value };
});
afterAll(() => t.close());

const endpoints: Array<{ method: 'POST' | 'PATCH'; url: string; auth?: boolean; csrf?: boolean }> = [
  { method: 'POST', url: '/api/login' },
  { method: 'POST', url: '/api/register' },
  { method: 'POST', url: '/api/verify-email-otp' },
  { method: 'POST', url: '/api/resend-otp' },
  { method: 'POST', url: '/forgot-password', csrf: true },
  { method: 'POST', url: '/api/reset-password', csrf: true },
  { method: 'PATCH', url: '/api/admin/settings', auth: true },
];

const junk: Array<{ name: string; payload: string; contentType?: string }> = [
  { name: 'truncated JSON', payload: '{"email": "a@b.c' },
  { name: 'not JSON', payload: 'hello' },
  { name: 'JSON string', payload: '"just a string"' },
  { name: 'JSON number', payload: '42' },
  { name: 'array', payload: '[1,2,3]' },
  {
    name: 'nested junk',
    payload: JSON.stringify({ email: { a: [{ b: null }] }, password: [[]], name: { $gt: '' } }),
  },
  {
    name: 'wrong types',
    payload: JSON.stringify({ email: 1, password: true, otp: 123456, token: {}, registration_enabled: 'no' }),
  },
  {
    name: 'huge strings',
    payload: JSON.stringify({
      email: `${'x'.repeat(50_000)}@b.co`,
      password: 'p'.repeat(50_000),
      name: 'n'.repeat(50_000),
    }),
  },
  {
    name: 'unicode',
    payload: JSON.stringify({ email: '𝓪@𝓫.𝓬𝓸', password: '\u0000\uffff\ud800', name: '名前\u202e' }),
  },
  { name: 'duplicate keys', payload: '{"email":"a@b.co","email":"c@d.co","password":"x","password":"y"}' },
  { name: 'prototype pollution', payload: '{"__proto__":{"role":"admin"},"email":"a@b.co"}' },
  { name: 'constructor pollution', payload: '{"constructor":{"prototype":{"role":"admin"}}}' },
  {
    name: 'form encoded',
    payload: 'email=a%40b.co&password=x',
    contentType: 'application/x-www-form-urlencoded',
  },
  { name: 'xml', payload: '<a>1</a>', contentType: 'application/xml' },
];

async function snapshot() {
  const count = async (
    table:
      | typeof users
      | typeof authTokens
      | typeof creditEntries
      | typeof otpChallenges
      | typeof passwordResets
      | typeof settings,
  ) => (await t.db.select().from(table)).length;
  const [admin] = await t.db.select().from(users).where(eq(users.role, 'admin'));
  return {
    users: await count(users),
    tokens: await count(authTokens),
    ledger: await count(creditEntries),
    otps: await count(otpChallenges),
    resets: await count(passwordResets),
    settings: await count(settings),
    adminCredits: admin?.credits,
    adminRole: admin?.role,
  };
}

describe('bad input on every endpoint', () => {
  it('answers 4xx with a JSON message and changes nothing', async () => {
    const before = await snapshot();
    let requests = 0;
    for (const endpoint of endpoints) {
      for (const body of junk) {
        const res = await t.app.inject({
          method: endpoint.method,
          url: endpoint.url,
          payload: body.payload,
          headers: {
            'content-type': body.contentType ?? 'application/json',
            ...(endpoint.auth ? { authorization: `Bearer ${token}` } : {}),
            ...(endpoint.csrf ? csrfHeaders : {}),
          },
        });
        requests += 1;
        const label = `${endpoint.method} ${endpoint.url} with ${body.name}`;
        expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, label).toBeLessThan(500);
        expect(res.headers['content-type'], label).toMatch(/application\/json/);
        expect(typeof res.json().message, label).toBe('string');
      }
    }
    expect(requests).toBe(endpoints.length * junk.length);
    // Give background work (forgot-password mail) a moment, then nothing may have changed.
    await new Promise((r) => setTimeout(r, 200));
    expect(await snapshot()).toEqual(before);
  });
});
