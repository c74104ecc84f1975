// Hostile input, generated: at least 12,000 requests per run across every route of the server's own
// route table (a new seed each day, so the runs together cover far more than one run could; the seed
// is printed, and HOSTILE_SEED replays it), with wrong types, huge strings, unicode, nested junk, missing and duplicated parameters, bad
// JSON and bad tokens. No answer may be a 5xx, every error must be a JSON body with a message, and a
// refused request may change no balance and no row.

import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.ts';
import { isApplicationRoute, routeTableOf } from '../src/http/route-table.ts';
import { WATERMARK } from '../src/modules/reviews/sampler.ts';
import { createTestApp, createUser, newDeviceId, signIn, type TestApp } from '../test/support/app.ts';
import { bookProblems } from './books.ts';

const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 12_000);
/** Today's date as a number (20261204): one seed per day, replayed with HOSTILE_SEED. */
const SEED = Number(process.env.HOSTILE_SEED ?? new Date().toISOString().slice(0, 10).replaceAll('-', ''));

let t: TestApp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({
    env: {
      RATE_LIMIT_ENABLED: 'false',
      SANDBOX_LATENCY: '*=0',
      // The review sampler draws every second, so its bookkeeping surely moves during the run: the
      // refusals' "no change" must not count it (state() below).
      REVIEW_SAMPLE_SECONDS: '1',
      LOG_LEVEL: process.env.HOSTILE_LOG ?? 'silent',
    },
  });
  for (const [name, options] of [
    ['trial', { appMode: 'trial', credits: 50 }],
    ['live', { appMode: 'live', credits: 500 }],
    ['admin', { appMode: 'live', role: 'admin', credits: 500 }],
  ] as const) {
    const deviceId = newDeviceId();
    const user = await createUser(t.db, { ...options, trustedDevice: deviceId });
    tokens[name] = (await signIn(t, user.email, user.password, deviceId)).token;
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/**
 * One row of everything a refused request must leave alone. Audit rows are left out on purpose: a
 * refused lookup or login is itself audited. Tokens are counted live only, since a failed login
 * creates none. The review sampler's watermark is left out too: its timer moves it, whatever a request
 * does (the first draw, a minute after the start, writes it).
 */
async function state(): Promise<string> {
  const [row] = rowsOf<Record<string, unknown>>(
    await t.db.execute(sql`select
      (select coalesce(sum(credits), 0) from users) as credits,
      (select count(*) from users) as users,
      (select string_agg(id::text || role || app_mode || status || name, ',' order by id) from users) as user_rows,
      (select count(*) from credit_entries) as entries,
      (select count(*) from lookups) as lookups,
      (select count(*) from reports) as reports,
      (select count(*) from settings where key <> ${WATERMARK}) as settings,
      (select string_agg(key || value::text, ',' order by key) from settings
        where key not in ('app_key', ${WATERMARK})) as setting_rows,
      (select count(*) from auth_tokens where revoked_at is null) as tokens,
      (select count(*) from password_resets) as resets,
      (select count(*) from leak_sources) as leak_sources`),
  );
  return JSON.stringify(row);
}

// ---------------------------------------------------------------- generators

/** Days at and past the edges of the calendar, JavaScript's Date and PostgreSQL's timestamp. */
const EXTREME_DATES = [
  '9999-12-31',
  '9999-12-31T23:59:59+14:00',
  '0000-01-01',
  '0001-01-01',
  '-271821-04-20',
  '+275760-09-13',
  '+275760-09-14',
  '2026-02-30',
  '2024-02-29',
  '1e999',
  '99999-01-01',
  '1970-01-01T00:00:00-14:00',
] as const;

const hugeString = fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'A'.repeat(n));
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    "' OR 1=1 --",
    '"; drop table users; --',
    '.*',
    '(a+)+$',
    '%',
    '_',
    '\\',
    '\u0000',
    '\ud800',
    '‮evil',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '{{7*7}}',
    '${jndi:ldap://127.0.0.1/a}',
    '__proto__',
    'constructor',
    '9876543210',
    '+919876543210',
    'rich.demo@example.test',
    'MH12FP1234',
    'ABCDE1234F',
    '1800-01-01',
    ...EXTREME_DATES,
    'Y',
    'N',
  ),
  hugeString,
);
const junkValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(nastyString, fc.constantFrom('__proto__', 'constructor', 'type', 'data')),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
  ),
})).value;

