// The public API (docs/api.md) driven the way a script would: through a client generated from the
// server's own OpenAPI document (openapi-typescript types, checked against the live document here, and
// openapi-fetch over real HTTP on 127.0.0.1). A key is made with a session, calls the sandbox lookups,
// and is named in the audit trail; scopes, revocation, expiry, the monthly cap and the key's rate
// limit each refuse it.

import type { AddressInfo } from 'node:net';
import { API_KEY_PREFIX, MAX_API_KEYS, messages } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import createClient from 'openapi-fetch';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditEvents, lookups, users } from '../../src/db/schema.ts';
import { INTEL_DEMO } from '../../src/sandbox/index.ts';
import { answered } from '../support/answered.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';
import type { paths } from '../support/openapi-types.generated.ts';
import { committedTypes, typesOf } from '../support/openapi-types.ts';

/** Requests one key may make per minute in this file: small, so the 429 is reached quickly. */
const KEY_RATE_LIMIT = 6;

let t: TestApp;
let client: ReturnType<typeof createClient<paths>>;
let owner: Awaited<ReturnType<typeof createUser>>;
let session: { authorization: string; 'x-device-id': string };

/** A day of next year, 'MM-DD' (or 'MM-DDThh:mm:ssZ'): within the longest expiry a key may carry. */
const nextYear = (rest: string) => `${new Date().getUTCFullYear() + 1}-${rest}`;
/** The day `years` from today. */
const inYears = (years: number) => {
  const day = new Date();
  day.setUTCFullYear(day.getUTCFullYear() + years);
  return day.toISOString().slice(0, 10);
};

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function makeKey(body: paths['/api/api-keys']['post']['requestBody']['content']['application/json']) {
  const { data, error, response } = await client.POST('/api/api-keys', { body, headers: session });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
}

const creditsOf = async (userId: string) =>
  (await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)))[0]!.credits;

beforeAll(async () => {
  t = await createTestApp({ env: { API_KEY_RATE_LIMIT: String(KEY_RATE_LIMIT), COST_TEL: '1' } });
  // The leak search needs an index that can answer (an empty one, with no leak vendor, is a 503).
  await addLeakRecords(t.db, { name: 'Fixture Breach' }, [{ name: 'Fixture Person' }]);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });
  owner = await createUser(t.db, { appMode: 'live', credits: 100 });
  const signedIn = await signIn(t, owner.email, owner.password);
  session = { authorization: `Bearer ${signedIn.token}`, 'x-device-id': signedIn.deviceId };
});
afterAll(() => t?.close());

