import type { LeakFieldType } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { LEAKCHECK_LIMIT, leakCheckSearcher, leakcheck } from '../../src/providers/http/leakcheck.ts';
import { LEAK_VENDORS, leakSearchersFrom, leakVendorVariables } from '../../src/providers/leak-search.ts';
import type { LeakSearchQuery } from '../../src/providers/leak-vendor.ts';
import {
  SourceFailedError,
  SourceMisconfiguredError,
  SourceRateLimitedError,
} from '../../src/providers/types.ts';
import { LEAKCHECK_FAKE_KEY, leakCheckFake, leakCheckFakeRows } from '../fakes/leakcheck.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
/** Another host on the loopback network, for the redirect test. */
let elsewhere: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream(leakCheckFake());
  elsewhere = await startFakeUpstream(leakCheckFake());
});
afterAll(async () => {
  await upstream.close();
  await elsewhere.close();
});

const info = { id: 'leakcheck', name: 'LeakCheck', costPerCall: 0, currency: 'USD' };
const searcher = (apiKey = LEAKCHECK_FAKE_KEY) =>
  leakCheckSearcher({ apiKey, baseUrl: `${upstream.url}/api/v2`, timeoutMs: 5000 }, info);
const signal = () => AbortSignal.timeout(5000);

const query = (...rows: Array<[LeakFieldType, string, string?]>): LeakSearchQuery => ({
  rows: rows.map(([type, raw, value]) => ({ type, raw, value: value ?? raw.toLowerCase() })),
});
const byEmail = query(['email', 'Kabir.Menon@Example.TEST', 'kabir.menon@example.test']);

/** The last request the fake received. */
const lastRequest = () => upstream.requests[upstream.requests.length - 1]!;