/** Plausible bodies per route, so that mutations reach deep validation, not only the first check. */
const templates: Record<string, Record<string, unknown>> = {
  'POST /api/login': { email: 'someone@example.test', password: 'hostile input passphrase' },
  'POST /api/register': {
    name: 'A B',
    email: 'new@example.test',
    password: 'hostile input passphrase',
    password_confirmation: 'hostile input passphrase',
    organisation: 'Synthetic Bureau',
    designation: 'Analyst',
    identity_reference: 'EMP-0001',
  },
  'POST /api/verify-email-otp': { email: 'someone@example.test', otp: '123456' },
  'POST /api/resend-otp': { email: 'someone@example.test' },
  'POST /forgot-password': { email: 'someone@example.test' },
  'POST /api/reset-password': {
    token: 'x'.repeat(40),
    email: 'someone@example.test',
    password: 'hostile input passphrase',
    password_confirmation: 'hostile input passphrase',
  },
  'POST /api/leak-data-finder/': {
    fields: [{ id: 1, type: 'email', value: 'rich.demo@example.test', isValid: true, error: '' }],
  },
  'POST /api/rcfull-details': { id_number: 'MH12FP1234' },
  'POST /api/upifull-details': { upi_id: 'rohan.deshmukh@oksbi' },
  'POST /api/rc-challan-details': { rc_number: 'MH12FP1234' },
  'POST /api/corporate-intelligence': {
    type: 'corporate_gstin',
    data: { id_number: '27AAPFU0939F1ZV', year: '2024' },
  },
  'POST /api/verification-id': { type: 'pan', data: { pan: 'ABCDE1234F' } },
  'POST /api/generate-report': { type: 'phone', query: '919876543210' },
  'POST /api/api-keys': { name: 'Hostile', scopes: ['lookups'], expires_at: '2027-01-31' },
  'PATCH /api/admin/settings': { registration_enabled: true },
  'POST /api/admin/users': {
    name: 'New Person',
    email: 'new.person@example.test',
    role: 'user',
    app_mode: 'trial',
  },
  'PATCH /api/admin/users/:id': { name: 'Renamed' },
  'POST /api/admin/users/:id/credits': { amount: 5, reason: 'hostile test' },
  'POST /api/admin/users/:id/reject': { reason: 'hostile test' },
};

function bodyFor(key: string): fc.Arbitrary<{ text?: string; contentType?: string }> {
  const template = templates[key] ?? {};
  const keys = Object.keys(template);
  const json = (value: unknown) => ({ text: JSON.stringify(value), contentType: 'application/json' });
  return fc.oneof(
    // A template with one field replaced by junk, or removed, or with an extra junk field.
    keys.length > 0
      ? fc
          .tuple(fc.constantFrom(...keys), junkValue, fc.constantFrom('replace', 'remove', 'extra'))
          .map(([field, value, how]) => {
            const body: Record<string, unknown> = { ...template };
            if (how === 'replace') body[field] = value;
            else if (how === 'remove') delete body[field];
            else body[`${field}_x`] = value;
            return json(body);
          })
      : junkValue.map(json),
    junkValue.map(json),
    fc.constantFrom(
      { text: '{"a":', contentType: 'application/json' },
      { text: '{"__proto__":{"isAdmin":true}}', contentType: 'application/json' },
      { text: '{"constructor":{"prototype":{"x":1}}}', contentType: 'application/json' },
      { text: 'not json at all', contentType: 'application/json' },
      { text: '', contentType: 'application/json' },
      { text: 'a=1&a=2', contentType: 'application/x-www-form-urlencoded' },
      { text: '<xml/>', contentType: 'text/xml' },
      {},
    ),
  );
}

/** Percent-encoding that survives lone surrogates (sent as an invalid UTF-8 sequence instead). */
function enc(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `%ED%A0%80${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}`;
  }
}

const rawQuery = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  'a[b]=1',
  'a[__proto__][x]=1',
  'page=1&page=2&page=x',
  '&&&',
  '=',
);

