// Upstream faults against a fake KYC vendor on 127.0.0.1: timeouts, 500s, malformed JSON, a slow
// drip, a 50 MB body and a connection reset. Every lookup answers within its timeout with the
// sources that worked; a lookup no source answered is refunded; breakers open and close again.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, newDeviceId, signIn, type TestApp } from '../test/support/app.ts';
import { sendJson, startFakeUpstream } from '../test/support/upstream.ts';
import { bookProblems } from './books.ts';

type Mode = 'ok' | 'hang' | 'error500' | 'malformed' | 'drip' | 'huge' | 'reset';
let mode: Mode = 'ok';
const TIMEOUT_MS = 1_000;

const behave = (res: ServerResponse) => {
  switch (mode) {
    case 'ok':
      return sendJson(res, 200, {
        data: { rc_number: 'MH12FP1234', owner_name: 'Synthetic Owner', mobile_number: '9876543210' },
        status_code: 200,
        success: true,
        message: null,
        message_code: 'success',
      });
    case 'hang':
      return; // never answers
    case 'error500':
      return sendJson(res, 500, { message: 'internal error' });
    case 'malformed':
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"data": {"rc_number": ');
    case 'drip': {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":"');
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write('x');
      }, 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case 'huge': {
      // 50 MB, chunked, no Content-Length: the cap must stop reading, not buffer it all.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":"');
      const chunk = 'x'.repeat(1 << 20);
      let sent = 0;
      const pump = () => {
        while (sent < 50 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        if (!res.destroyed) res.end('"}');
      };
      pump();
      return;
    }
    case 'reset':
      res.socket?.destroy();
      return;
  }
};

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let t: TestApp;
let auth: Record<string, string>;
let adminAuth: Record<string, string>;

beforeAll(async () => {
  upstream = await startFakeUpstream((_req, res) => behave(res));
  t = await createTestApp({
    env: {
      KYC_BASE_URL: `${upstream.url}/api/v1`,
      KYC_TOKEN: 'kyc-token',
      PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
      BREAKER_FAILURES: '3',
      BREAKER_HALF_OPEN_SECONDS: '1',
      RATE_LIMIT_ENABLED: 'false',
      SANDBOX_LATENCY: '*=0-30',
    },
  });
  for (const [role, target] of [
    ['user', 'user'],
    ['admin', 'admin'],
  ] as const) {
    const deviceId = newDeviceId();
    const user = await createUser(t.db, { appMode: 'live', role, credits: 1_000, trustedDevice: deviceId });
    const { token } = await signIn(t, user.email, user.password, deviceId);
    const headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
    if (target === 'user') auth = headers;
    else adminAuth = headers;
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

let n = 0;
const tel = () =>
  t.app.inject({ method: 'GET', url: `/api/tel?number=91${7200000000 + n++}`, headers: auth });
const rc = () =>
  t.app.inject({
    method: 'POST',
    url: '/api/rcfull-details',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ id_number: `MH12FP${1000 + n++}` }),
  });
const balance = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/user', headers: auth })).json().credits as number;
const breakers = async () =>
  Object.fromEntries(
    (
      (await t.app.inject({ method: 'GET', url: '/api/admin/providers', headers: adminAuth })).json()
        .providers as Array<{
        id: string;
        breaker: string;
      }>
    ).map((p) => [p.id, p.breaker]),
  );
const waitForBreakers = () => new Promise((r) => setTimeout(r, 1_200));

describe('upstream faults (fake KYC vendor on 127.0.0.1)', () => {
  for (const fault of ['hang', 'error500', 'malformed', 'drip', 'huge', 'reset'] as const) {
    it(`${fault}: the lookup answers in time with the sources that worked, and a lookup none answered is refunded`, async () => {
      mode = fault;
      await waitForBreakers(); // each case starts with breakers that let a call through
      const started = performance.now();
      const phone = await tel();
      const took = performance.now() - started;
      expect(phone.statusCode, phone.body.slice(0, 300)).toBe(200);
      expect(took, 'answered within the provider timeout (plus overhead)').toBeLessThan(TIMEOUT_MS + 1_500);
      const body = phone.json();
      // The vendor's phone sources failed and say so; the sandbox sources answered.
      expect(Object.keys(body.errors ?? {})).toEqual(expect.arrayContaining(['sKData', 'sbData']));
      expect(Object.keys(body.data ?? body).length).toBeGreaterThan(0);

      const before = await balance();
      const rcStarted = performance.now();
      const detail = await rc();
      expect(performance.now() - rcStarted).toBeLessThan(TIMEOUT_MS + 1_500);
      expect(detail.statusCode, detail.body.slice(0, 300)).toBe(502);
      expect(detail.json().credits).toBe(before);
      expect(await balance()).toBe(before);
      console.log(
        `fault ${fault}: phone lookup answered in ${Math.round(took)} ms with ${Object.keys(body.errors ?? {}).length} failed sources; RC lookup refunded`,
      );
    });
  }

  it('opens the breaker after consecutive failures, skips the source quickly while open, and closes it again', async () => {
    mode = 'hang';
    await waitForBreakers();
    for (let i = 0; i < 4; i++) await rc();
    expect((await breakers())['kyc:rc']).toBe('open');
    const started = performance.now();
    const skipped = await rc();
    expect(skipped.statusCode).toBe(502);
    expect(performance.now() - started, 'an open breaker does not wait for the timeout').toBeLessThan(
      TIMEOUT_MS / 2,
    );

    mode = 'ok';
    await waitForBreakers();
    const recovered = await rc();
    expect(recovered.statusCode, recovered.body.slice(0, 300)).toBe(200);
    expect((await breakers())['kyc:rc']).toBe('closed');
    expect(await bookProblems(t.db)).toEqual([]);
  });
});
