// The osint.ly adapter (pseudonymData) against a fake osint.ly on 127.0.0.1 speaking the documented
// format over real HTTP and a real event stream: the accounts of a search, "no record", a refused key,
// a rate limit, a search that never finishes, hostile streams; then through GET /api/username with it as
// the only source (the sandbox and the site check off): charged when it finds accounts, refunded when not.
import type { ServerResponse } from 'node:http';
import { TaskCancelledError } from 'cockatiel';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lookups, users } from '../../src/db/schema.ts';
import {
  OSINTLY_MAX_EVENT_BYTES,
  OSINTLY_MAX_STREAM_BYTES,
  osintly,
  SseParser,
} from '../../src/providers/http/osintly.ts';
import {
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
  type VendorInfo,
} from '../../src/providers/types.ts';
import { OSINTLY_FAKE_KEY, osintlyFake, sse } from '../fakes/osintly.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { pdfText } from '../support/pdf.ts';
import { type RecordedRequest, sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream(osintlyFake());
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.setHandler(osintlyFake());
  upstream.requests.length = 0;
});

const info: VendorInfo = { id: 'osintly', name: 'osint.ly', costPerCall: 0, currency: 'USD' };

/** The adapter as the registry builds it, pointed at the fake. */
function provider(env: Record<string, string> = {}) {
  const config = osintly.configure(
    osintly.env.parse({ OSINTLY_API_KEY: OSINTLY_FAKE_KEY, OSINTLY_BASE_URL: `${upstream.url}/`, ...env }),
  );
  const [only] = osintly.providers(config!, info);
  return only!;
}

const search = (value: string, env: Record<string, string> = {}, signal = AbortSignal.timeout(8000)) =>
  provider(env).fetch({ kind: 'username', value }, signal);

/** A handler for the stream only; POST /search answered as the fake does. */
function streamWith(write: (res: ServerResponse) => unknown) {
  const fake = osintlyFake();
  return async (req: RecordedRequest, res: ServerResponse) => {
    if (!req.url.endsWith('/stream')) return fake(req, res);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.on('error', () => {});
    await write(res);
  };
}

const result = (name: string, username: string) =>
  sse('module.result', {
    search_id: 'x',
    module: { id: name, name },
    card: { [`${name}_001`]: { username, profile_url: `https://${name}.example.test/${username}` } },
    timestamp: '2026-06-23T14:10:03.000Z',
  });

describe('the event-stream parser', () => {
  it('reads events cut anywhere, in LF, CRLF or CR lines, skipping comments and unknown fields', () => {
    const text =
      ': hello\r\nevent: a\r\ndata: {"x":1}\r\n\r\nid: 7\nevent: b\ndata: one\ndata: two\n\nevent: c\rdata: 3\r\r: end\n';
    for (const size of [1, 2, 3, 5, 8, text.length]) {
      const parser = new SseParser();
      const events = [];
      for (let at = 0; at < text.length; at += size) events.push(...parser.push(text.slice(at, at + size)));
      expect(events, `pieces of ${size}`).toEqual([
        { event: 'a', data: '{"x":1}' },
        { event: 'b', data: 'one\ntwo' },
        { event: 'c', data: '3' },
      ]);
    }
  });

  it('refuses an event longer than its cap, even one never ended', () => {
    expect(() => new SseParser(100).push(`data: ${'x'.repeat(200)}`)).toThrow(SourceFailedError);
    expect(() => new SseParser(100).push(`data: ${'x'.repeat(50)}\ndata: ${'x'.repeat(60)}\n`)).toThrow(
      SourceFailedError,
    );
  });
});

