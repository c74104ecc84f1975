// The Providers screen's API: every call that reaches a live vendor is counted and priced at its
// configured cost, written to provider_usage (on an interval and on close, so a restart keeps it),
// refused credentials are flagged, sources nobody answers are listed, and only admins may look.
// The vendor is a fake HIBP on 127.0.0.1.
import type { ProviderHealth } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Executor } from '../../src/db/client.ts';
import { providerUsage } from '../../src/db/schema.ts';
import { readMonthUsage } from '../../src/modules/usage/query.ts';
import {
  addTally,
  createUsageRecorder,
  microsToDecimal,
  monthStart,
  tallyOf,
  type UsageTally,
  utcDay,
} from '../../src/modules/usage/recorder.ts';
import type { ProviderCall } from '../../src/providers/runner.ts';
import type { Provider } from '../../src/providers/types.ts';
import { SANDBOX_SOURCES } from '../../src/sandbox/index.ts';
import { createTestApp, createUser, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;

const breach = { Name: 'Orbitly', Title: 'Orbitly', BreachDate: '2021-03-04', DataClasses: ['Emails'] };
const HIBP_ID = 'hibp:hibpData';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream((_req, res) => sendJson(res, 200, [breach]));
});
afterAll(() => upstream.close());

/** HIBP on the fake vendor at 0.05 USD a call; the sandbox answers the other sources unless told off. */
const hibpEnv = (extra: Record<string, string> = {}) => ({
  RATE_LIMIT_ENABLED: 'false',
  LOOKUP_PURGE_INTERVAL_MINUTES: '0',
  HIBP_API_KEY: 'synthetic-test-key',
  HIBP_BASE_URL: `${upstream.url}/api/v3`,
  HIBP_COST_PER_CALL: '0.05',
  ...extra,
});

/** A signed-in user of `t` (on a trusted device, so no OTP) and a GET helper with its token. */
async function signedIn(t: TestApp, options: Parameters<typeof createUser>[1] = {}) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { trustedDevice: deviceId, appMode: 'live', credits: 50, ...options });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  return { user, token, deviceId };
}

const get = (t: TestApp, url: string, who?: { token: string; deviceId: string }) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: who ? { authorization: `Bearer ${who.token}`, 'x-device-id': who.deviceId } : {},
  });

let emails = 0;
/**
 * An e-mail lookup of a new address (never a cached answer), which calls every e-mail source. With
 * HIBP the only source, its failure is the lookup's: 502, refunded.
 */
async function emailLookup(t: TestApp, who: { token: string; deviceId: string }, status = 200) {
  emails += 1;
  const res = await get(t, `/api/email?email=usage-${emails}-${Date.now()}%40example.test`, who);
  expect(res.statusCode, res.body).toBe(status);
}