describe('LeakCheck API v2 adapter', () => {
  it('asks for the e-mail with the key, and keeps every documented field but the password', async () => {
    upstream.setHandler(leakCheckFake());
    const before = upstream.requests.length;
    const records = await searcher().search(byEmail, signal());
    expect(upstream.requests.length).toBe(before + 1);
    const req = lastRequest();
    expect(req.method).toBe('GET');
    expect(req.url).toBe(`/api/v2/query/kabir.menon%40example.test?type=email&limit=${LEAKCHECK_LIMIT}`);
    expect(req.headers['x-api-key']).toBe(LEAKCHECK_FAKE_KEY);
    expect(req.headers.accept).toBe('application/json');
    expect(req.body).toBe('');

    const rows = leakCheckFakeRows('email', 'kabir.menon@example.test');
    expect(records).toHaveLength(rows.length);
    const first = rows[0] as { first_name: string; last_name: string; username: string; phone: string };
    expect(records[0]).toEqual({
      source: {
        name: (rows[0]!.source as { name: string }).name,
        breach_date: (rows[0]!.source as { breach_date: string }).breach_date,
      },
      name: [`${first.first_name} ${first.last_name}`],
      email: ['kabir.menon@example.test'],
      phone: [first.phone],
      username: [first.username],
      address: [],
      other: {},
    });
    // The second row's address has its place; its "passwordless" flag is not a field.
    expect(records[1]!.address).toEqual([rows[1]!.address]);
    expect(JSON.stringify(records)).not.toMatch(/synthetic-not-a-secret|password/i);
  });

  it('sends the phone digits as typed and a username as typed, and never a name', async () => {
    upstream.setHandler(leakCheckFake());
    await searcher().search(
      query(['name', 'Kabir Menon'], ['phone', '+91 98765-43210', '9876543210']),
      signal(),
    );
    expect(lastRequest().url).toBe(`/api/v2/query/919876543210?type=phone&limit=${LEAKCHECK_LIMIT}`);
    await searcher().search(query(['phone', '9876543210'], ['username', 'Kabir_M']), signal());
    expect(lastRequest().url).toBe(`/api/v2/query/Kabir_M?type=username&limit=${LEAKCHECK_LIMIT}`);
    const before = upstream.requests.length;
    await expect(searcher().search(query(['name', 'Kabir Menon']), signal())).rejects.toThrow(
      'cannot search by name',
    );
    expect(upstream.requests.length).toBe(before);
  });

  it('reads the documented "nothing found" as no records, with an empty or a null result', async () => {
    upstream.setHandler(leakCheckFake());
    expect(await searcher().search(query(['email', 'nobody@example.test']), signal())).toEqual([]);
    upstream.setHandler((_req, res) =>
      sendJson(res, 200, { success: true, found: 0, quota: 399, result: null }),
    );
    expect(await searcher().search(byEmail, signal())).toEqual([]);
  });

  it('keeps extra fields as text, and drops credential-like ones whatever their name', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(res, 200, {
        success: true,
        found: 1,
        quota: 10,
        result: [
          {
            email: 'kabir.menon@example.test',
            dob: '1990-02-03',
            zip: '411045',
            city: 'Pune',
            login_count: 7,
            password_hash: 'abc',
            salt: 'x',
            nested: { ignored: true },
            fields: ['email', 'dob', 'zip', 'city'],
            source: { name: 'Orbitly', breach_date: '2021-03', unverified: 1, compilation: 1 },
          },
        ],
      }),
    );
    const [record] = await searcher().search(byEmail, signal());
    expect(record!.other).toEqual({
      dob: '1990-02-03',
      zip: '411045',
      city: 'Pune',
      login_count: '7',
      unverified_source: 'yes',
      compilation: 'yes',
    });
  });

  it('maps 401 to misconfigured (a wrong key), 429 to rate limited with Retry-After, 5xx and 404 to failed', async () => {
    upstream.setHandler(leakCheckFake());
    await expect(searcher('a-wrong-key').search(byEmail, signal())).rejects.toBeInstanceOf(
      SourceMisconfiguredError,
    );
    upstream.setHandler((_req, res) =>
      sendJson(res, 429, { success: false, error: 'Too many requests' }, { 'retry-after': '7' }),
    );
    const limited = await searcher()
      .search(byEmail, signal())
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(SourceRateLimitedError);
    expect((limited as SourceRateLimitedError).retryAfterMs).toBe(7000);
    for (const status of [500, 502, 404, 400]) {
      upstream.setHandler((_req, res) => sendJson(res, status, { success: false, error: 'Server error' }));
      const failed = await searcher()
        .search(byEmail, signal())
        .catch((error: unknown) => error);
      expect(failed, String(status)).toBeInstanceOf(SourceFailedError);
      expect(failed, String(status)).not.toBeInstanceOf(SourceMisconfiguredError);
      expect((failed as SourceFailedError).status, String(status)).toBe(status);
    }
  });

  it('refuses malformed JSON, an HTML page, an error envelope sent with 200 and a field of the wrong type', async () => {
    const bodies: Array<[string, (res: import('node:http').ServerResponse) => void, RegExp]> = [
      [
        'malformed',
        (res) => sendJson(res, 200, '{"success": true, "found": 1, "result": ['),
        /malformed JSON/,
      ],
      [
        'html',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html><body>Checking your browser…</body></html>');
        },
        /text\/html, not JSON/,
      ],
      [
        'envelope',
        (res) => sendJson(res, 200, { success: false, error: 'Invalid type' }),
        /unexpected shape \(success\)/,
      ],
      [
        'found',
        (res) => sendJson(res, 200, { success: true, found: 'many', quota: 1, result: [] }),
        /unexpected shape \(found\)/,
      ],
      [
        'email',
        (res) =>
          sendJson(res, 200, {
            success: true,
            found: 1,
            quota: 1,
            result: [{ email: 42, source: { name: 'X' } }],
          }),
        /unexpected shape \(result\.0\.email\)/,
      ],
      ['empty', (res) => sendJson(res, 200, ''), /unexpected shape/],
    ];
    for (const [name, answer, message] of bodies) {
      upstream.setHandler((_req, res) => answer(res));
      await expect(searcher().search(byEmail, signal()), name).rejects.toThrow(message);
    }
  });

  it('stops promptly when its signal aborts, even if LeakCheck never answers', async () => {
    upstream.setHandler(() => {
      // Never answers.
    });
    const started = Date.now();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('time is up')), 100);
    await expect(searcher().search(byEmail, controller.signal)).rejects.toThrow('time is up');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses an oversized answer and a redirect to another host', async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"success":true,"found":1,"quota":1,"result":[{"email":"${'x'.repeat(3 * 1024 * 1024)}"}]}`);
    });
    await expect(searcher().search(byEmail, signal())).rejects.toThrow(/too large/);
    upstream.setHandler((req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}${req.url}` });
      res.end();
    });
    const before = elsewhere.requests.length;
    await expect(searcher().search(byEmail, signal())).rejects.toBeInstanceOf(SourceFailedError);
    expect(elsewhere.requests.length).toBe(before);
  });
});

describe('LeakCheck as a leak-search vendor', () => {
  it('is off without a key and on with one, with its base URL, timeout and price', () => {
    expect(LEAK_VENDORS).toContain(leakcheck);
    expect(leakSearchersFrom({})).toEqual([]);
    expect(leakSearchersFrom({ LEAKCHECK_API_KEY: '  ' })).toEqual([]);
    const [on, ...others] = leakSearchersFrom({
      LEAKCHECK_API_KEY: LEAKCHECK_FAKE_KEY,
      LEAKCHECK_BASE_URL: `${upstream.url}/api/v2/`,
      LEAKCHECK_TIMEOUT_MS: '1500',
      LEAKCHECK_COST_PER_CALL: '0.02',
    });
    expect(on).toMatchObject({
      vendor: { id: 'leakcheck', name: 'LeakCheck', costPerCall: 0.02, currency: 'USD' },
      searchable: ['email', 'username', 'phone'],
      timeoutMs: 1500,
    });
    expect(others).toEqual([]);
    expect(leakSearchersFrom({ LEAKCHECK_API_KEY: 'k' })[0]!.timeoutMs).toBe(5000);
  });

  it('stops the start on a bad variable', () => {
    expect(() => leakSearchersFrom({ LEAKCHECK_API_KEY: 'k', LEAKCHECK_TIMEOUT_MS: '10' })).toThrow(
      ConfigError,
    );
    expect(() => leakSearchersFrom({ LEAKCHECK_API_KEY: 'k', LEAKCHECK_BASE_URL: 'not a url' })).toThrow(
      ConfigError,
    );
    expect(() => leakSearchersFrom({ LEAKCHECK_API_KEY: 'k', LEAKCHECK_COST_PER_CALL: '-1' })).toThrow(
      /LEAKCHECK_COST_PER_CALL/,
    );
  });

  it('describes every variable it reads', () => {
    const variables = leakVendorVariables([leakcheck]);
    expect(Object.keys(variables).sort()).toEqual([
      'LEAKCHECK_API_KEY',
      'LEAKCHECK_BASE_URL',
      'LEAKCHECK_COST_PER_CALL',
      'LEAKCHECK_TIMEOUT_MS',
    ]);
    for (const [name, description] of Object.entries(variables)) expect(description, name).not.toBe('');
  });
});