describe('the typed client', () => {
  it('is generated from the live OpenAPI document (the committed types have not drifted)', async () => {
    const { data, response } = await client.GET('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(await typesOf(data)).toBe(await committedTypes());
  });

  it('finds the key scheme and each route’s scope in the document', async () => {
    const { data } = await client.GET('/api/openapi.json');
    const doc = data as unknown as OpenAPIV3_1.Document;
    expect(doc.components?.securitySchemes?.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths?.['/api/tel']?.get?.security).toEqual([{ bearer: [] }, { apiKey: ['lookups'] }]);
    expect(doc.paths?.['/api/leak-data-finder']?.post?.security).toEqual([
      { bearer: [] },
      { apiKey: ['leaks'] },
    ]);
    expect(doc.paths?.['/api/corporate-intelligence']?.post?.security).toContainEqual({ apiKey: ['intel'] });
    expect(doc.paths?.['/api/generate-report']?.post?.security).toContainEqual({ apiKey: ['reports'] });
    expect(doc.paths?.['/api/history/{id}']?.get?.security).toContainEqual({ apiKey: ['lookups'] });
    // Session only: the keys themselves, the account.
    expect(doc.paths?.['/api/api-keys']?.post?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths?.['/api/user']?.get?.security).toEqual([{ bearer: [] }]);
  });
});

describe('a key with the lookups scope', () => {
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    const created = await makeKey({ name: 'Case intake script', scopes: ['lookups'] });
    key = created.key;
    keyId = created.id;
  });

  it('is answered once, long and random, and listed afterwards without the secret', async () => {
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(key).toMatch(/^fp_[A-Za-z0-9_-]{43}$/);
    const { data } = await client.GET('/api/api-keys', { headers: session });
    const listed = data!.api_keys.find((k) => k.id === keyId)!;
    expect(listed).toMatchObject({
      name: 'Case intake script',
      scopes: ['lookups'],
      prefix: `${key.slice(0, 7)}…`,
      last_used_at: null,
      revoked_at: null,
      expires_at: null,
      monthly_credit_cap: null,
      credits_this_month: 0,
    });
    expect(JSON.stringify(data)).not.toContain(key);
    // Only the hash is stored.
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(JSON.stringify(row)).not.toContain(key.slice(7));
  });

  it('runs a sandbox phone lookup, charged to the owner and named in the audit trail', async () => {
    const before = await creditsOf(owner.id);
    const { data: answer, response } = await client.GET('/api/tel', {
      params: { query: { number: '919876543210' } },
      headers: bearer(key),
    });
    expect(response.status).toBe(200);
    const data = answered(answer);
    expect(data!.sandbox).toBe(true);
    expect(data!.credits).toBe(before - 1);

    const [row] = await t.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.details}->>'lookup_id' = ${data!.lookup_id}`);
    expect(row).toMatchObject({ action: 'lookup.tel', outcome: 'success', userId: owner.id, cost: 1 });
    expect(row!.details).toMatchObject({ api_key_id: keyId, api_key_name: 'Case intake script' });
    const [lookup] = await t.db.select().from(lookups).where(eq(lookups.id, data!.lookup_id));
    expect(lookup!.apiKeyId).toBe(keyId);

    // The lookup reads back by id, and the list shows the spend and the use.
    const detail = await client.GET('/api/history/{id}', {
      params: { path: { id: data!.lookup_id } },
      headers: bearer(key),
    });
    expect(detail.response.status).toBe(200);
    const { data: list } = await client.GET('/api/api-keys', { headers: session });
    const listed = list!.api_keys.find((k) => k.id === keyId)!;
    expect(listed.credits_this_month).toBe(1);
    expect(listed.last_used_at).not.toBeNull();
  });

  it('counts a refunded "no record" as nothing spent against the key (the charging rule)', async () => {
    const before = await creditsOf(owner.id);
    // The sandbox registry does not know this RC: no record, refunded.
    const { data, response } = await client.POST('/api/rcfull-details', {
      body: { id_number: 'KA01FP0000' },
      headers: bearer(key),
    });
    expect(response.status).toBe(200);
    expect(answered(data).credits).toBe(before);
    const { data: list } = await client.GET('/api/api-keys', { headers: session });
    expect(list!.api_keys.find((k) => k.id === keyId)!.credits_this_month).toBe(1);
  });

  it('reaches nothing outside its scopes: not the account, not the keys, not the leak search', async () => {
    const user = await client.GET('/api/user', { headers: bearer(key) });
    expect(user.response.status).toBe(403);
    expect(user.error).toMatchObject({ message: messages.apiKeys.routeNotForKeys });
    // A key cannot make, list or revoke keys.
    const mint = await client.POST('/api/api-keys', {
      body: { name: 'Minted by a key', scopes: ['lookups', 'leaks'] },
      headers: bearer(key),
    });
    expect(mint.response.status).toBe(403);
    expect((await client.GET('/api/api-keys', { headers: bearer(key) })).response.status).toBe(403);
    const leak = await client.POST('/api/leak-data-finder', {
      params: { query: {} },
      body: { fields: [{ type: 'name', value: 'Rohan Deshmukh' }] },
      headers: bearer(key),
    });
    expect(leak.response.status).toBe(403);
    expect(leak.error).toMatchObject({ message: messages.apiKeys.missingScope('leaks') });
  });
});

describe('keys of the other scopes', () => {
  /** The audit row of a search by its lookup id. */
  const auditOf = async (lookupId: string) =>
    (await t.db.select().from(auditEvents).where(sql`${auditEvents.details}->>'lookup_id' = ${lookupId}`))[0];

  it('a leaks key searches the Leak Data Finder, named in the audit trail', async () => {
    const { key, id } = await makeKey({ name: 'Leak sweep', scopes: ['leaks'] });
    const { data, response, error } = await client.POST('/api/leak-data-finder', {
      params: { query: { page: 1, per_page: 10 } },
      body: { fields: [{ type: 'name', value: 'Rohan Deshmukh' }] },
      headers: bearer(key),
    });
    expect(response.status, JSON.stringify(error)).toBe(200);
    const row = await auditOf(data!.lookup_id);
    expect(row!.details).toMatchObject({ api_key_id: id, api_key_name: 'Leak sweep' });
  });

  it('an intel key runs a corporate search, named in the audit trail', async () => {
    const { key } = await makeKey({ name: 'KYC batch', scopes: ['intel'] });
    const { data, response, error } = await client.POST('/api/corporate-intelligence', {
      body: { type: 'corporate_gstin', data: { id_number: INTEL_DEMO.gstin, year: '2024' } },
      headers: bearer(key),
    });
    expect(response.status, JSON.stringify(error)).toBe(200);
    const lookupId = (data as { lookup_id: string }).lookup_id;
    expect((await auditOf(lookupId))!.details).toMatchObject({ api_key_name: 'KYC batch' });
  });
});

describe('a key with the lookups and reports scopes', () => {
  it('runs a lookup and downloads its PDF report, the report audited under the key', async () => {
    const { key } = await makeKey({ name: 'Report robot', scopes: ['lookups', 'reports'] });
    const lookup = await client.GET('/api/tel', {
      params: { query: { number: '919876543210', fresh: '1' } },
      headers: bearer(key),
    });
    expect(lookup.response.status).toBe(200);
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/generate-report',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: JSON.stringify({
        userInput: '9876543210',
        type: 'tel',
        results: { lookup_id: answered(lookup.data).lookup_id },
      }),
    });
    expect(report.statusCode, report.body.slice(0, 200)).toBe(200);
    expect(report.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const [row] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'report.lookup'),
          sql`${auditEvents.details}->>'api_key_name' = 'Report robot'`,
        ),
      );
    expect(row).toMatchObject({ outcome: 'success', userId: owner.id });
  });
});

describe('every operation of the document', () => {
  it('refuses a key outside its scopes: session-only operations refuse a key of every scope', async () => {
    const { data } = await client.GET('/api/openapi.json');
    const doc = data as unknown as OpenAPIV3_1.Document;
    const { key: everything } = await makeKey({
      name: 'Every scope',
      scopes: ['lookups', 'leaks', 'intel', 'reports', 'bulk'],
    });
    const { key: bulkOnly } = await makeKey({ name: 'Bulk only', scopes: ['bulk'] });
    const checked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of ['get', 'post', 'patch', 'delete'] as const) {
        const op = item?.[method];
        if (!op?.security?.length) continue;
        const scope = op.security.flatMap((requirement) => requirement.apiKey ?? [])[0];
        // A key of every scope on a session-only operation, or a bulk-only key on any other.
        const key = scope ? bulkOnly : everything;
        if (scope === 'bulk') continue;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
          headers: { ...bearer(key), ...(method === 'get' ? {} : { 'content-type': 'application/json' }) },
          ...(method === 'get' ? {} : { payload: '{}' }),
        });
        expect(res.statusCode, `${method} ${path}`).toBe(403);
        expect(res.json().message, `${method} ${path}`).toBe(
          scope ? messages.apiKeys.missingScope(scope) : messages.apiKeys.routeNotForKeys,
        );
        checked.push(`${method} ${path}`);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['get /api/user', 'get /api/tel', 'post /api/api-keys']));
    expect(checked.length).toBeGreaterThan(40);
  });
});

describe('refused keys', () => {
  it('POST /api/logout with a key is a 403 that ends nothing: a key is revoked, not logged out', async () => {
    const { key } = await makeKey({ name: 'Not a session', scopes: ['lookups'] });
    const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(key) });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(messages.apiKeys.routeNotForKeys);
    expect((await client.GET('/api/sources', { headers: bearer(key) })).response.status).toBe(200);
    // A session still logs out with a 200, and so does a token nobody knows (logout is never a 401).
    const other = await signIn(t, owner.email, owner.password);
    const ended = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(ended.statusCode).toBe(200);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: bearer(`${API_KEY_PREFIX}${'x'.repeat(43)}`),
    });
    expect(unknown.statusCode).toBe(200);
  });

  it('a leaks-only key gets 403 on /api/tel, and is not charged', async () => {
    const { key } = await makeKey({ name: 'Leaks only', scopes: ['leaks'] });
    const before = await creditsOf(owner.id);
    const { response, error } = await client.GET('/api/tel', {
      params: { query: { number: '919876543210' } },
      headers: bearer(key),
    });
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ message: messages.apiKeys.missingScope('lookups') });
    expect(await creditsOf(owner.id)).toBe(before);
  });

  it('a revoked key gets 401; another account cannot revoke it (404)', async () => {
    const { key, id } = await makeKey({ name: 'Soon revoked', scopes: ['lookups'] });
    expect((await client.GET('/api/sources', { headers: bearer(key) })).response.status).toBe(200);

    const stranger = await createUser(t.db, { appMode: 'live', credits: 5 });
    const theirs = await signIn(t, stranger.email, stranger.password);
    const foreign = await client.DELETE('/api/api-keys/{id}', {
      params: { path: { id } },
      headers: { authorization: `Bearer ${theirs.token}` },
    });
    expect(foreign.response.status).toBe(404);
    expect((await client.GET('/api/sources', { headers: bearer(key) })).response.status).toBe(200);

    const revoked = await client.DELETE('/api/api-keys/{id}', { params: { path: { id } }, headers: session });
    expect(revoked.response.status).toBe(200);
    expect(revoked.data!.revoked_at).not.toBeNull();
    const after = await client.GET('/api/tel', {
      params: { query: { number: '919876543210' } },
      headers: bearer(key),
    });
    expect(after.response.status).toBe(401);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'api_key.revoke'), eq(auditEvents.target, id)));
    expect(audit!.details).toMatchObject({ api_key_name: 'Soon revoked' });
  });

  it('an expired key gets 401', async () => {
    const { key, id } = await makeKey({
      name: 'Short-lived',
      scopes: ['lookups'],
      expires_at: nextYear('01-31'),
    });
    expect((await client.GET('/api/sources', { headers: bearer(key) })).response.status).toBe(200);
    // Its expiry passes.
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, id));
    expect((await client.GET('/api/sources', { headers: bearer(key) })).response.status).toBe(401);
  });

  it('a key of an account that was disabled gets 401', async () => {
    const other = await createUser(t.db, { appMode: 'live', credits: 5 });
    const signed = await signIn(t, other.email, other.password);
    const made = await client.POST('/api/api-keys', {
      body: { name: 'Theirs', scopes: ['lookups'] },
      headers: { authorization: `Bearer ${signed.token}` },
    });
    expect(made.response.status).toBe(201);
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, other.id));
    expect((await client.GET('/api/sources', { headers: bearer(made.data!.key) })).response.status).toBe(401);
  });

  it('the monthly cap refuses the search that would pass it with 402, before any charge', async () => {
    const { key, id } = await makeKey({ name: 'Capped', scopes: ['lookups'], monthly_credit_cap: 2 });
    const tel = (number: string) =>
      client.GET('/api/tel', { params: { query: { number, fresh: '1' } }, headers: bearer(key) });
    expect((await tel('919123456780')).response.status).toBe(200);
    expect((await tel('919123456780')).response.status).toBe(200);
    const before = await creditsOf(owner.id);
    const refused = await tel('919123456780');
    expect(refused.response.status).toBe(402);
    expect(refused.error).toMatchObject({ message: messages.apiKeys.capReached(2, 2), credits: before });
    expect(await creditsOf(owner.id)).toBe(before);
    const [denied] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.outcome, 'denied'), sql`${auditEvents.details}->>'api_key_id' = ${id}`));
    expect(denied!.details).toMatchObject({ reason: 'api_key_monthly_cap', api_key_name: 'Capped' });
    // The session of the same account is not capped.
    const own = await client.GET('/api/tel', {
      params: { query: { number: '919123456780', fresh: '1' } },
      headers: session,
    });
    expect(own.response.status).toBe(200);
  });

  it('its own rate limit answers 429 with Retry-After', async () => {
    const { key } = await makeKey({ name: 'Busy script', scopes: ['lookups'] });
    for (let i = 0; i < KEY_RATE_LIMIT; i++) {
      expect((await client.GET('/api/sources', { headers: bearer(key) })).response.status).toBe(200);
    }
    const limited = await client.GET('/api/sources', { headers: bearer(key) });
    expect(limited.response.status).toBe(429);
    const retryAfter = Number(limited.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(limited.error).toMatchObject({ message: messages.apiKeys.rateLimited(retryAfter) });
    expect(limited.response.headers.get('ratelimit-policy')).toBe(`"api-key";q=${KEY_RATE_LIMIT};w=60`);
    expect(limited.response.headers.get('ratelimit')).toMatch(/^"api-key";r=0;t=\d+$/);
    // Another key of the same account has its own budget; the session is untouched.
    const { key: other } = await makeKey({ name: 'Quiet script', scopes: ['lookups'] });
    expect((await client.GET('/api/sources', { headers: bearer(other) })).response.status).toBe(200);
    expect((await client.GET('/api/sources', { headers: session })).response.status).toBe(200);
  });
});

describe('the RateLimit fields of keyed calls', () => {
  // Its own server with a short window, so that the window's end is seen in the test.
  const POINTS = 3;
  const WINDOW_SECONDS = 2;
  let paced: TestApp;
  let key: string;
  afterAll(() => paced?.close());

  beforeAll(async () => {
    paced = await createTestApp({
      limits: { apiKeyRequests: { points: POINTS, durationSeconds: WINDOW_SECONDS } },
    });
    const user = await createUser(paced.db, { appMode: 'live', credits: 20 });
    const { token } = await signIn(paced, user.email, user.password);
    const made = await paced.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Paced script', scopes: ['lookups'] }),
    });
    expect(made.statusCode).toBe(201);
    key = (made.json() as { key: string }).key;
  });

  const sources = () => paced.app.inject({ method: 'GET', url: '/api/sources', headers: bearer(key) });
  /** The `r` and `t` of a RateLimit field, after checking that it names the policy. */
  const standing = (field: unknown) => {
    const match = /^"api-key";r=(\d+);t=(\d+)$/.exec(String(field));
    expect(match, String(field)).not.toBeNull();
    return { remaining: Number(match![1]), reset: Number(match![2]) };
  };

  it('counts down per call, refuses with both fields and Retry-After, and comes back after the window', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < POINTS; i++) {
      const res = await sources();
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe(`"api-key";q=${POINTS};w=${WINDOW_SECONDS}`);
      const now = standing(res.headers.ratelimit);
      expect(now.reset).toBeGreaterThanOrEqual(0);
      expect(now.reset).toBeLessThanOrEqual(WINDOW_SECONDS);
      remaining.push(now.remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);

    const limited = await sources();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-policy']).toBe(`"api-key";q=${POINTS};w=${WINDOW_SECONDS}`);
    expect(standing(limited.headers.ratelimit).remaining).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 200));
    const after = await sources();
    expect(after.statusCode).toBe(200);
    expect(standing(after.headers.ratelimit).remaining).toBe(POINTS - 1);
  });

  it('is not sent to a session', async () => {
    const user = await createUser(paced.db, { appMode: 'live' });
    const { token } = await signIn(paced, user.email, user.password);
    const res = await paced.app.inject({
      method: 'GET',
      url: '/api/sources',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.ratelimit).toBeUndefined();
    expect(res.headers['ratelimit-policy']).toBeUndefined();
  });
});

describe('making keys', () => {
  it('refuses bad input with a clear 422 and makes nothing', async () => {
    const count = async () =>
      (
        await t.db.select({ n: sql<number>`count(*)::int` }).from(apiKeys).where(eq(apiKeys.userId, owner.id))
      )[0]!.n;
    const before = await count();
    const cases: Array<[unknown, string, string]> = [
      [{ name: 'x', scopes: [] }, 'scopes', 'Choose at least one scope.'],
      [{ name: 'x', scopes: ['admin'] }, 'scopes', 'Each scope must be one of'],
      [{ name: 'x', scopes: ['lookups', 'lookups'] }, 'scopes', 'Each scope may be given once.'],
      [{ name: 'bad\u007fname', scopes: ['lookups'] }, 'name', 'must not contain control characters'],
      [{ name: '  ', scopes: ['lookups'] }, 'name', 'The name field is required.'],
      [{ name: 'x'.repeat(10_000), scopes: ['lookups'] }, 'name', 'must not be greater than 80'],
      [{ name: 'x', scopes: ['lookups'], expires_at: '2020-01-01' }, 'expires_at', 'in the future'],
      [{ name: 'x', scopes: ['lookups'], expires_at: '2027-02-30' }, 'expires_at', 'must be a date'],
      [
        { name: 'x', scopes: ['lookups'], expires_at: nextYear('02-30T10:00:00Z') },
        'expires_at',
        'must be a date',
      ],
      [{ name: 'x', scopes: ['lookups'], expires_at: 'tomorrow' }, 'expires_at', 'must be a date'],
      // Past what a key should live (and past what the database can write: 9999-12-31 was a 500).
      [{ name: 'x', scopes: ['lookups'], expires_at: '9999-12-31' }, 'expires_at', 'within 5 years'],
      [
        { name: 'x', scopes: ['lookups'], expires_at: '9999-12-31T23:59:59+14:00' },
        'expires_at',
        'within 5 years',
      ],
      [{ name: 'x', scopes: ['lookups'], expires_at: inYears(6) }, 'expires_at', 'within 5 years'],
      [{ name: 'x', scopes: ['lookups'], expires_at: '0000-01-01' }, 'expires_at', 'in the future'],
      [{ name: 'x', scopes: ['lookups'], expires_at: '+275760-09-13' }, 'expires_at', 'must be a date'],
      [{ name: 'x', scopes: ['lookups'], expires_at: '-271821-04-20' }, 'expires_at', 'must be a date'],
      [{ name: 'x', scopes: ['lookups'], monthly_credit_cap: 0 }, 'monthly_credit_cap', 'at least 1'],
      [{ name: 'x', scopes: ['lookups'], monthly_credit_cap: 1.5 }, 'monthly_credit_cap', 'whole number'],
      [{ name: 'x', scopes: ['lookups'], extra: true }, 'extra', 'is not allowed'],
    ];
    for (const [body, field, text] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/api-keys',
        headers: { ...session, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      // Control characters are refused before any schema, with a 400 (http/input-guard.ts).
      const status = field === 'name' && text.includes('control') ? 400 : 422;
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json().errors[field]?.[0], field).toContain(text);
    }
    expect(await count()).toBe(before);
  });

  it(`limits an account to ${MAX_API_KEYS} active keys`, async () => {
    const busy = await createUser(t.db, { appMode: 'live' });
    const signed = await signIn(t, busy.email, busy.password);
    const headers = { authorization: `Bearer ${signed.token}` };
    for (let i = 0; i < MAX_API_KEYS; i++) {
      const res = await client.POST('/api/api-keys', {
        body: { name: `Key ${i}`, scopes: ['leaks'] },
        headers,
      });
      expect(res.response.status).toBe(201);
    }
    const refused = await client.POST('/api/api-keys', {
      body: { name: 'One more', scopes: ['leaks'] },
      headers,
    });
    expect(refused.response.status).toBe(422);
    expect(refused.error).toMatchObject({ message: messages.apiKeys.tooMany(MAX_API_KEYS) });
    // A revoked key frees its place.
    const { data } = await client.GET('/api/api-keys', { headers });
    await client.DELETE('/api/api-keys/{id}', { params: { path: { id: data!.api_keys[0]!.id } }, headers });
    const again = await client.POST('/api/api-keys', {
      body: { name: 'One more', scopes: ['leaks'] },
      headers,
    });
    expect(again.response.status).toBe(201);
  });

  it('needs a live account, and is audited', async () => {
    const trial = await createUser(t.db, { appMode: 'trial', credits: 5 });
    const signed = await signIn(t, trial.email, trial.password);
    const refused = await client.POST('/api/api-keys', {
      body: { name: 'Trial', scopes: ['lookups'] },
      headers: { authorization: `Bearer ${signed.token}` },
    });
    expect(refused.response.status).toBe(403);

    const created = await makeKey({
      name: 'Audited',
      scopes: ['lookups', 'reports'],
      monthly_credit_cap: 50,
    });
    const [row] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'api_key.create'), eq(auditEvents.target, created.id)));
    expect(row).toMatchObject({ userId: owner.id, outcome: 'success' });
    expect(row!.details).toMatchObject({
      api_key_name: 'Audited',
      scopes: ['lookups', 'reports'],
      monthly_credit_cap: 50,
    });
    expect(JSON.stringify(row!.details)).not.toContain(created.key);
  });

  it('answers 404 for an id that is not a key of the caller, whatever its shape', async () => {
    for (const id of ['not-a-uuid', '00000000-0000-0000-0000-000000000000', 'x'.repeat(400)]) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/api-keys/${id}`,
        headers: session,
      });
      expect(res.statusCode, id).toBe(404);
    }
  });
});

