import type { LeakFieldType } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import {
  DEHASHED_SIZE,
  dehashed,
  dehashedQueryOf,
  dehashedSearcher,
} from '../../src/providers/http/dehashed.ts';
import { LEAK_VENDORS, leakSearchersFrom, leakVendorVariables } from '../../src/providers/leak-search.ts';
import type { LeakSearchQuery } from '../../src/providers/leak-vendor.ts';
import {
  SourceFailedError,
  SourceMisconfiguredError,
  SourceRateLimitedError,
} from '../../src/providers/types.ts';
import { DEHASHED_FAKE_KEY, dehashedFake, dehashedFakeEntries } from '../fakes/dehashed.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
/** Another server on the loopback network, for the redirect test. */
let elsewhere: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream(dehashedFake());
  elsewhere = await startFakeUpstream(dehashedFake());
});
afterAll(async () => {
  await upstream.close();
  await elsewhere.close();
});

const info = { id: 'dehashed', name: 'DeHashed', costPerCall: 0, currency: 'USD' };
const searcher = (apiKey = DEHASHED_FAKE_KEY) =>
  dehashedSearcher({ apiKey, baseUrl: upstream.url, timeoutMs: 5000 }, info);
const signal = () => AbortSignal.timeout(5000);

const query = (...rows: Array<[LeakFieldType, string, string]>): LeakSearchQuery => ({
  rows: rows.map(([type, raw, value]) => ({ type, raw, value })),
});
const byEmail = query(['email', 'Nikhil.Joshi@Example.TEST', 'nikhil.joshi@example.test']);
const expectedQuery = 'email:"nikhil.joshi@example.test"';

const lastRequest = () => upstream.requests[upstream.requests.length - 1]!;

