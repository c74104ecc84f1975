// The charging rule (README, "Credits"), walked kind by kind over every declared kind:
//
//   (a) a source answers with a record      → the answer, charged the kind's price;
//   (b) the sources answer "no record"      → the answer (intel: its 422), nothing charged: the charge
//                                             is refunded, and the row and its audit row are no_record;
//   (c) no source could answer (none is      → 503, nothing charged, nothing written.
//       configured; the leak search: an empty
//       index and no leak vendor)
//
// Every kind is asked through its declared endpoint with its declared example request. Its sources are
// real vendor clients talking to fake vendors on 127.0.0.1 (the KYC vendor for the phone, RC, UPI,
// challan, corporate and verification sources; Gravatar for e-mail; the site check, over a catalogue of
// one fake site, for username) with the sandbox off, and the leak
// search reads the local index this test fills. A kind added to the declarations is walked too; one
// this test cannot drive through a case fails here until the test learns how.
import {
  INTEL_PATHS,
  type KindExample,
  messages,
  SEARCH_KIND_DECLARATIONS,
  SEARCH_KINDS,
  type SearchKind,
} from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, creditEntries, lookups, users } from '../../src/db/schema.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';
import { writeSiteCatalogue } from '../support/site-catalogue.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Case = 'record' | 'none';

/** What the fake vendors answer: a record, or their own "no record". */
let mode: Case = 'record';
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;

const KYC_NO_RECORD = {
  data: null,
  status_code: 422,
  success: false,
  message: 'No records found',
  message_code: 'not_found',
};

beforeAll(async () => {
  upstream = await startFakeUpstream((req, res) => {
    // A site of the username site check: a profile page, or its 404.
    if (req.url.startsWith('/site/')) {
      res.writeHead(mode === 'none' ? 404 : 200, { 'content-type': 'text/html' });
      res.end(`<html><head><title>${mode === 'none' ? 'Not found' : 'Profile'}</title></head></html>`);
      return;
    }
    if (req.url.startsWith('/gravatar/')) {
      if (mode === 'none') return sendJson(res, 404, { error: 'Profile not found', code: 'not_found' });
      return sendJson(res, 200, {
        hash: 'f00d',
        display_name: 'Rich Demo',
        profile_url: 'https://gravatar.com/richdemo',
      });
    }
    if (mode === 'none') return sendJson(res, 422, KYC_NO_RECORD);
    return sendJson(res, 200, {
      data: { client_id: 'vendor_req_1', full_name: 'ROHAN DESHMUKH', challan_details: [] },
      status_code: 200,
      success: true,
      message: '',
      message_code: 'success',
    });
  });
});
afterAll(() => upstream.close());

const ENV = {
  RATE_LIMIT_ENABLED: 'false',
  // Every search asks its sources: no free repeat hides a charge (or its absence).
  LOOKUP_CACHE_HOURS: '0',
  SANDBOX: 'false',
};

async function signedIn(t: TestApp) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { appMode: 'live', credits: 1000, trustedDevice: deviceId });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  const send = (example: KindExample) =>
    example.method === 'GET'
      ? t.app.inject({ method: 'GET', url: `${example.path}?${new URLSearchParams(example.query)}`, headers })
      : t.app.inject({ method: 'POST', url: example.path, ...json(example.body, deviceId, token) });
  return { user, send };
}

/** The balance, and that it is exactly the sum of the ledger's entries. */
async function balanceOf(t: TestApp, userId: string): Promise<number> {
  const [row] = await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  const [sum] = await t.db
    .select({ total: sql<string>`coalesce(sum(${creditEntries.delta}), 0)` })
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId));
  expect(Number(sum?.total), 'balance = sum of the ledger').toBe(row?.credits);
  return row?.credits ?? 0;
}

/**
 * The request of a kind's "no record" case: its example, except where a fake vendor cannot say "no
 * record" to it. The phone kind's KYC sources cover Indian mobiles only; the vendor client itself says
 * "no record" for any other number, so a number outside India is a phone lookup every source answers
 * with "no record".
 */
function noRecordRequest(kind: SearchKind): KindExample {
  const { example } = SEARCH_KIND_DECLARATIONS[kind];
  if (kind === 'tel') return { ...example, query: { number: '14155550100' } };
  return example;
}

/** What a kind answers for "no record": 200 with the answer, or (intel, spec §7) a 422. */
const noRecordStatus = (kind: SearchKind) => (SEARCH_KIND_DECLARATIONS[kind].shape === 'intel' ? 422 : 200);