describe('the monthly cap under concurrency', () => {
  // Its own server without rate limits: the limiter's counter row would otherwise space the requests out.
  let quiet: TestApp;
  afterAll(() => quiet?.close());

  it('holds when a key’s searches arrive at once: one is charged, the others refused', async () => {
    quiet = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', COST_TEL: '1' } });
    const user = await createUser(quiet.db, { appMode: 'live', credits: 20 });
    const { token } = await signIn(quiet, user.email, user.password);
    const made = await quiet.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Burst', scopes: ['lookups'], monthly_credit_cap: 1 }),
    });
    expect(made.statusCode).toBe(201);
    const { key, id } = made.json() as { key: string; id: string };
    const answers = await Promise.all(
      ['919811100001', '919811100002', '919811100003', '919811100004', '919811100005'].map((number) =>
        quiet.app.inject({ method: 'GET', url: `/api/tel?number=${number}`, headers: bearer(key) }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 402, 402, 402, 402]);
    const [spent] = await quiet.db
      .select({ n: sql<number>`coalesce(sum(${lookups.cost}), 0)::int` })
      .from(lookups)
      .where(eq(lookups.apiKeyId, id));
    expect(spent!.n).toBe(1);
    const [after] = await quiet.db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, user.id));
    expect(after!.credits).toBe(19);
  });
});
