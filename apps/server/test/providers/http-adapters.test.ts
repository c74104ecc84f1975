import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hibpProvider } from '../../src/providers/http/hibp.ts';
import { kycProviders } from '../../src/providers/http/kyc.ts';
import {
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
} from '../../src/providers/types.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream((_req, res) => sendJson(res, 500, {}));
});
afterAll(() => upstream.close());

const signal = () => AbortSignal.timeout(5000);

const breach = {
  Name: 'Orbitly',
  Title: 'Orbitly',
  Domain: 'orbitly.example',
  BreachDate: '2021-03-04',
  AddedDate: '2021-05-01T10:00:00Z',
  PwnCount: 120000,
  Description: 'Synthetic breach for tests.',
  LogoPath: 'https://logos.example.test/orbitly.png',
  DataClasses: ['Email addresses', 'Passwords'],
  IsVerified: true,
  IsSensitive: false,
  Unexpected: { nested: 'dropped' },
};

describe('Have I Been Pwned v3 adapter', () => {
  const provider = () =>
    hibpProvider({
      apiKey: 'test-key',
      baseUrl: `${upstream.url}/api/v3`,
      userAgent: 'Footprint-Test',
      maxRetryWaitMs: 1500,
    });

  it('calls breachedaccount with the key and user agent, and keeps the documented fields', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, [breach]));
    const before = upstream.requests.length;
    const result = (await provider().fetch(
      { kind: 'email', value: 'a+b@example.test' },
      signal(),
    )) as unknown[];
    const req = upstream.requests[before]!;
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/api/v3/breachedaccount/a%2Bb%40example.test?truncateResponse=false');
    expect(req.headers['hibp-api-key']).toBe('test-key');
    expect(req.headers['user-agent']).toBe('Footprint-Test');
    const { Unexpected: _, ...documented } = breach;
    expect(result).toEqual([documented]);
  });

  it('reads 404 as "no breaches"', async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    expect(await provider().fetch({ kind: 'email', value: 'clean@example.test' }, signal())).toEqual([]);
  });

  it('honours Retry-After on 429 once, then succeeds', async () => {
    let calls = 0;
    upstream.setHandler((_req, res) => {
      calls += 1;
      if (calls === 1)
        return sendJson(
          res,
          429,
          { statusCode: 429, message: 'Rate limit exceeded' },
          { 'retry-after': '1' },
        );
      return sendJson(res, 200, [breach]);
    });
    const started = Date.now();
    const result = (await provider().fetch(
      { kind: 'email', value: 'x@example.test' },
      signal(),
    )) as unknown[];
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result).toHaveLength(1);
  });

  it('gives up on a Retry-After longer than it may wait, and on errors and malformed bodies', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 429, {}, { 'retry-after': '60' }));
    const limited = provider().fetch({ kind: 'email', value: 'x@example.test' }, signal());
    await expect(limited).rejects.toBeInstanceOf(SourceRateLimitedError);
    await expect(limited).rejects.toMatchObject({ retryAfterMs: 60_000 });
    upstream.setHandler((_req, res) => sendJson(res, 401, { statusCode: 401, message: 'Access denied' }));
    await expect(
      provider().fetch({ kind: 'email', value: 'x@example.test' }, signal()),
    ).rejects.toBeInstanceOf(SourceMisconfiguredError);
    upstream.setHandler((_req, res) => sendJson(res, 200, '[{"Name": "broken"'));
    await expect(provider().fetch({ kind: 'email', value: 'x@example.test' }, signal())).rejects.toThrow(
      'malformed JSON',
    );
    upstream.setHandler((_req, res) => sendJson(res, 200, { not: 'an array' }));
    await expect(provider().fetch({ kind: 'email', value: 'x@example.test' }, signal())).rejects.toThrow(
      'unexpected shape',
    );
  });
});

