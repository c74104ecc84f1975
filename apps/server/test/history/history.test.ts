// A signed-in user's own records (search history that reopens stored results without a charge, the
// credit statement), the retention purge, and the case reference policy.
import { messages } from '@footprint/domain';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, creditEntries, lookups, users } from '../../src/db/schema.ts';
import { purgeExpiredResults, schedulePurge } from '../../src/modules/lookup/retention.ts';
import { deploymentDefaults } from '../../src/modules/settings/service.ts';
import { INTEL_DEMO } from '../../src/sandbox/index.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' } });
  // The leak search needs an index that can answer (an empty one, with no leak vendor, is a 503).
  await addLeakRecords(t.db, { name: 'Fixture Breach' }, [{ name: 'Fixture Person' }]);
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { appMode: 'live', trustedDevice: deviceId, ...options });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const get = (url: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId },
    });
  const post = (url: string, body: unknown) =>
    t.app.inject({ method: 'POST', url, ...json(body, deviceId, token) });
  return { user, token, deviceId, get, post };
}

async function counts(userId: string) {
  const [[balance], [ledger], [rows], [audit]] = await Promise.all([
    t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)),
    t.db.select({ n: count() }).from(creditEntries).where(eq(creditEntries.userId, userId)),
    t.db.select({ n: count() }).from(lookups).where(eq(lookups.userId, userId)),
    t.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.userId, userId)),
  ]);
  return { credits: balance!.credits, ledger: ledger!.n, lookups: rows!.n, audit: audit!.n };
}

const ageLookup = (id: string, days: number) =>
  t.db.execute(sql`update lookups set created_at = now() - make_interval(days => ${days}) where id = ${id}`);