const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        nastyString,
        fc.constantFrom(
          'number',
          'email',
          'page',
          'per_page',
          'kind',
          'q',
          'from',
          'to',
          'case_reference',
          'sha256',
        ),
      ),
      nastyString,
    ),
    {
      maxLength: 5,
    },
  )
  .map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v.slice(0, 5_000))}`).join('&'));

const authHeader = fc
  .oneof(fc.constantFrom('none', 'trial', 'live', 'admin', 'garbage', 'malformed'))
  .map((who) => {
    if (who === 'none') return {};
    if (who === 'garbage') return { authorization: `Bearer ${'x'.repeat(43)}` };
    if (who === 'malformed') return { authorization: 'Basic Zm9vOmJhcg==' };
    return { authorization: `Bearer ${tokens[who]}` };
  });

describe('hostile input (generated)', () => {
  it(`answers ${REQUESTS.toLocaleString('en')} generated requests without a 5xx, with JSON errors and no change on refusal`, async () => {
    const routes = routeTableOf(t.app).filter((r) => isApplicationRoute(r.url));
    expect(routes.length).toBeGreaterThan(20);
    const perRoute = Math.ceil(REQUESTS / routes.length);
    let sent = 0;
    let before = await state();
    const before0 = before;
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const request = fc.record({
        params: fc.array(nastyString, { minLength: 3, maxLength: 3 }),
        query: fc.oneof(queryString, rawQuery),
        body: bodyFor(key),
        auth: route.url === '/api/logout' ? fc.constant({}) : authHeader,
        deviceId: fc.oneof(
          fc.constant(undefined),
          nastyString.map((s) => s.slice(0, 300)),
        ),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          let i = 0;
          const url = route.url.replace(
            /:[a-zA-Z_]+/g,
            () => enc((r.params[i++] ?? 'x').slice(0, 400)) || 'x',
          );
          const headers: Record<string, string> = { ...r.auth };
          if (r.deviceId !== undefined) headers['x-device-id'] = r.deviceId.replace(/[^\x20-\x7e]/g, '?');
          if (r.body.contentType) headers['content-type'] = r.body.contentType;
          const res = await t.app.inject({
            method: route.method as 'GET',
            url: `${url}${r.query ? `?${r.query}` : ''}`,
            headers,
            ...(route.method === 'GET' || r.body.text === undefined ? {} : { payload: r.body.text }),
          });
          sent++;
          const where = `${route.method} ${url} → ${res.statusCode}: ${res.body.slice(0, 300)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(res.headers['content-type'], where).toMatch(/application\/json/);
            expect(typeof res.json().message, where).toBe('string');
            const after = await state();
            expect(after, where).toBe(before);
          } else {
            before = await state();
          }
        }),
        { numRuns: perRoute, seed: SEED, endOnFailure: true },
      );
    }
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    expect(await bookProblems(t.db)).toEqual([]);
    console.log(
      `hostile input: ${sent} requests over ${routes.length} routes, seed ${SEED} (HOSTILE_SEED); state ${before0 === before ? 'unchanged' : 'changed only by accepted requests'}`,
    );
  }, 1_200_000);

  it('answers every extreme date on every date field without a 5xx, and a refused one changes nothing', async () => {
    const live = { authorization: `Bearer ${tokens.live}` };
    const admin = { authorization: `Bearer ${tokens.admin}` };
    /** Each date field of the API, as a request with that field set to a value. */
    const fields: Array<[string, (value: string) => Parameters<TestApp['app']['inject']>[0] & object]> = [
      [
        'POST /api/api-keys expires_at',
        (value) => ({
          method: 'POST',
          url: '/api/api-keys',
          headers: live,
          payload: { name: 'Dated', scopes: ['lookups'], expires_at: value },
        }),
      ],
      [
        'GET /api/admin/audit from',
        (value) => ({ method: 'GET', url: `/api/admin/audit?from=${enc(value)}`, headers: admin }),
      ],
      [
        'GET /api/admin/audit to',
        (value) => ({ method: 'GET', url: `/api/admin/audit?to=${enc(value)}`, headers: admin }),
      ],
      [
        'GET /api/admin/audit.csv from+to',
        (value) => ({
          method: 'GET',
          url: `/api/admin/audit.csv?from=${enc(value)}&to=${enc(value)}`,
          headers: admin,
        }),
      ],
      [
        'POST /api/verification-id dob',
        (value) => ({
          method: 'POST',
          url: '/api/verification-id',
          headers: live,
          payload: { type: 'driving_license', data: { dl_number: 'MH1220110012345', dob: value } },
        }),
      ],
    ];
    let before = await state();
    for (const [name, request] of fields) {
      for (const value of EXTREME_DATES) {
        const res = await t.app.inject(request(value));
        const where = `${name} = ${value} → ${res.statusCode}: ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(typeof res.json().message, where).toBe('string');
          expect(await state(), where).toBe(before);
        } else {
          before = await state();
        }
      }
    }
    // Keys made here are revoked again, so the generated requests keep their room under the limit.
    await t.db.execute(sql`update api_keys set revoked_at = now() where name = 'Dated'`);
  }, 120_000);
});