describe('KYC vendor adapter', () => {
  const byId = () =>
    Object.fromEntries(
      kycProviders({ baseUrl: `${upstream.url}/api/v1`, token: 'kyc-token' }).map((p) => [p.source, p]),
    );

  it('posts each lookup with the bearer token and the vendor field names, passing the envelope through', async () => {
    upstream.setHandler((req, res) =>
      sendJson(res, 200, {
        data: { client_id: 'prefill_abc', echo: JSON.parse(req.body) },
        status_code: 200,
        success: true,
        message: '',
        message_code: 'success',
      }),
    );
    const providers = byId();
    const cases: Array<[string, 'tel' | 'rc' | 'upi' | 'challan', string, string, Record<string, string>]> = [
      ['sKData', 'tel', '919876543210', '/api/v1/prefill/prefill-by-mobile', { mobile: '9876543210' }],
      [
        'suData',
        'tel',
        '919876543210',
        '/api/v1/bank-verification/find-upi-id',
        { mobile_number: '9876543210' },
      ],
      [
        'sbData',
        'tel',
        '919876543210',
        '/api/v1/mobile-to-bank-details/verification',
        { mobile_no: '9876543210' },
      ],
      ['srData', 'tel', '919876543210', '/api/v1/rc/mobile-number-to-rc', { mobile_number: '9876543210' }],
      ['rc', 'rc', 'MH12AB1234', '/api/v1/rc/rc-full', { id_number: 'MH12AB1234' }],
      [
        'upi',
        'upi',
        'someone@oksbi',
        '/api/v1/bank-verification/upi-verification',
        { upi_id: 'someone@oksbi' },
      ],
      [
        'challan',
        'challan',
        'MH12AB1234',
        '/api/v1/rc/rc-related/challan-details',
        { rc_number: 'MH12AB1234' },
      ],
    ];
    for (const [source, kind, value, path, body] of cases) {
      const before = upstream.requests.length;
      const payload = (await providers[source]!.fetch({ kind, value }, signal())) as {
        data: { echo: unknown };
      };
      const req = upstream.requests[before]!;
      expect(req.method, source).toBe('POST');
      expect(req.url, source).toBe(path);
      expect(req.headers.authorization, source).toBe('Bearer kyc-token');
      expect(req.headers['content-type'], source).toBe('application/json');
      expect(JSON.parse(req.body), source).toEqual(body);
      expect(payload.data.echo, source).toEqual(body);
    }
  });

  it('treats 404 and 422 as a "no record" answer and other statuses as failures', async () => {
    const notFound = {
      data: null,
      status_code: 422,
      success: false,
      message: 'No records found',
      message_code: 'not_found',
    };
    upstream.setHandler((_req, res) => sendJson(res, 422, notFound));
    expect(await byId().rc!.fetch({ kind: 'rc', value: 'KA01AA0001' }, signal())).toEqual(notFound);
    for (const status of [202, 401, 403, 429, 500, 503]) {
      upstream.setHandler((_req, res) => sendJson(res, status, { success: false }));
      await expect(
        byId().rc!.fetch({ kind: 'rc', value: 'KA01AA0001' }, signal()),
        String(status),
      ).rejects.toBeInstanceOf(SourceFailedError);
    }
  });

  it('does not call the vendor for numbers outside India', async () => {
    const before = upstream.requests.length;
    await expect(
      byId().sKData!.fetch({ kind: 'tel', value: '14155550100' }, signal()),
    ).rejects.toBeInstanceOf(SourceNotFoundError);
    expect(upstream.requests.length).toBe(before);
  });

  it('refuses a body larger than the cap and a connection that breaks', async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":"${'x'.repeat(6 * 1024 * 1024)}"}`);
    });
    await expect(byId().rc!.fetch({ kind: 'rc', value: 'KA01AA0001' }, signal())).rejects.toThrow(
      /too large/,
    );
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
      setTimeout(() => res.destroy(), 20);
    });
    await expect(byId().rc!.fetch({ kind: 'rc', value: 'KA01AA0001' }, signal())).rejects.toBeInstanceOf(
      SourceFailedError,
    );
  });
});
