import { mergePhoneProfile, phoneHighlights } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hlrLookups,
  hlrLookupsProvider,
  hlrLookupsSignature,
  isoTimestamp,
} from '../../src/providers/http/hlr-lookups.ts';
import {
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
} from '../../src/providers/types.ts';
import { HLR_FAKE_KEY, HLR_FAKE_SECRET, hlrFakeAnswer, hlrLookupsFake } from '../fakes/hlr-lookups.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;

/** The fake's clock and the adapter's agree, so every signature is reproducible. */
const NOW = new Date('2023-11-14T22:13:20.000Z');
const fake = () => hlrLookupsFake({ now: () => NOW });

let upstream: Upstream;
let elsewhere: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream(fake());
  elsewhere = await startFakeUpstream((_req, res) => sendJson(res, 200, {}));
});
afterAll(async () => {
  await upstream.close();
  await elsewhere.close();
});

const info = { id: 'hlr-lookups', name: 'HLR Lookups', costPerCall: 0.01, currency: 'EUR' };

/** The provider as the registry builds it, with the clock fixed. */
function provider(env: Record<string, string> = {}, now = NOW.getTime()) {
  const config = hlrLookups.configure(
    hlrLookups.env.parse({
      HLR_LOOKUPS_API_KEY: HLR_FAKE_KEY,
      HLR_LOOKUPS_API_SECRET: HLR_FAKE_SECRET,
      HLR_LOOKUPS_BASE_URL: `${upstream.url}/api/v2`,
      ...env,
    }),
  )!;
  const [only] = hlrLookups.providers({ ...config, now: () => now }, info);
  return only!;
}

const tel = (value: string) => ({ kind: 'tel' as const, value });
const signal = () => AbortSignal.timeout(5000);
const lookup = (value = '919876543210') => provider().fetch(tel(value), signal());

/** The documented example answer (SDK README), with a synthetic number. */
const documented = {
  id: 'f94ef092cb53',
  msisdn: '+14155550123',
  connectivity_status: 'CONNECTED',
  mccmnc: '310260',
  mcc: '310',
  mnc: '260',
  imsi: '***************',
  msin: '**********',
  msc: '************',
  original_network_name: 'Verizon Wireless',
  original_country_name: 'United States',
  original_country_code: 'US',
  original_country_prefix: '+1',
  is_ported: true,
  ported_network_name: 'T-Mobile US',
  ported_country_name: 'United States',
  ported_country_code: 'US',
  ported_country_prefix: '+1',
  is_roaming: false,
  roaming_network_name: null,
  roaming_country_name: null,
  roaming_country_code: null,
  roaming_country_prefix: null,
  cost: '0.0100',
  timestamp: '2020-08-07 19:16:17.676+0300',
  storage: 'SYNC-API-2020-08',
  route: 'IP1',
  processing_status: 'COMPLETED',
  error_code: null,
  data_source: 'LIVE_HLR',
};

describe('HLR Lookups signature', () => {
  it('is the hex HMAC-SHA256 of endpoint + timestamp + METHOD + body (vector computed with openssl)', () => {
    // printf '%s' '/hlr-lookup1700000000POST{"msisdn":"+919876543210"}' | openssl dgst -sha256 -hmac 'fake-hlr-secret'
    expect(
      hlrLookupsSignature('fake-hlr-secret', '/hlr-lookup', 1700000000, 'post', '{"msisdn":"+919876543210"}'),
    ).toBe('c5e904eabad8cc1a0e0bb01bcc1fc0e30689d2d36e357ef2f2ad3208a64ba91b');
  });
});

