import { PROVIDER_KINDS } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { creditEntries, lookups, users } from '../../src/db/schema.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

/** Every paid endpoint that reaches providers, with a valid request of its kind. */
const paidRequests = [
  { method: 'GET', url: '/api/tel?number=919876543210' },
  { method: 'GET', url: '/api/email?email=someone%40example.test' },
  { method: 'POST', url: '/api/rcfull-details', payload: { id_number: 'MH12AB1234' } },
  { method: 'POST', url: '/api/upifull-details', payload: { upi_id: 'someone@okbank' } },
  { method: 'POST', url: '/api/rc-challan-details', payload: { rc_number: 'MH12AB1234' } },
  {
    method: 'POST',
    url: '/api/corporate-intelligence',
    payload: { type: 'corporate_cin', data: { id_number: 'U72200MH2009PTC123456' } },
  },
  { method: 'POST', url: '/api/verification-id', payload: { type: 'pan', data: { pan: 'BQZPD4821K' } } },
] as const;

describe('SANDBOX setting', () => {
  it('is off by default in production and on elsewhere; the operator may choose either', () => {
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        ALLOW_EMBEDDED_DATABASE: 'true',
      }).providers.sandbox,
    ).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).providers.sandbox).toBe(true);
    expect(loadConfig({}).providers.sandbox).toBe(true);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SANDBOX: 'true',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        ALLOW_EMBEDDED_DATABASE: 'true',
      }).providers.sandbox,
    ).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', SANDBOX: 'false' }).providers.sandbox).toBe(false);
    expect(() => loadConfig({ SANDBOX: 'maybe' })).toThrow(/SANDBOX/);
  });
});

describe('a production deployment with the sandbox off and no vendor configured', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', RATE_LIMIT_ENABLED: 'false' } });
    const user = await createUser(t.db, { credits: 50, appMode: 'live' });
    const { token } = await signIn(t, user.email, user.password);
    auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    userId = user.id;
  });
  afterAll(() => t.close());

  it('answers every paid search 503 with a clear message, and charges and stores nothing', async () => {
    for (const request of paidRequests) {
      const res = await t.app.inject({
        method: request.method,
        url: request.url,
        headers: auth,
        ...('payload' in request ? { payload: JSON.stringify(request.payload) } : {}),
      });
      expect(res.statusCode, request.url).toBe(503);
      expect(res.json().message).toMatch(/not available in this deployment.*No credits were charged/);
    }
    const [user] = await t.db.select().from(users).where(eq(users.id, userId));
    expect(user?.credits).toBe(50);
    expect(await t.db.select().from(lookups).where(eq(lookups.userId, userId))).toEqual([]);
    expect(await t.db.select().from(creditEntries).where(eq(creditEntries.userId, userId))).toHaveLength(1);
  });

  it('lists every kind as unavailable and every source as not configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sources', headers: auth });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sandbox).toBe(false);
    expect(Object.keys(body.kinds).sort()).toEqual([...PROVIDER_KINDS].sort());
    for (const kind of PROVIDER_KINDS) {
      expect(body.kinds[kind].available, kind).toBe(false);
      expect(new Set(Object.values(body.kinds[kind].sources))).toEqual(new Set(['not_configured']));
    }
  });
});

describe('the sandbox off with one vendor configured', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  beforeAll(async () => {
    upstream = await startFakeUpstream((_req, res) =>
      sendJson(res, 200, [{ Name: 'Orbitly', Title: 'Orbitly', BreachDate: '2021-03-04', DataClasses: [] }]),
    );
    t = await createTestApp({
      env: {
        SANDBOX: 'false',
        RATE_LIMIT_ENABLED: 'false',
        HIBP_API_KEY: 'test-key',
        HIBP_BASE_URL: `${upstream.url}/api/v3`,
      },
    });
    const user = await createUser(t.db, { credits: 10, appMode: 'live' });
    const { token } = await signIn(t, user.email, user.password);
    auth = { authorization: `Bearer ${token}` };
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('answers with the live source only; the others are not configured and contribute nothing', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/email?email=someone%40example.test',
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sandbox).toBe(false);
    expect(Object.keys(body.data).sort()).toEqual(['errors', 'hibpData']);
    expect(body.data.errors).toEqual({});
    expect(body.source_status.hibpData).toEqual({ status: 'ok', mode: 'live', vendor: 'Have I Been Pwned' });
    const others = Object.entries(body.source_status).filter(([source]) => source !== 'hibpData');
    expect(others.length).toBeGreaterThan(5);
    for (const [, status] of others)
      expect(status).toEqual({
        status: 'not_configured',
        mode: 'not_configured',
        message: 'Not configured in this deployment.',
      });
    expect(body.credits).toBe(9);
  });

  it('still refuses the phone lookup, which no configured vendor answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tel?number=919876543210', headers: auth });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(
      'Phone searches are not available in this deployment: no source for them is configured. No credits were charged.',
    );
  });
});