describe('DeHashed API v2 adapter', () => {
  it('posts the query with the key, and keeps every documented field but passwords and hashes', async () => {
    upstream.setHandler(dehashedFake());
    const before = upstream.requests.length;
    const records = await searcher().search(byEmail, signal());
    expect(upstream.requests.length).toBe(before + 1);
    const req = lastRequest();
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v2/search');
    expect(req.headers['dehashed-api-key']).toBe(DEHASHED_FAKE_KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.accept).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({
      query: expectedQuery,
      page: 1,
      size: DEHASHED_SIZE,
      wildcard: false,
      regex: false,
      de_dupe: true,
    });

    const entries = dehashedFakeEntries(expectedQuery) as Array<Record<string, string[] | string>>;
    expect(records).toHaveLength(entries.length);
    expect(records[1]).toEqual({
      source: { name: entries[1]!.database_name, breach_date: null },
      name: entries[1]!.name,
      email: ['nikhil.joshi@example.test'],
      phone: entries[1]!.phone,
      username: entries[1]!.username,
      address: entries[1]!.address,
      other: { ip_address: (entries[1]!.ip_address as string[]).join(', ') },
    });
    expect(JSON.stringify(records)).not.toMatch(/synthetic-not-a-secret|synthetic-hash|password/i);
  });

  it('writes every row as a term: name tokens in any order, e-mail, username as typed, phone digits', () => {
    expect(
      dehashedQueryOf(
        query(
          ['name', 'Rohan  Deshmukh', 'rohan deshmukh'],
          ['phone', '+91 98765-43210', '9876543210'],
          ['username', 'Rohan_D', 'rohan_d'],
          ['email', 'O\'Brien"x@Example.test', 'o\'brien"x@example.test'],
        ).rows,
      ),
    ).toBe(
      'name:"rohan" AND name:"deshmukh" AND phone:"919876543210" AND username:"Rohan_D" AND email:"o\'brien\\"x@example.test"',
    );
  });

  it('reads the "nothing found" answer as no records, with empty or null entries', async () => {
    upstream.setHandler(dehashedFake());
    expect(
      await searcher().search(query(['email', 'nobody@example.test', 'nobody@example.test']), signal()),
    ).toEqual([]);
    upstream.setHandler((_req, res) =>
      sendJson(res, 200, { balance: 10, total: 0, took: '1ms', entries: null }),
    );
    expect(await searcher().search(byEmail, signal())).toEqual([]);
  });

  it('maps 401 and 403 to misconfigured, 429 to rate limited with Retry-After, 5xx, 400 and 404 to failed', async () => {
    upstream.setHandler(dehashedFake());
    await expect(searcher('a-wrong-key').search(byEmail, signal())).rejects.toBeInstanceOf(
      SourceMisconfiguredError,
    );
    upstream.setHandler((_req, res) => sendJson(res, 403, { error: 'Insufficient credits' }));
    await expect(searcher().search(byEmail, signal())).rejects.toBeInstanceOf(SourceMisconfiguredError);
    upstream.setHandler((_req, res) =>
      sendJson(res, 429, { error: 'Too many requests' }, { 'retry-after': '2' }),
    );
    const limited = await searcher()
      .search(byEmail, signal())
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(SourceRateLimitedError);
    expect((limited as SourceRateLimitedError).retryAfterMs).toBe(2000);
    for (const status of [500, 503, 400, 404]) {
      upstream.setHandler((_req, res) => sendJson(res, status, { error: 'Something' }));
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
      ['malformed', (res) => sendJson(res, 200, '{"total": 1, "entries": [{"email": ['), /malformed JSON/],
      [
        'html',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end('<!doctype html><title>Just a moment...</title>');
        },
        /text\/html, not JSON/,
      ],
      ['envelope', (res) => sendJson(res, 200, { error: 'Invalid query' }), /unexpected shape \(total\)/],
      [
        'total',
        (res) => sendJson(res, 200, { balance: 1, total: 'lots', entries: [] }),
        /unexpected shape \(total\)/,
      ],
      [
        'email',
        (res) => sendJson(res, 200, { balance: 1, total: 1, entries: [{ email: [42], database_name: 'X' }] }),
        /unexpected shape \(entries\.0\.email\)/,
      ],
      ['empty', (res) => sendJson(res, 200, ''), /unexpected shape/],
    ];
    for (const [name, answer, message] of bodies) {
      upstream.setHandler((_req, res) => answer(res));
      await expect(searcher().search(byEmail, signal()), name).rejects.toThrow(message);
    }
  });

  it('stops promptly when its signal aborts, even if DeHashed never answers', async () => {
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
      res.end(`{"balance":1,"total":1,"entries":[{"email":["${'x'.repeat(3 * 1024 * 1024)}"]}]}`);
    });
    await expect(searcher().search(byEmail, signal())).rejects.toThrow(/too large/);
    upstream.setHandler((req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}${req.url}` });
      res.end();
    });
    const before = elsewhere.requests.length;
    await expect(searcher().search(byEmail, signal())).rejects.toBeInstanceOf(SourceFailedError);
    expect(elsewhere.requests.length).toBe(before);
  });
});

describe('DeHashed as a leak-search vendor', () => {
  it('is off without a key and on with one, with its base URL, timeout and price', async () => {
    expect(LEAK_VENDORS).toContain(dehashed);
    expect(leakSearchersFrom({ DEHASHED_API_KEY: '' })).toEqual([]);
    const [on, ...others] = leakSearchersFrom({
      DEHASHED_API_KEY: DEHASHED_FAKE_KEY,
      DEHASHED_BASE_URL: `${upstream.url}/`,
      DEHASHED_TIMEOUT_MS: '2500',
      DEHASHED_COST_PER_CALL: '0.5',
    });
    expect(others).toEqual([]);
    expect(on).toMatchObject({
      vendor: { id: 'dehashed', name: 'DeHashed', costPerCall: 0.5, currency: 'USD' },
      searchable: ['name', 'email', 'phone', 'username'],
      timeoutMs: 2500,
    });
    upstream.setHandler(dehashedFake());
    expect(await on!.search(byEmail, signal())).toHaveLength(2);
    expect(lastRequest().url).toBe('/v2/search');
  });

  it('stops the start on a bad variable', () => {
    expect(() => leakSearchersFrom({ DEHASHED_API_KEY: 'k', DEHASHED_TIMEOUT_MS: 'soon' })).toThrow(
      ConfigError,
    );
    expect(() => leakSearchersFrom({ DEHASHED_API_KEY: 'k', DEHASHED_BASE_URL: 'ftp//nope' })).toThrow(
      /DEHASHED_BASE_URL/,
    );
  });

  it('describes every variable it reads', () => {
    const variables = leakVendorVariables([dehashed]);
    expect(Object.keys(variables).sort()).toEqual([
      'DEHASHED_API_KEY',
      'DEHASHED_BASE_URL',
      'DEHASHED_COST_PER_CALL',
      'DEHASHED_TIMEOUT_MS',
    ]);
    for (const [name, description] of Object.entries(variables)) expect(description, name).not.toBe('');
  });
});