async function setSettings(patch: Record<string, unknown>) {
  const admin = await signedIn({ role: 'admin' });
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/admin/settings',
    ...json(patch, admin.deviceId, admin.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('GET /api/history and /api/history/{id}', () => {
  it('lists the user’s own lookups newest first with kind, query, cost, case reference and availability', async () => {
    const me = await signedIn({ credits: 10 });
    const other = await signedIn({ credits: 10 });
    await me.get('/api/tel?number=919876543210&case_reference=CASE-1');
    await me.get('/api/tel?number=919876543210&case_reference=CASE-2');
    await me.get('/api/email?email=rich.demo%40example.test');
    await other.get('/api/tel?number=919123456780');

    const res = await me.get('/api/history');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, page: 1, per_page: 25 });
    expect(
      body.data.map((e: Record<string, unknown>) => [e.kind, e.query, e.cost, e.cached, e.case_reference]),
    ).toEqual([
      ['email', 'rich.demo@example.test', 1, false, null],
      ['tel', '919876543210', 0, true, 'CASE-2'],
      ['tel', '919876543210', 1, false, 'CASE-1'],
    ]);
    for (const entry of body.data) {
      expect(entry).toMatchObject({ status: 'complete', result_available: true });
      expect(Number.isNaN(Date.parse(entry.created_at))).toBe(false);
    }

    const telOnly = await me.get('/api/history?kind=tel&per_page=1&page=2');
    expect(telOnly.json()).toMatchObject({ total: 2, page: 2, per_page: 1 });
    expect(telOnly.json().data[0].case_reference).toBe('CASE-1');
    expect((await me.get('/api/history?per_page=101')).statusCode).toBe(422);
    expect((await me.get('/api/history?kind=a%20b')).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/history' })).statusCode).toBe(401);
  });

  it('shows each phone and e-mail search as typed beside its normalized query; the trail and its CSV too', async () => {
    const me = await signedIn({ credits: 10 });
    await me.get('/api/tel?number=%20919876543210%20');
    await me.get('/api/email?email=Rich.Demo%40Example.TEST');
    const list = (await me.get('/api/history')).json();
    expect(
      list.data.map((e: Record<string, unknown>) => [e.kind, e.query, e.query_typed, e.refunded]),
    ).toEqual([
      ['email', 'rich.demo@example.test', 'Rich.Demo@Example.TEST', false],
      ['tel', '919876543210', '919876543210', false],
    ]);
    const detail = (await me.get(`/api/history/${list.data[0].id}`)).json();
    expect(detail).toMatchObject({
      query: 'rich.demo@example.test',
      query_typed: 'Rich.Demo@Example.TEST',
      status: 'complete',
    });

    const admin = await signedIn({ role: 'admin' });
    // The audit filter finds a search by its query as typed, and the API names both forms.
    const trail = (
      await admin.get(`/api/admin/audit?user=${me.user.id}&action=lookup.&q=Rich.Demo%40Example`)
    ).json();
    expect(trail.data).toHaveLength(1);
    expect(trail.data[0]).toMatchObject({
      action: 'lookup.email',
      outcome: 'success',
      target: 'rich.demo@example.test',
      query_typed: 'Rich.Demo@Example.TEST',
      query_normalized: 'rich.demo@example.test',
    });
    const csv = await admin.get(`/api/admin/audit.csv?user=${me.user.id}&action=lookup.`);
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trim().split('\r\n');
    expect(header).toBe(
      'id,at,user_id,actor_email,ip,device_id,action,target,cost,outcome,case_reference,details,query_typed,query_normalized',
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/,Rich\.Demo@Example\.TEST,rich\.demo@example\.test$/);
    expect(lines[1]).toMatch(/,919876543210,919876543210$/);
  });

  it('reopens a stored result without a charge, writes history.view, and hides other users’ lookups', async () => {
    const me = await signedIn({ credits: 5 });
    const other = await signedIn({ credits: 5 });
    const tel = await me.get('/api/tel?number=919876543210&case_reference=REOPEN-1');
    const rc = await me.post('/api/rcfull-details', { id_number: 'MH12AB1234' });
    const { lookup_id: telId } = tel.json();
    const before = await counts(me.user.id);

    const opened = await me.get(`/api/history/${telId}`);
    expect(opened.statusCode).toBe(200);
    const body = opened.json();
    expect(body).toMatchObject({
      id: telId,
      kind: 'tel',
      query: '919876543210',
      case_reference: 'REOPEN-1',
      cost: 1,
    });
    // The stored answer in the shape /api/tel gave it, without credits.
    const original = tel.json();
    expect(body.result.wpData).toEqual(original.wpData);
    expect(body.result.errors).toEqual(original.errors);
    expect(body.result.credits).toBeUndefined();
    // With what became of each source, so the reopened page shows the same source panel.
    expect(body.result.source_status).toEqual(original.source_status);

    const detail = await me.get(`/api/history/${rc.json().lookup_id}`);
    // And when its sources answered: the time the search itself answered.
    expect(detail.json().result).toEqual({
      data: rc.json().data,
      source_status: rc.json().source_status,
      answered_at: rc.json().answered_at,
      reused_from: null,
    });

    const after = await counts(me.user.id);
    expect(after).toEqual({ ...before, audit: before.audit + 2 });
    const views = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, me.user.id), eq(auditEvents.action, 'history.view')));
    expect(views[0]).toMatchObject({ outcome: 'success', target: telId, cost: 0, caseReference: 'REOPEN-1' });

    const foreign = await other.get(`/api/history/${telId}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('No lookup of yours has this id.');
    expect((await me.get('/api/history/not-a-uuid')).statusCode).toBe(404);
    expect((await me.get('/api/history/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('retention', () => {
  it('purges stored results past the period: history answers 410, the cache charges again, rows and audit stay', async () => {
    const me = await signedIn({ credits: 5 });
    const first = await me.get('/api/tel?number=919812345678');
    const repeat = await me.get('/api/tel?number=919812345678');
    expect(repeat.json().cached).toBe(true);
    const id = first.json().lookup_id as string;
    const auditBefore = await t.db.select({ n: count() }).from(auditEvents);

    // 100 days old: past the default 90 days.
    await ageLookup(id, 100);
    const result = await purgeExpiredResults(t.db, deploymentDefaults(t.config));
    expect(result.purged).toBeGreaterThanOrEqual(1);
    expect(result.retentionDays).toBe(90);

    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, id));
    expect(row).toMatchObject({ result: null, status: 'complete', query: '919812345678', cost: 1 });
    expect(row!.resultPurgedAt).toBeInstanceOf(Date);
    expect((await t.db.select({ n: count() }).from(auditEvents))[0]!.n).toBeGreaterThanOrEqual(
      auditBefore[0]!.n,
    );
    const telRows = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, me.user.id), eq(auditEvents.action, 'lookup.tel')));
    expect(telRows).toHaveLength(2);

    for (const lookupId of [id, repeat.json().lookup_id]) {
      const gone = await me.get(`/api/history/${lookupId}`);
      expect(gone.statusCode).toBe(410);
      expect(gone.json().message).toBe('This result is no longer kept.');
    }
    const list = (await me.get('/api/history')).json();
    expect(list.data.every((e: { result_available: boolean }) => !e.result_available)).toBe(true);

    // The report endpoint draws from stored results only: nothing left to draw.
    const report = await me.post('/api/generate-report', {
      userInput: '9812345678',
      type: 'tel',
      results: { lookup_id: id },
    });
    expect(report.statusCode).toBe(404);

    // The purged row is no cache: the same search is a new, charged lookup (its own copy is recent).
    const balance = (await counts(me.user.id)).credits;
    const again = await me.get('/api/tel?number=919812345678');
    expect(again.json().cached).toBe(false);
    expect(again.json().credits).toBe(balance - 1);

    // A second run finds nothing more to do.
    const second = await purgeExpiredResults(t.db, deploymentDefaults(t.config));
    expect(second.purged).toBe(0);
  });

  it('follows the admin setting lookup_retention_days, and an expired result is not served even before the purge runs', async () => {
    const me = await signedIn({ credits: 5 });
    const first = await me.get('/api/email?email=rich.demo%40example.test');
    const id = first.json().lookup_id as string;
    await ageLookup(id, 2);
    expect((await me.get(`/api/history/${id}`)).statusCode).toBe(200);

    const settings = await setSettings({ lookup_retention_days: 1 });
    expect(settings.lookup_retention_days).toBe(1);
    try {
      // Not purged yet, but past the period: neither history nor the cache serves it.
      expect((await me.get(`/api/history/${id}`)).statusCode).toBe(410);
      const [kept] = await t.db.select({ result: lookups.result }).from(lookups).where(eq(lookups.id, id));
      expect(kept!.result).not.toBeNull();
      const result = await purgeExpiredResults(t.db, deploymentDefaults(t.config));
      expect(result.retentionDays).toBe(1);
      const [purged] = await t.db.select({ result: lookups.result }).from(lookups).where(eq(lookups.id, id));
      expect(purged!.result).toBeNull();
    } finally {
      await setSettings({ lookup_retention_days: 90 });
    }
  });
});

describe('the scheduled purge', () => {
  it('runs on its timer, purges what is due and records the run as system', async () => {
    const me = await signedIn({ credits: 2 });
    const id = (await me.get('/api/tel?number=919700000001')).json().lookup_id as string;
    await ageLookup(id, 95);
    const logged: string[] = [];
    const log = {
      info: (_: object, msg: string) => logged.push(msg),
      error: (_: object, msg: string) => logged.push(msg),
    };
    const stop = schedulePurge(t.db, deploymentDefaults(t.config), 60, log, 10);
    try {
      await expect
        .poll(
          async () =>
            (await t.db.select({ result: lookups.result }).from(lookups).where(eq(lookups.id, id)))[0]!
              .result,
          {
            timeout: 5_000,
          },
        )
        .toBeNull();
      await expect
        .poll(
          async () =>
            (await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'system.lookups.purge')))
              .length,
        )
        .toBe(1);
    } finally {
      stop();
    }
    const [run] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'system.lookups.purge'));
    expect(run).toMatchObject({ actorEmail: 'system', userId: null, outcome: 'success' });
    expect(run!.details).toMatchObject({ retention_days: 90 });
    expect(logged).toContain('purged stored lookup results past retention');
  });
});

describe('GET /api/credits/statement', () => {
  it('lists the ledger newest first with the balance it adds up to', async () => {
    const me = await signedIn({ credits: 7 });
    const tel = await me.get('/api/tel?number=919876543210');
    await me.get('/api/email?email=rich.demo%40example.test');
    const res = await me.get('/api/credits/statement?per_page=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ balance: 5, total: 3, page: 1, per_page: 2 });
    expect(body.data.map((e: Record<string, unknown>) => [e.delta, e.balance_after, e.kind])).toEqual([
      [-1, 5, 'charge'],
      [-1, 6, 'charge'],
    ]);
    expect(body.data[1].lookup_id).toBe(tel.json().lookup_id);
    const last = (await me.get('/api/credits/statement?page=2&per_page=2')).json();
    expect(last.data).toEqual([
      expect.objectContaining({ delta: 7, balance_after: 7, kind: 'grant', lookup_id: null }),
    ]);
    expect((await me.get('/api/credits/statement?page=0')).statusCode).toBe(422);
    expect((await me.get('/api/credits/statement?user=someone')).statusCode).toBe(422);
  });
});

describe('case reference', () => {
  it('refuses references over 100 characters on every search, charging nothing', async () => {
    const me = await signedIn({ credits: 5 });
    const before = await counts(me.user.id);
    const long = 'x'.repeat(101);
    const answers = [
      await me.get(`/api/tel?number=919876543210&case_reference=${long}`),
      await me.get(`/api/email?email=a%40b.co&case_reference=${long}`),
      await me.post('/api/rcfull-details', { id_number: 'MH12AB1234', case_reference: long }),
      await me.post('/api/leak-data-finder/', {
        fields: [{ type: 'name', value: 'Ann' }],
        case_reference: long,
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.case_reference).toEqual([messages.caseReference.tooLong]);
    }
    expect(await counts(me.user.id)).toEqual(before);
  });

  it('is required on every search when the deployment says so, and the policy endpoint tells the forms', async () => {
    const me = await signedIn({ credits: 5 });
    expect((await me.get('/api/case-reference-policy')).json()).toEqual({
      required: false,
      legal_basis_required: false,
    });
    await setSettings({ case_reference_required: true });
    try {
      expect((await me.get('/api/case-reference-policy')).json()).toEqual({
        required: true,
        legal_basis_required: false,
      });
      const before = await counts(me.user.id);
      const answers = [
        await me.get('/api/tel?number=919876543210'),
        await me.get('/api/tel?number=919876543210&case_reference=%20%20'),
        await me.get('/api/email?email=a%40b.co'),
        await me.post('/api/rcfull-details', { id_number: 'MH12AB1234' }),
        await me.post('/api/upifull-details', { upi_id: 'rohan.deshmukh@oksbi' }),
        await me.post('/api/rc-challan-details', { rc_number: 'MH12AB1234' }),
        await me.post('/api/leak-data-finder/', { fields: [{ type: 'name', value: 'Ann' }] }),
        await me.post('/api/corporate-intelligence', {
          type: 'corporate_cin',
          data: { id_number: INTEL_DEMO.cin },
        }),
        await me.post('/api/verification-id', { type: 'ifsc', data: { ifsc: INTEL_DEMO.ifsc } }),
      ];
      for (const res of answers) {
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toMatchObject({
          message: 'A case reference is required for every search.',
          errors: { case_reference: ['A case reference is required for every search.'] },
        });
      }
      expect(await counts(me.user.id)).toEqual(before);
      const ok = await me.get('/api/tel?number=919876543210&case_reference=CASE-MUST');
      expect(ok.statusCode).toBe(200);
      expect(ok.json().credits).toBe(4);
      const verified = await me.post('/api/verification-id', {
        type: 'ifsc',
        data: { ifsc: INTEL_DEMO.ifsc },
        case_reference: 'CASE-MUST',
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const [row] = await t.db
        .select()
        .from(lookups)
        .where(and(eq(lookups.userId, me.user.id), eq(lookups.caseReference, 'CASE-MUST')))
        .orderBy(sql`${lookups.createdAt} desc`)
        .limit(1);
      expect(row!.kind).not.toBe('tel');
    } finally {
      await setSettings({ case_reference_required: false });
    }
    expect((await me.get('/api/tel?number=919123456780')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/case-reference-policy' })).statusCode).toBe(401);
  });
});