describe('the charging rule, kind by kind, when a source answers', () => {
  let t: TestApp;
  let client: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...ENV,
        KYC_BASE_URL: `${upstream.url}/kyc`,
        KYC_TOKEN: 'kyc-test-token',
        GRAVATAR_API_KEY: 'gravatar-test-key',
        GRAVATAR_BASE_URL: `${upstream.url}/gravatar`,
        SITE_CHECK_ENABLED: 'true',
        SITE_CHECK_USER_AGENT: 'Footprint-SiteCheck/test (+http://127.0.0.1/)',
        SITE_CHECK_CATALOGUE: writeSiteCatalogue([
          { id: 'fake-site', url: `${upstream.url}/site/{username}` },
        ]),
        SITE_CHECK_ALLOW_ADDRESSES: new URL(upstream.url).host,
        SITE_CHECK_INTERVAL_MS: '0',
        REPORT_THREADS: '1',
      },
    });
    client = await signedIn(t);
    // The index answers (it holds a record of a real import), but not for the example's name yet.
    await addLeakRecords(t.db, { name: 'Charging Breach' }, [
      { name: 'Somebody Else', email: 'x@example.test' },
    ]);
  });
  afterAll(() => t.close());

  /** The kind's lookups rows, newest first. */
  const rowsOf = (kind: SearchKind) =>
    t.db
      .select()
      .from(lookups)
      .where(and(eq(lookups.userId, client.user.id), eq(lookups.kind, kind)))
      .orderBy(sql`${lookups.createdAt} desc`);

  const ledgerOf = (lookupId: string) =>
    t.db
      .select({ kind: creditEntries.kind, delta: creditEntries.delta })
      .from(creditEntries)
      .where(eq(creditEntries.lookupId, lookupId))
      .orderBy(creditEntries.id);

  describe.each(SEARCH_KINDS.map((kind) => [kind]))('%s', (kind) => {
    const price = () => t.config.costs[kind];

    it('(b) "no record": answered as no record, nothing charged, the charge refunded in the ledger', async () => {
      mode = 'none';
      const before = await balanceOf(t, client.user.id);
      const res = await client.send(noRecordRequest(kind));
      expect(res.statusCode, `${kind}: ${res.body.slice(0, 300)}`).toBe(noRecordStatus(kind));
      const after = await balanceOf(t, client.user.id);
      expect(before - after, `${kind} charged`).toBe(0);
      const body = res.json() as Record<string, unknown>;
      expect(body.credits, 'the answer says the balance').toBe(after);
      if (noRecordStatus(kind) === 422) expect(body.message).toBe(messages.intel.noRecord);

      const [row] = await rowsOf(kind);
      expect(row).toMatchObject({ status: 'no_record', cost: price() });
      expect(await ledgerOf(row!.id)).toEqual([
        { kind: 'charge', delta: -price() },
        { kind: 'refund', delta: price() },
      ]);
      const [audit] = await t.db
        .select({ outcome: auditEvents.outcome, cost: auditEvents.cost })
        .from(auditEvents)
        .where(sql`${auditEvents.details}->>'lookup_id' = ${row!.id}`);
      expect(audit).toEqual({ outcome: 'no_record', cost: 0 });

      // What the user sees: a detail kind's envelope says no record, and its source is not_found.
      if (SEARCH_KIND_DECLARATIONS[kind].shape === 'detail') {
        expect(body.data).toMatchObject({ data: null, success: false });
        expect((body.source_status as Record<string, { status: string }>)[kind]?.status).toBe('not_found');
      }
      if (kind === 'leak') expect(body).toMatchObject({ total: 0, data: [] });
    });

    it('(a) a record: answered and charged its price, once', async () => {
      mode = 'record';
      if (kind === 'leak')
        await addLeakRecords(t.db, { name: 'Charging Breach' }, [{ name: 'Rohan Deshmukh' }]);
      const before = await balanceOf(t, client.user.id);
      const res = await client.send(SEARCH_KIND_DECLARATIONS[kind].example);
      expect(res.statusCode, `${kind}: ${res.body.slice(0, 300)}`).toBe(200);
      const after = await balanceOf(t, client.user.id);
      expect(before - after, `${kind} charged`).toBe(price());
      const [row] = await rowsOf(kind);
      expect(row).toMatchObject({ status: 'complete', cost: price() });
      expect(await ledgerOf(row!.id)).toEqual([{ kind: 'charge', delta: -price() }]);
      if (!res.headers['content-type']?.toString().startsWith('application/pdf'))
        expect((res.json() as { credits: number }).credits).toBe(after);
    });
  });
});

describe('the charging rule, kind by kind, when no source could answer', () => {
  // The sandbox off, no vendor configured, an empty leak index and no leak vendor.
  let t: TestApp;
  let client: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    client = await signedIn(t);
  });
  afterAll(() => t.close());

  it.each(SEARCH_KINDS.map((kind) => [kind]))(
    '(c) %s: 503, nothing charged, nothing written',
    async (kind) => {
      const before = await balanceOf(t, client.user.id);
      const res = await client.send(SEARCH_KIND_DECLARATIONS[kind].example);
      expect(res.statusCode, `${kind}: ${res.body.slice(0, 300)}`).toBe(503);
      expect((res.json() as { message: string }).message).toMatch(/No credits were charged/);
      expect(await balanceOf(t, client.user.id)).toBe(before);
      const rows = await t.db.select().from(lookups).where(eq(lookups.userId, client.user.id));
      expect(rows).toEqual([]);
    },
  );

  it('covers both intel endpoints', () => {
    // A guard on the walk itself: every intel path is reached by some declared kind.
    const paths = new Set(SEARCH_KINDS.map((kind) => SEARCH_KIND_DECLARATIONS[kind].request.path));
    for (const path of Object.values(INTEL_PATHS)) expect(paths.has(path)).toBe(true);
  });
});