async function providersOf(t: TestApp, who: { token: string; deviceId: string }) {
  const res = await get(t, '/api/admin/providers', who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().providers as ProviderHealth[];
}

const rowOf = (rows: ProviderHealth[], id: string) => {
  const row = rows.find((r) => r.id === id);
  expect(row, id).toBeDefined();
  return row!;
};

const usageRows = (db: Executor, providerId = HIBP_ID) =>
  db.select().from(providerUsage).where(eq(providerUsage.providerId, providerId));

describe('the usage tally', () => {
  const provider = (vendor?: Provider['vendor']): Provider => ({
    id: vendor ? 'acme:wpData' : 'sandbox:wpData',
    source: 'wpData',
    kinds: ['tel'],
    sandbox: !vendor,
    vendor,
    fetch: async () => ({}),
  });
  const call = (state: ProviderCall['state'], at: string, vendor?: Provider['vendor']): ProviderCall => ({
    provider: provider(vendor),
    state,
    ms: 12,
    at: new Date(at),
  });
  const acme = { id: 'acme', name: 'Acme', costPerCall: 0.1, currency: 'EUR' };

  it('counts a call on its UTC day: answers (payload or no record) apart from failures, priced exactly', () => {
    const tallies = new Map<string, UsageTally>();
    for (const state of ['ok', 'not_found', 'failed', 'timed_out', 'rate_limited', 'ok'] as const)
      addTally(tallies, tallyOf(call(state, '2026-03-31T23:59:59.999Z', acme)));
    addTally(tallies, tallyOf(call('ok', '2026-04-01T00:00:00.000Z', acme)));
    expect([...tallies.values()]).toEqual([
      {
        providerId: 'acme:wpData',
        vendorId: 'acme',
        day: '2026-03-31',
        calls: 6,
        successes: 3,
        failures: 3,
        spendMicros: 600_000n,
        currency: 'EUR',
      },
      expect.objectContaining({ day: '2026-04-01', calls: 1, spendMicros: 100_000n }),
    ]);
    // 0.1 × 3 in floating point is 0.30000000000000004; in millionths it is exact.
    expect(microsToDecimal(300_000n)).toBe('0.300000');
    expect(microsToDecimal(12_345_678_901n)).toBe('12345.678901');
    expect(microsToDecimal(0n)).toBe('0.000000');
  });

  it('counts sandbox calls at no cost and without a vendor', () => {
    expect(tallyOf(call('ok', '2026-05-02T10:00:00Z'))).toMatchObject({
      providerId: 'sandbox:wpData',
      vendorId: null,
      spendMicros: 0n,
      currency: null,
    });
  });

  it('reads days and months in UTC', () => {
    expect(utcDay(new Date('2026-03-01T00:30:00+05:30'))).toBe('2026-02-28');
    // Remembering the last day formatted never answers a stale one, across midnight either way.
    expect(utcDay(new Date('2026-02-28T23:59:59.999Z'))).toBe('2026-02-28');
    expect(utcDay(new Date('2026-03-01T00:00:00.000Z'))).toBe('2026-03-01');
    expect(utcDay(new Date('2026-02-28T12:00:00.000Z'))).toBe('2026-02-28');
    expect(utcDay(new Date('1969-12-31T23:59:59.999Z'))).toBe('1969-12-31');
    expect(monthStart('2026-02-28')).toBe('2026-02-01');
  });
});

describe('the usage table', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  const acme = { id: 'acme', name: 'Acme', costPerCall: 0.1, currency: 'EUR' };
  const acmeCall = (state: ProviderCall['state']): ProviderCall => ({
    provider: {
      id: 'acme:wpData',
      source: 'wpData',
      kinds: ['tel'],
      sandbox: false,
      vendor: acme,
      fetch: async () => ({}),
    },
    state,
    ms: 12,
    at: new Date(),
  });

  it('keeps a tally whose write failed, and writes it with the next flush', async () => {
    let refuse = true;
    // The real database, except that the first insert fails as a lost connection would.
    const flaky = new Proxy(database.db, {
      get(target, key, receiver) {
        if (key === 'insert' && refuse) {
          refuse = false;
          return () => {
            throw new Error('connection lost');
          };
        }
        return Reflect.get(target, key, receiver);
      },
    }) as Executor;
    const recorder = createUsageRecorder(flaky);
    recorder.record(acmeCall('ok'));
    await expect(recorder.flush()).rejects.toThrow('connection lost');
    recorder.record(acmeCall('failed'));
    await recorder.flush();
    await recorder.close();
    expect(await usageRows(database.db, 'acme:wpData')).toEqual([
      expect.objectContaining({ calls: 2, successes: 1, failures: 1, spend: '0.200000', currency: 'EUR' }),
    ]);
    expect(recorder.countSinceStart('acme:wpData')).toEqual({ calls: 2, successes: 1 });
  });

  it('sums today and the calendar month up to today, per provider and currency', async () => {
    const row = (providerId: string, day: string, calls: number, spend: string, currency: string | null) => ({
      providerId,
      vendorId: currency ? 'month' : null,
      day,
      calls,
      successes: calls,
      failures: 0,
      spend,
      currency,
    });
    await database.db
      .insert(providerUsage)
      .values([
        row('month:a', '2026-02-28', 7, '0.700000', 'INR'),
        row('month:a', '2026-03-01', 2, '0.200000', 'INR'),
        row('month:a', '2026-03-15', 3, '0.300000', 'INR'),
        row('month:a', '2026-04-01', 9, '0.900000', 'INR'),
        row('month:b', '2026-03-10', 4, '0', null),
      ]);
    const usage = (await readMonthUsage(database.db, '2026-03-15')).filter((u) =>
      u.providerId.startsWith('month:'),
    );
    expect(usage.sort((x, y) => x.providerId.localeCompare(y.providerId))).toEqual([
      { providerId: 'month:a', currency: 'INR', callsToday: 3, spendToday: 0.3, spendMonth: 0.5 },
      { providerId: 'month:b', currency: null, callsToday: 0, spendToday: 0, spendMonth: 0 },
    ]);
  });
});