describe('osint.ly as pseudonymData', () => {
  it('answers the accounts of the search: one per card naming one, in order, once each, links checked', async () => {
    const answer = await search('asha_rao');
    expect(answer).toEqual({
      search_id: expect.stringMatching(/^d290f1ee-/),
      complete: true,
      accounts: [
        {
          site: 'GitHub',
          username: 'asha_rao',
          url: 'https://github.example.test/asha_rao',
          found_at: expect.any(String),
        },
        {
          site: 'X (Twitter)',
          username: 'asha_rao',
          url: 'https://x.example.test/asha_rao',
          found_at: expect.any(String),
        },
        { site: 'Forum', username: 'asha_rao', url: null, found_at: expect.any(String) },
      ],
    });
    const [create, stream] = upstream.requests;
    expect(create).toMatchObject({ method: 'POST', url: '/search' });
    expect(create!.headers.authorization).toBe(`Bearer ${OSINTLY_FAKE_KEY}`);
    expect(JSON.parse(create!.body)).toEqual({
      type: 'Pseudonym',
      value: 'asha_rao',
      options: { bypass_cache: false },
    });
    expect(stream).toMatchObject({
      method: 'GET',
      url: `/search/${(answer as { search_id: string }).search_id}/stream`,
    });
    expect(stream!.headers.accept).toBe('text/event-stream');
  });

  it('a search that finished with no account is "no record"', async () => {
    await expect(search('nobody.demo')).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it('a refused key is the operator’s problem (401 on the search, 403 on the stream)', async () => {
    await expect(
      provider({ OSINTLY_API_KEY: 'wrong' }).fetch(
        { kind: 'username', value: 'x' },
        AbortSignal.timeout(5000),
      ),
    ).rejects.toBeInstanceOf(SourceMisconfiguredError);
    const fake = osintlyFake();
    upstream.setHandler((req, res) =>
      req.url.endsWith('/stream') ? sendJson(res, 403, { error: { code: 'FORBIDDEN' } }) : fake(req, res),
    );
    await expect(search('asha_rao')).rejects.toBeInstanceOf(SourceMisconfiguredError);
  });

  it('429 is a rate limit with its Retry-After, and so is the plan’s concurrency cap (409)', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(res, 429, { error: { code: 'RATE_LIMIT_RPM_EXCEEDED' } }, { 'retry-after': '30' }),
    );
    const limited = await search('asha_rao').catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(SourceRateLimitedError);
    expect((limited as SourceRateLimitedError).retryAfterMs).toBe(30_000);
    upstream.setHandler((_req, res) => sendJson(res, 409, { error: { code: 'MAX_CONCURRENCY_EXCEEDED' } }));
    await expect(search('asha_rao')).rejects.toBeInstanceOf(SourceRateLimitedError);
  });

  it('a search that never finishes: the accounts by the deadline, marked incomplete; none, timed out', async () => {
    upstream.setHandler(
      streamWith((res) => {
        res.write(sse('connected', { search_id: 'x' }));
        res.write(result('github', 'asha_rao'));
        // …and nothing more, the connection held open.
      }),
    );
    const started = Date.now();
    const partial = await search('asha_rao', { OSINTLY_DEADLINE_MS: '1000' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(partial).toMatchObject({ complete: false, accounts: [{ site: 'github', username: 'asha_rao' }] });

    upstream.setHandler(streamWith((res) => void res.write(sse('connected', { search_id: 'x' }))));
    await expect(search('asha_rao', { OSINTLY_DEADLINE_MS: '1000' })).rejects.toBeInstanceOf(
      TaskCancelledError,
    );
    // The runner gives it the deadline and a little to hand back: the lookup's own timeout.
    expect(provider({ OSINTLY_DEADLINE_MS: '1000' }).timeoutMs).toBeGreaterThan(1000);
    expect(provider({ OSINTLY_DEADLINE_MS: '1000' }).timeoutMs).toBeLessThan(10_000);
  });

  it('stops when the runner gives up, whatever the deadline', async () => {
    upstream.setHandler(streamWith((res) => void res.write(sse('connected', { search_id: 'x' }))));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('runner gave up')), 200);
    await expect(search('asha_rao', {}, controller.signal)).rejects.toThrow('runner gave up');
  });

  it('a stream that ends before search.finished: what it reported, incomplete; nothing, a failure', async () => {
    upstream.setHandler(streamWith((res) => res.end(result('github', 'asha_rao'))));
    expect(await search('asha_rao')).toMatchObject({ complete: false, accounts: [{ site: 'github' }] });
    upstream.setHandler(streamWith((res) => res.end(sse('connected', { search_id: 'x' }))));
    await expect(search('asha_rao')).rejects.toBeInstanceOf(SourceFailedError);
    upstream.setHandler(osintlyFake({ results: () => [], finalStatus: 'failed' }));
    await expect(search('asha_rao')).rejects.toThrow(/ended failed/);
  });

  const hostileStreams: Record<string, (res: ServerResponse) => unknown> = {
    'a stream of 6 MB': async (res) => {
      const block = `: ${'x'.repeat(1022)}\n\n`;
      for (let i = 0; i < 6 * 1024 && !res.destroyed; i += 1)
        if (!res.write(block)) await new Promise((resolve) => res.once('drain', resolve));
      res.end();
    },
    'one event larger than its cap': (res) => res.end(`data: ${'x'.repeat(OSINTLY_MAX_EVENT_BYTES + 10)}`),
    'a module.result that is not JSON': (res) => res.end(sse('module.result', '{"module": {"name": "Git')),
    'a module.result of the wrong shape': (res) =>
      res.end(sse('module.result', { module: { name: { $gt: '' } }, card: 'all' })),
    'a search.finished that is not JSON': (res) =>
      res.end(`${result('github', 'a')}${sse('search.finished', 'done!')}`),
    'random bytes': (res) => {
      const bytes = Buffer.alloc(64 * 1024);
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7919 + 13) % 256;
      res.end(bytes);
    },
  };

  it.each(Object.keys(hostileStreams))('%s: a clean source failure', async (name) => {
    upstream.setHandler(streamWith(hostileStreams[name]!));
    const error = await search('asha_rao').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(SourceFailedError);
  });

  it('keeps its caps at sane sizes', () => {
    expect(OSINTLY_MAX_STREAM_BYTES).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(OSINTLY_MAX_EVENT_BYTES).toBeLessThan(OSINTLY_MAX_STREAM_BYTES);
  });

  const hostileStarts: Record<string, (res: ServerResponse) => void> = {
    'an HTML page': (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login</html>');
    },
    'no search id': (res) => sendJson(res, 201, { data: { search: { status: 'queued' } } }),
    'a search id that is a path': (res) => sendJson(res, 201, { data: { search: { id: '../../admin' } } }),
    'a redirect to another host': (res) => {
      res.writeHead(307, { location: 'http://203.0.113.9/search' });
      res.end();
    },
    'a 500': (res) => sendJson(res, 500, { error: { code: 'INTERNAL' } }),
  };

  it.each(Object.keys(hostileStarts))('a search answered with %s: a clean source failure', async (name) => {
    upstream.setHandler((_req, res) => hostileStarts[name]!(res));
    const error = await search('asha_rao').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(SourceFailedError);
    expect(upstream.requests.every((req) => !req.url.includes('admin'))).toBe(true);
  });

  it('a stream answered as JSON, not events, is a failure', async () => {
    const fake = osintlyFake();
    upstream.setHandler((req, res) =>
      req.url.endsWith('/stream') ? sendJson(res, 200, { data: [] }) : fake(req, res),
    );
    await expect(search('asha_rao')).rejects.toBeInstanceOf(SourceFailedError);
  });
});

