import { messages } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { creditEntries, lookups } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { type Provider, SourceFailedError, SourceNotFoundError } from '../../src/providers/types.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';

/** Switches the test providers between answering and failing. */
const upstream = { telHealthy: true, emailHealthy: true };

const providers: Provider[] = [
  {
    id: 'test:wpData',
    source: 'wpData',
    kinds: ['tel'],
    sandbox: true,
    fetch: async (q) => {
      if (!upstream.telHealthy) throw new SourceFailedError('down');
      return { pushname: 'Synthetic Person', number: q.value, isUser: true };
    },
  },
  {
    id: 'test:telData',
    source: 'telData',
    kinds: ['tel'],
    sandbox: true,
    fetch: async () => {
      if (!upstream.telHealthy) throw new SourceFailedError('down');
      throw new SourceNotFoundError();
    },
  },
  {
    id: 'test:hibpData',
    source: 'hibpData',
    kinds: ['email'],
    sandbox: false,
    fetch: async () => {
      if (!upstream.emailHealthy) throw new SourceFailedError('down');
      return [{ Name: 'Orbitly', BreachDate: '2021-03-04' }];
    },
  },
  {
    id: 'test:rc',
    source: 'rc',
    kinds: ['rc'],
    sandbox: true,
    fetch: async (q) => {
      if (q.value === 'KA01ZZ9999') throw new SourceNotFoundError();
      return {
        data: { client_id: 'rc_1', rc_number: q.value, owner_name: 'Synthetic Owner' },
        status_code: 200,
        success: true,
      };
    },
  },
  {
    id: 'test:upi',
    source: 'upi',
    kinds: ['upi'],
    sandbox: true,
    fetch: async (q) => ({
      data: { upi_id: q.value, full_name: 'Synthetic Payee', account_exists: true },
      success: true,
    }),
  },
  {
    id: 'test:challan',
    source: 'challan',
    kinds: ['challan'],
    sandbox: true,
    fetch: async () => ({
      data: { challan_details: [{ challan_number: 'CH1', amount: 500 }] },
      success: true,
    }),
  },
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ providers, env: { RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => t.close());
beforeEach(() => {
  upstream.telHealthy = true;
  upstream.emailHealthy = true;
});

async function userWith(credits: number, extra: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, { credits, ...extra });
  const { token } = await signIn(t, user.email, user.password);
  return { user, token, auth: { authorization: `Bearer ${token}` } };
}

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

describe('GET /api/tel', () => {
  it('charges once, answers every source payload or error, and records the lookup and its charge', async () => {
    const { user, auth } = await userWith(3);
    const res = await get('/api/tel?number=919876543210', auth);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      wpData: { pushname: 'Synthetic Person', number: '919876543210' },
      errors: { telData: 'No record found.' },
      credits: 2,
      cached: false,
      sandbox: true,
    });
    expect(body).not.toHaveProperty('telData');
    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, body.lookup_id));
    expect(row).toMatchObject({
      userId: user.id,
      kind: 'tel',
      query: '919876543210',
      cost: 1,
      status: 'complete',
      sandbox: true,
    });
    expect(row!.sourcesAnswered.sort()).toEqual(['telData', 'wpData']);
    const ledger = await t.db.select().from(creditEntries).where(eq(creditEntries.lookupId, body.lookup_id));
    expect(ledger).toEqual([expect.objectContaining({ kind: 'charge', delta: -1, balanceAfter: 2 })]);
  });

  it('serves a repeat within the cache window from the stored result, free, and says so', async () => {
    const { user, auth } = await userWith(3);
    const first = (await get('/api/tel?number=919000000001', auth)).json();
    upstream.telHealthy = false; // the cache must not even ask
    const again = await get('/api/tel?number=919000000001', auth);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ wpData: first.wpData, credits: 2, cached: true });
    expect(again.json().lookup_id).not.toBe(first.lookup_id);
    const rows = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(rows.map((r) => [r.cost, r.cacheOf])).toEqual(
      expect.arrayContaining([
        [1, null],
        [0, first.lookup_id],
      ]),
    );
    // Another user's identical query is not served from this user's cache.
    const other = await userWith(1);
    upstream.telHealthy = true;
    expect((await get('/api/tel?number=919000000001', other.auth)).json()).toMatchObject({
      cached: false,
      credits: 0,
    });
  });

  it('refunds the charge when no source answers, and says why', async () => {
    const { user, auth } = await userWith(2);
    upstream.telHealthy = false;
    const res = await get('/api/tel?number=919000000002', auth);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      message: 'No source answered this lookup. Your credits were refunded.',
      credits: 2,
    });
    const [row] = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(row).toMatchObject({ status: 'refunded', cost: 1 });
    const ledger = await t.db.select().from(creditEntries).where(eq(creditEntries.lookupId, row!.id));
    expect(ledger.map((e) => [e.kind, e.delta])).toEqual([
      ['charge', -1],
      ['refund', 1],
    ]);
  });

  it('answers 402 without a charge or a row when the balance is short', async () => {
    const { user, auth } = await userWith(0);
    const res = await get('/api/tel?number=919000000003', auth);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: messages.credits.insufficient, credits: 0 });
    expect(await t.db.select().from(lookups).where(eq(lookups.userId, user.id))).toHaveLength(0);
  });

  it('rejects bad numbers and unknown parameters with the spec message, charging nothing', async () => {
    const { user, auth } = await userWith(5);
    for (const url of [
      '/api/tel',
      '/api/tel?number=',
      '/api/tel?number=98765',
      '/api/tel?number=91987654321a',
      '/api/tel?number=91%2098765%2043210',
      `/api/tel?number=${'9'.repeat(40)}`,
      '/api/tel?number=919876543210&number=919876543211',
    ]) {
      const res = await get(url, auth);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().message, url).toBe(messages.search.invalidPhone);
    }
    const extra = await get('/api/tel?number=919876543210&debug=1', auth);
    expect(extra.statusCode).toBe(422);
    expect(extra.json().errors).toEqual({ debug: ['The debug field is not allowed.'] });
    expect(await t.db.select().from(lookups).where(eq(lookups.userId, user.id))).toHaveLength(0);
  });

  it('needs a valid token', async () => {
    expect((await get('/api/tel?number=919876543210', {})).statusCode).toBe(401);
    expect(
      (await get('/api/tel?number=919876543210', { authorization: `Bearer ${'x'.repeat(43)}` })).statusCode,
    ).toBe(401);
  });

  it('charges exactly the balance under concurrent lookups and keeps the ledger whole', async () => {
    const { user, auth } = await userWith(5);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        get(`/api/tel?number=9180000000${String(i).padStart(2, '0')}`, auth),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 402)).toHaveLength(15);
    const rows = await t.db
      .select()
      .from(lookups)
      .where(and(eq(lookups.userId, user.id), eq(lookups.status, 'complete')));
    expect(rows).toHaveLength(5);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });
});

