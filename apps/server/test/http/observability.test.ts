import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/** Everything the server logs, one parsed line each: the app logs at info into this. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
let userId: string;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({
    env: { RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'info', SANDBOX: 'true', METRICS_TOKEN },
    logStream,
  });
  const user = await createUser(t.db, { appMode: 'live', credits: 50 });
  userId = user.id;
  headers = { authorization: `Bearer ${(await signIn(t, user.email, user.password)).token}` };
});
afterAll(() => t.close());

/** One sample of the exposition: `name{labels} value`, the labels as written. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const [, inside = ''] = /\{(.*)\}/.exec(line) ?? [];
    if (wanted.every((pair) => inside.split(',').includes(pair))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

const scrape = async () => {
  const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.payload;
};

describe('GET /metrics', () => {
  it('moves the lookup, credit, source and request figures when a phone lookup is made', async () => {
    const before = await scrape();
    const res = await t.app.inject({ url: '/api/tel?number=919812345670', headers });
    expect(res.statusCode).toBe(200);
    const after = await scrape();
    const outcome = res.json().credits < 50 ? 'charged' : 'no_record';
    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);

    expect(moved('footprint_lookups_total', { kind: 'tel', outcome })).toBe(1);
    expect(moved('footprint_credits_total', { direction: 'charged', kind: 'tel' })).toBeGreaterThan(0);
    expect(
      moved('footprint_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/tel',
        status_class: '2xx',
      }),
    ).toBe(1);
    // The route pattern, never the URL with its number.
    expect(after).not.toContain('919812345670');
    expect(moved('footprint_source_call_duration_seconds_count', { source: 'wpData' })).toBeGreaterThan(0);
    expect(sample(after, 'footprint_source_calls_total', { source: 'wpData' })).toBeGreaterThan(0);
    expect(after).toMatch(/footprint_source_breaker_state\{source="wpData",provider="[^"]+"\} 0/);
    expect(after).toMatch(/footprint_job_queue_depth/);
    // prom-client's process figures come with it.
    expect(after).toMatch(/^process_cpu_user_seconds_total /m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('answers 401 to a wrong or missing token', async () => {
    for (const authorization of [`Bearer ${METRICS_TOKEN}x`, 'Bearer nope', '', headers.authorization!]) {
      const res = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.payload).not.toContain('footprint_');
    }
  });

  it('does not exist without METRICS_TOKEN: a JSON 404, not the web app', async () => {
    const off = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
    try {
      const res = await off.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}`, accept: 'text/html' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.payload).not.toContain('footprint_');
    } finally {
      await off.close();
    }
  });
});

describe('X-Request-Id', () => {
  it('returns a sane id it was given, and makes a UUID otherwise', async () => {
    const given = await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'proxy-7f3a.1:9_b' } });
    expect(given.headers['x-request-id']).toBe('proxy-7f3a.1:9_b');
    for (const sent of [undefined, 'bad id with spaces', 'x'.repeat(129), '<script>']) {
      const res = await t.app.inject({
        url: '/api/nowhere',
        headers: sent === undefined ? {} : { 'x-request-id': sent },
      });
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
  });
});

describe('the log', () => {
  it('names no searched number or e-mail in any line, and who asked in the access line', async () => {
    const number = '919811122233';
    const email = 'log-probe.person@example.test';
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Log probe', scopes: ['lookups'] }),
    });
    expect(made.statusCode).toBe(201);
    const key = made.json() as { id: string; key: string };
    const byKey = await t.app.inject({
      url: `/api/email?email=${encodeURIComponent(email)}`,
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(byKey.statusCode).toBe(200);
    const requestIds: string[] = [];
    for (const url of [
      `/api/tel?number=${number}&case_reference=CASE-LOG-1`,
      `/api/email?email=${encodeURIComponent(email)}&case_reference=CASE-LOG-1`,
      `/api/tel?number=${number}`,
      // A path no route has, with the identifiers in it.
      `/api/tel/${number}/${email}`,
    ]) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, url).toBeLessThan(500);
      requestIds.push(String(res.headers['x-request-id']));
    }
    // The access line is written once the answer is sent.
    await new Promise((resolve) => setImmediate(resolve));
    const text = logLines.join('\n');
    for (const identifier of [number, email, encodeURIComponent(email), 'CASE-LOG-1', key.key]) {
      expect(text).not.toContain(identifier);
    }
    const access = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request completed');
    expect(access.find((entry) => entry.reqId === byKey.headers['x-request-id'])).toMatchObject({
      route: '/api/email',
      status: 200,
      userId,
      apiKeyId: key.id,
    });
    for (const [index, reqId] of requestIds.entries()) {
      const line = access.find((entry) => entry.reqId === reqId);
      expect(line, reqId).toBeDefined();
      expect(line).toMatchObject({ method: 'GET', status: expect.any(Number), ms: expect.any(Number) });
      if (index < 3) {
        expect(line).toMatchObject({ userId, route: index === 1 ? '/api/email' : '/api/tel' });
      } else {
        expect(line).toMatchObject({ route: null, path: '/api/tel/[redacted]/[redacted]' });
      }
    }
  });
});