describe('GET /api/username with osint.ly as its only source', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let userId: string;
  let deviceId: ReturnType<typeof newDeviceId>;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SANDBOX: 'false',
        RATE_LIMIT_ENABLED: 'false',
        LOOKUP_CACHE_HOURS: '0',
        BREAKER_FAILURES: '100',
        COST_USERNAME: '3',
        OSINTLY_API_KEY: OSINTLY_FAKE_KEY,
        OSINTLY_BASE_URL: upstream.url,
      },
    });
    deviceId = newDeviceId();
    const user = await createUser(t.db, { credits: 20, appMode: 'live', trustedDevice: deviceId });
    userId = user.id;
    const signed = await signIn(t, user.email, user.password, deviceId);
    token = signed.token;
    headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  });
  afterAll(() => t.close());

  const balance = async () =>
    (await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)))[0]!.credits;
  const statusOf = async (id: string) =>
    (await t.db.select({ status: lookups.status }).from(lookups).where(eq(lookups.id, id)))[0]!.status;
  const lookup = (name: string) =>
    t.app.inject({ method: 'GET', url: `/api/username?username=${name}`, headers });

  it('answers the accounts, attributed to the vendor, and charges', async () => {
    const before = await balance();
    const res = await lookup('asha_rao');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.source_status.pseudonymData).toMatchObject({
      status: 'ok',
      mode: 'live',
      vendor: 'osint.ly',
    });
    expect(body.source_status.sitesData).toMatchObject({ status: 'not_configured' });
    expect(body.sitesData).toBeUndefined();
    expect(body.pseudonymData.accounts.map((a: { site: string }) => a.site)).toEqual([
      'GitHub',
      'X (Twitter)',
      'Forum',
    ]);
    expect(body.sandbox).toBe(false);
    expect(before - (await balance())).toBe(3);
    expect(body.credits).toBe(await balance());
  });

  it('the username report and the exports list the accounts, attributed to the vendor', async () => {
    const id = (await lookup('asha_rao')).json().lookup_id as string;
    const pdf = await t.app.inject({
      method: 'POST',
      url: '/api/generate-report',
      ...json({ type: 'username', userInput: 'asha_rao', results: { lookup_id: id } }, deviceId, token),
    });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('Accounts reported by osint.ly 3 accounts');
    expect(text).toContain('https://x.example.test/asha_rao');
    expect(text).toContain('X (Twitter)');
    expect(text).toContain('The site check gave no answer.');

    const csv = await t.app.inject({ method: 'GET', url: `/api/history/${id}/export?format=csv`, headers });
    expect(csv.statusCode, csv.body.slice(0, 300)).toBe(200);
    expect(csv.body).toContain('vendor_accounts,3 (osint.ly)');
    expect(csv.body).toMatch(/GitHub,,,reported_by_vendor,https:\/\/github\.example\.test\/asha_rao,/);
    const file = await t.app.inject({ method: 'GET', url: `/api/history/${id}/export?format=json`, headers });
    expect(file.json().vendor_accounts).toMatchObject({ vendor: 'osint.ly', complete: true });
    expect(file.json().vendor_accounts.accounts).toHaveLength(3);
  });

  it('a name it finds nowhere is answered as no record and refunded', async () => {
    const before = await balance();
    const res = await lookup('nobody.demo');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.source_status.pseudonymData).toMatchObject({ status: 'not_found', mode: 'live' });
    expect(body.pseudonymData).toBeUndefined();
    expect(await balance()).toBe(before);
    expect(await statusOf(body.lookup_id)).toBe('no_record');
  });

  it('a refused key: no source answered, 502, refunded', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 401, { error: { code: 'UNAUTHORIZED' } }));
    const before = await balance();
    const res = await lookup('asha_rao');
    expect(res.statusCode, res.body).toBe(502);
    expect(await balance()).toBe(before);
  });
});