describe('GET /api/email', () => {
  it('answers data and credits', async () => {
    const { auth } = await userWith(1);
    const res = await get('/api/email?email=Someone%40Example.test', auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { hibpData: [{ Name: 'Orbitly' }], errors: {} },
      credits: 0,
      cached: false,
      sandbox: false,
    });
  });

  it('rejects addresses with spaces or no domain with the spec message', async () => {
    const { auth } = await userWith(1);
    for (const email of ['a%20b@example.test', 'nodomain', 'a@b', `${'x'.repeat(100)}@example.test`]) {
      const res = await get(`/api/email?email=${email}`, auth);
      expect(res.statusCode, email).toBe(422);
      expect(res.json().message).toBe(messages.search.invalidEmail);
    }
  });
});

describe('paid detail lookups', () => {
  it('answer the vendor envelope as data, charging each record and refunding "no record"', async () => {
    const { auth } = await userWith(5);
    const post = (url: string, body: unknown) =>
      t.app.inject({ method: 'POST', url, payload: body as object, headers: auth });
    const rc = await post('/api/rcfull-details', { id_number: 'mh-12 ab 1234' });
    expect(rc.json()).toMatchObject({
      credits: 4,
      data: { data: { rc_number: 'MH12AB1234', owner_name: 'Synthetic Owner' } },
    });
    const upi = await post('/api/upifull-details', { upi_id: 'Payee@oksbi' });
    expect(upi.json()).toMatchObject({ credits: 3, data: { data: { upi_id: 'payee@oksbi' } } });
    const challan = await post('/api/rc-challan-details', { rc_number: 'MH12AB1234' });
    expect(challan.json()).toMatchObject({
      credits: 2,
      data: { data: { challan_details: [{ challan_number: 'CH1' }] } },
    });
    const missing = await post('/api/rcfull-details', { id_number: 'KA01ZZ9999' });
    expect(missing.statusCode).toBe(200);
    // The vendor's no-record envelope is answered as it came, its source not_found, and not charged.
    expect(missing.json()).toMatchObject({
      credits: 2,
      data: { data: null, success: false },
      source_status: { rc: { status: 'not_found' } },
    });
    for (const [url, body] of [
      ['/api/rcfull-details', {}],
      ['/api/rcfull-details', { id_number: '<script>' }],
      ['/api/upifull-details', { upi_id: 'not-a-upi' }],
      ['/api/rc-challan-details', { rc_number: ['MH12AB1234'] }],
    ] as const) {
      const res = await post(url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(422);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth })).json().credits).toBe(2);
  });
});

describe('GET /api/admin/providers', () => {
  it('shows per-provider counters to admins only', async () => {
    const admin = await userWith(0, { role: 'admin', appMode: 'live' });
    const res = await get('/api/admin/providers', admin.auth);
    expect(res.statusCode).toBe(200);
    const wp = res.json().providers.find((p: { id: string }) => p.id === 'test:wpData');
    expect(wp).toMatchObject({ source: 'wpData', breaker: 'closed' });
    expect(wp.calls).toBeGreaterThan(0);
    expect(wp.latency).toHaveProperty('p95');
    const user = await userWith(0);
    expect((await get('/api/admin/providers', user.auth)).statusCode).toBe(403);
  });
});