describe('HLR Lookups adapter', () => {
  it('posts the E.164 number, signed, and maps the answer into hlrData', async () => {
    upstream.setHandler(fake());
    const before = upstream.requests.length;
    const payload = await lookup('919876543210');
    expect(upstream.requests.length).toBe(before + 1);
    const req = upstream.requests[before]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/v2/hlr-lookup');
    expect(req.body).toBe('{"msisdn":"+919876543210"}');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-digest-key']).toBe(HLR_FAKE_KEY);
    expect(req.headers['x-digest-timestamp']).toBe('1700000000');
    expect(req.headers['x-digest-signature']).toBe(
      'c5e904eabad8cc1a0e0bb01bcc1fc0e30689d2d36e357ef2f2ad3208a64ba91b',
    );
    const answer = hlrFakeAnswer('+919876543210', NOW);
    expect(payload).toEqual({
      msisdn: '+919876543210',
      imsi: answer.imsi,
      mccmnc: answer.mccmnc,
      connectivity_status: 'CONNECTED',
      timestamp: '2023-11-14T22:13:20.000Z',
      original_country_name: 'India',
      original_country_code: 'IN',
      original_network_name: answer.original_network_name,
      ported: answer.is_ported,
      ported_network_name: answer.ported_network_name,
      roaming: answer.is_roaming,
    });
  });

  it('maps the documented example: ported network, masked IMSI dropped, vendor time as ISO UTC', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, documented));
    expect(await lookup('14155550123')).toEqual({
      msisdn: '+14155550123',
      imsi: null,
      mccmnc: '310260',
      connectivity_status: 'CONNECTED',
      timestamp: '2020-08-07T16:16:17.676Z',
      original_country_name: 'United States',
      original_country_code: 'US',
      original_network_name: 'Verizon Wireless',
      ported: true,
      ported_network_name: 'T-Mobile US',
      roaming: false,
    });
  });

  it('reads the vendor time forms it documents, keeping any other form as written', () => {
    expect(isoTimestamp('2014-12-28 06:22:00.328844+08')).toBe('2014-12-27T22:22:00.328Z');
    expect(isoTimestamp('2015-12-04 10:36:41.866283+00')).toBe('2015-12-04T10:36:41.866Z');
    expect(isoTimestamp('2020-08-07T19:16:17+03:00')).toBe('2020-08-07T16:16:17.000Z');
    expect(isoTimestamp('yesterday')).toBe('yesterday');
  });

  it('answers an unassigned number as INVALID with no timestamp, and an absent one with none', async () => {
    upstream.setHandler(fake());
    const invalid = (await lookup('919876500000')) as Record<string, unknown>;
    expect(invalid.connectivity_status).toBe('INVALID');
    expect(invalid.timestamp).toBeNull();
    expect(invalid.imsi).toBeNull();
    expect(phoneHighlights({ hlrData: invalid }).phoneStatus).toBe('Inactive');
    const absent = (await lookup('919876500001')) as Record<string, unknown>;
    expect(absent.connectivity_status).toBe('ABSENT');
    expect(absent.timestamp).toBeNull();
    const undetermined = (await lookup('919876500002')) as Record<string, unknown>;
    expect(undetermined.connectivity_status).toBe('UNDETERMINED');
  });

  it('does not call the vendor for a value that is not a phone number', async () => {
    const before = upstream.requests.length;
    await expect(lookup('0123')).rejects.toBeInstanceOf(SourceNotFoundError);
    expect(upstream.requests.length).toBe(before);
  });

  it('is refused by the fake with a wrong secret, a wrong key or a stale clock (401 → misconfigured)', async () => {
    upstream.setHandler(fake());
    await expect(
      provider({ HLR_LOOKUPS_API_SECRET: 'not-the-secret' }).fetch(tel('919876543210'), signal()),
    ).rejects.toBeInstanceOf(SourceMisconfiguredError);
    await expect(
      provider({ HLR_LOOKUPS_API_KEY: 'not-the-key' }).fetch(tel('919876543210'), signal()),
    ).rejects.toBeInstanceOf(SourceMisconfiguredError);
    await expect(
      provider({}, NOW.getTime() - 3_600_000).fetch(tel('919876543210'), signal()),
    ).rejects.toBeInstanceOf(SourceMisconfiguredError);
  });

  it('reads 429 with Retry-After as rate limited', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(res, 429, { errors: ['Too many requests.'] }, { 'retry-after': '7' }),
    );
    const error = await lookup().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceRateLimitedError);
    expect((error as SourceRateLimitedError).retryAfterMs).toBe(7000);
  });

  it('fails on 404 (the vendor documents none: a wrong base URL) and on 500', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 404, { errors: ['Endpoint not found.'] }));
    const notFound = await lookup().catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(SourceFailedError);
    expect(notFound).not.toBeInstanceOf(SourceNotFoundError);
    upstream.setHandler((_req, res) => sendJson(res, 500, { errors: ['Internal error.'] }));
    const failed = await lookup().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SourceFailedError);
    expect((failed as SourceFailedError).status).toBe(500);
  });

  it('fails on malformed JSON, an HTML page, an error envelope with 200 and a field of the wrong type', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, '{"msisdn": "+919876543210", '));
    await expect(lookup()).rejects.toThrow(/malformed JSON/);
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Maintenance</body></html>');
    });
    await expect(lookup()).rejects.toThrow(/text\/html, not JSON/);
    upstream.setHandler((_req, res) => sendJson(res, 200, { errors: ['Insufficient balance.'] }));
    await expect(lookup()).rejects.toThrow(/unexpected shape/);
    upstream.setHandler((_req, res) => sendJson(res, 200, { ...documented, is_ported: 'true' }));
    await expect(lookup()).rejects.toThrow(/unexpected shape \(is_ported\)/);
    upstream.setHandler((_req, res) => sendJson(res, 200, { ...documented, original_network_name: 42 }));
    await expect(lookup()).rejects.toThrow(/unexpected shape \(original_network_name\)/);
  });

  it('fails when the vendor did not complete the lookup', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, { ...documented, processing_status: 'REJECTED' }));
    await expect(lookup()).rejects.toThrow(/did not complete the lookup \(REJECTED\)/);
  });

  it('stops when the signal aborts', async () => {
    upstream.setHandler(() => undefined);
    const started = Date.now();
    await expect(provider().fetch(tel('919876543210'), AbortSignal.timeout(200))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an answer larger than the cap, declared or streamed', async () => {
    const big = JSON.stringify({ ...documented, storage: 'x'.repeat(300 * 1024) });
    upstream.setHandler((_req, res) => sendJson(res, 200, big, { 'content-length': String(big.length) }));
    await expect(lookup()).rejects.toThrow(/too large/);
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"storage":"`);
      for (let i = 0; i < 40; i++) res.write('x'.repeat(8 * 1024));
      res.end('"}');
    });
    await expect(lookup()).rejects.toThrow(/too large/);
  });

  it('refuses a redirect to another host', async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/api/v2/hlr-lookup` });
      res.end();
    });
    await expect(lookup()).rejects.toBeInstanceOf(SourceFailedError);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('lands on the merged profile: carriers (original and ported), country, phone and status', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, documented));
    const hlrData = await lookup('14155550123');
    const profile = mergePhoneProfile({ hlrData } as Parameters<typeof mergePhoneProfile>[0]);
    expect(profile.carriers).toEqual([
      { value: 'Verizon Wireless', source: 'ISP Response' },
      { value: 'T-Mobile US', source: 'ISP Response', key: 'Ported' },
    ]);
    expect(profile.locations).toEqual([{ value: 'United States', source: 'ISP Response' }]);
    expect(profile.countryCodes).toEqual([{ value: 'US', source: 'ISP Response' }]);
    expect(profile.phones).toEqual([{ value: '+14155550123', source: 'ISP Response' }]);
    expect(profile.lastUpdated).toEqual([{ value: '07 Aug 2020, 21:46 IST', source: 'ISP Response' }]);
    expect(phoneHighlights({ hlrData } as Parameters<typeof phoneHighlights>[0]).phoneStatus).toBe('Active');
  });
});

describe('HLR Lookups variables', () => {
  it('switches on with both the key and the secret, and trims the base URL', () => {
    const parse = (env: Record<string, string>) => hlrLookups.configure(hlrLookups.env.parse(env));
    expect(parse({ HLR_LOOKUPS_API_KEY: 'k' })).toBeUndefined();
    expect(parse({ HLR_LOOKUPS_API_SECRET: 's' })).toBeUndefined();
    expect(parse({ HLR_LOOKUPS_API_KEY: 'k', HLR_LOOKUPS_API_SECRET: 's' })).toEqual({
      apiKey: 'k',
      apiSecret: 's',
      baseUrl: 'https://www.hlr-lookups.com/api/v2',
    });
    expect(
      parse({
        HLR_LOOKUPS_API_KEY: 'k',
        HLR_LOOKUPS_API_SECRET: 's',
        HLR_LOOKUPS_BASE_URL: 'http://127.0.0.1:9/v2/',
      })?.baseUrl,
    ).toBe('http://127.0.0.1:9/v2');
    const [only] = hlrLookups.providers({ apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9' }, info);
    expect(only).toMatchObject({
      id: 'hlr-lookups:hlrData',
      source: 'hlrData',
      kinds: ['tel'],
      sandbox: false,
    });
    expect(only!.vendor).toEqual(info);
    expect(hlrLookupsProvider({ apiKey: 'k', apiSecret: 's', baseUrl: 'x' }).kinds).toEqual(['tel']);
  });
});