describe('GET /api/admin/providers with a live vendor and the sandbox off', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let officer: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, [breach]));
    t = await createTestApp({ env: hibpEnv({ SANDBOX: 'false' }) });
    admin = await signedIn(t, { role: 'admin' });
    officer = await signedIn(t);
  });
  afterAll(() => t?.close());

  it('answers 401 without a token and 403 to a non-admin', async () => {
    expect((await get(t, '/api/admin/providers')).statusCode).toBe(401);
    const refused = await get(t, '/api/admin/providers', officer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This action is unauthorized.');
  });

  it('counts and prices each call that reached the vendor, and shows its mode, vendor and last error', async () => {
    const before = upstream.requests.length;
    await emailLookup(t, officer);
    await emailLookup(t, officer);
    upstream.setHandler((_req, res) => sendJson(res, 500, { message: 'maintenance' }));
    await emailLookup(t, officer, 502);
    upstream.setHandler((_req, res) => sendJson(res, 200, [breach]));
    expect(upstream.requests.length - before).toBe(3);

    const row = rowOf(await providersOf(t, admin), HIBP_ID);
    expect(row).toMatchObject({
      source: 'hibpData',
      mode: 'live',
      sandbox: false,
      vendor: 'Have I Been Pwned',
      env_prefix: 'HIBP',
      calls: 3,
      failures: 1,
      success_rate: 0.6667,
      misconfigured: false,
      paused_until: null,
      calls_today: 3,
      spend: { today: 0.15, month: 0.15, currency: 'USD' },
    });
    expect(row.last_error).toEqual({ at: expect.any(String), message: 'HIBP answered 500' });
    expect(Date.now() - Date.parse(row.last_error!.at)).toBeLessThan(60_000);

    // The screen wrote this process's latest calls before reading them back.
    expect(await usageRows(t.db)).toEqual([
      expect.objectContaining({
        vendorId: 'hibp',
        day: utcDay(new Date()),
        calls: 3,
        successes: 2,
        failures: 1,
        spend: '0.150000',
        currency: 'USD',
      }),
    ]);
  });

  it('lists every source nobody answers as not configured, once, with its kinds', async () => {
    const rows = await providersOf(t, admin);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.filter((r) => r.mode === 'live').map((r) => r.id)).toEqual([HIBP_ID]);
    expect(rowOf(rows, 'not_configured:osintData')).toEqual({
      id: 'not_configured:osintData',
      source: 'osintData',
      kinds: ['tel', 'email'],
      sandbox: false,
      calls: 0,
      failures: 0,
      timeouts: 0,
      notFound: 0,
      rejectedOpen: 0,
      latency: { p50: null, p95: null, p99: null },
      breaker: 'closed',
      mode: 'not_configured',
      vendor: null,
      env_prefix: null,
      success_rate: null,
      misconfigured: false,
      last_error: null,
      paused_until: null,
      calls_today: 0,
      spend: null,
    });
    expect(rowOf(rows, 'not_configured:verification:pan').kinds).toEqual(['verification:pan']);
    expect(rows.some((r) => r.source === 'hibpData' && r.mode === 'not_configured')).toBe(false);
  });

  it('flags a vendor that refuses the credentials (401) with its last error, and clears it once it answers', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 401, { statusCode: 401, message: 'Access denied' }));
    await emailLookup(t, officer, 502);
    const flagged = rowOf(await providersOf(t, admin), HIBP_ID);
    expect(flagged).toMatchObject({
      misconfigured: true,
      last_error: { at: expect.any(String), message: 'HIBP refused the key (401)' },
      calls: 4,
      calls_today: 4,
      // The refused call reached the vendor: it is priced like any other.
      spend: { today: 0.2, month: 0.2, currency: 'USD' },
    });

    upstream.setHandler((_req, res) => sendJson(res, 200, [breach]));
    await emailLookup(t, officer);
    const cleared = rowOf(await providersOf(t, admin), HIBP_ID);
    expect(cleared.misconfigured).toBe(false);
    expect(cleared.last_error?.message).toBe('HIBP refused the key (401)');
  });
});

describe('usage survives a restart', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, [breach]));
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it('is written on an interval, then on close, and read back by the next runtime on the same database', async () => {
    const first = await createTestApp({ database, env: hibpEnv(), usageFlushMs: 50 });
    const admin = await signedIn(first, { role: 'admin' });
    const officer = await signedIn(first);
    await emailLookup(first, officer);
    // Written by the timer, without anyone asking for the screen.
    await expect.poll(async () => (await usageRows(first.db))[0]?.calls, { timeout: 5000 }).toBe(1);
    const sandboxCalls = (await usageRows(first.db, 'sandbox:emailData'))[0];
    expect(sandboxCalls).toMatchObject({ calls: 1, vendorId: null, spend: '0.000000', currency: null });

    await emailLookup(first, officer);
    await emailLookup(first, officer);
    await first.close();
    expect((await usageRows(first.db))[0]).toMatchObject({ calls: 3, spend: '0.150000' });

    const second = await createTestApp({ database, env: hibpEnv() });
    try {
      // The sessions are in the database too: the same admin token works after the restart.
      const rows = await providersOf(second, admin);
      expect(rowOf(rows, HIBP_ID)).toMatchObject({
        mode: 'live',
        calls: 0,
        success_rate: null,
        calls_today: 3,
        spend: { today: 0.15, month: 0.15, currency: 'USD' },
      });
      expect(rowOf(rows, 'sandbox:emailData')).toMatchObject({
        mode: 'sandbox',
        vendor: null,
        calls_today: 3,
        spend: null,
      });
      // Every source the sandbox answers is answered (the vendor-only ones, none of which is switched
      // on here, are not configured).
      expect(rows.some((r) => r.mode === 'not_configured' && SANDBOX_SOURCES.includes(r.source))).toBe(false);
      expect(rows.filter((r) => r.mode === 'not_configured').map((r) => r.source)).toEqual(['pseudonymData']);

      await emailLookup(second, officer);
      expect(rowOf(await providersOf(second, admin), HIBP_ID)).toMatchObject({
        calls: 1,
        success_rate: 1,
        calls_today: 4,
        spend: { today: 0.2, month: 0.2, currency: 'USD' },
      });
    } finally {
      await second.close();
    }
  });
});
