import { mergePhoneProfile } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twilio, twilioCredentials } from '../../src/providers/http/twilio.ts';
import {
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
} from '../../src/providers/types.ts';
import {
  TWILIO_FAKE_PASSWORD,
  TWILIO_FAKE_USER,
  twilioError,
  twilioFake,
  twilioFakeAnswer,
} from '../fakes/twilio.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;

let upstream: Upstream;
let elsewhere: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream(twilioFake());
  elsewhere = await startFakeUpstream((_req, res) => sendJson(res, 200, {}));
});
afterAll(async () => {
  await upstream.close();
  await elsewhere.close();
});

const info = { id: 'twilio', name: 'Twilio', costPerCall: 0.01, currency: 'USD' };

/** The provider as the registry builds it. */
function provider(env: Record<string, string> = {}) {
  const config = twilio.configure(
    twilio.env.parse({
      TWILIO_API_KEY_SID: TWILIO_FAKE_USER,
      TWILIO_API_KEY_SECRET: TWILIO_FAKE_PASSWORD,
      TWILIO_LOOKUP_BASE_URL: `${upstream.url}/v2`,
      ...env,
    }),
  )!;
  const [only] = twilio.providers(config, info);
  return only!;
}

const tel = (value: string) => ({ kind: 'tel' as const, value });
const signal = () => AbortSignal.timeout(5000);
const lookup = (value = '14155550123') => provider().fetch(tel(value), signal());
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Twilio's documented "fetchCallerName" example, with a synthetic number and a fictional name. */
const documented = {
  calling_country_code: '1',
  country_code: 'US',
  phone_number: '+14155550123',
  national_format: '(415) 555-0123',
  valid: true,
  validation_errors: null,
  caller_name: { caller_name: 'Avery Quill', caller_type: 'CONSUMER', error_code: null },
  sim_swap: null,
  call_forwarding: null,
  live_activity: null,
  line_type_intelligence: null,
  identity_match: null,
  reassigned_number: null,
  sms_pumping_risk: null,
  phone_number_quality_score: null,
  url: 'https://lookups.twilio.com/v2/PhoneNumbers/+14155550123',
};

describe('Twilio Lookup v2 Caller Name adapter', () => {
  it('asks for caller_name on the E.164 number with HTTP Basic and maps the name into tcData', async () => {
    upstream.setHandler(twilioFake());
    const before = upstream.requests.length;
    const payload = await lookup('14155550123');
    expect(upstream.requests.length).toBe(before + 1);
    const req = upstream.requests[before]!;
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/v2/PhoneNumbers/+14155550123?Fields=caller_name');
    expect(req.headers.authorization).toBe(basic(TWILIO_FAKE_USER, TWILIO_FAKE_PASSWORD));
    expect(req.body).toBe('');
    const answer = twilioFakeAnswer('+14155550123', ['caller_name']) as {
      caller_name: { caller_name: string; caller_type: string };
    };
    expect(payload).toEqual({
      data: {
        basicInfo: {
          name: { fullName: answer.caller_name.caller_name, altName: null },
          callerType: answer.caller_name.caller_type === 'BUSINESS' ? 'Business' : 'Consumer',
        },
        addressInfo: { address: null, countryCode: 'US' },
        phoneInfo: { number: '+14155550123', carrier: null },
      },
    });
  });

  it('maps the documented example exactly', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, documented));
    expect(await lookup()).toEqual({
      data: {
        basicInfo: { name: { fullName: 'Avery Quill', altName: null }, callerType: 'Consumer' },
        addressInfo: { address: null, countryCode: 'US' },
        phoneInfo: { number: '+14155550123', carrier: null },
      },
    });
  });

  it('signs in with the Account SID and auth token when no API key is set', async () => {
    const account = 'AC00000000000000000000000000000000';
    upstream.setHandler(twilioFake({ username: account, password: 'fake-auth-token' }));
    const before = upstream.requests.length;
    const byAccount = provider({
      TWILIO_API_KEY_SID: '',
      TWILIO_API_KEY_SECRET: '',
      TWILIO_ACCOUNT_SID: account,
      TWILIO_AUTH_TOKEN: 'fake-auth-token',
    });
    await expect(byAccount.fetch(tel('14155550123'), signal())).resolves.toMatchObject({ data: {} });
    expect(upstream.requests[before]!.headers.authorization).toBe(basic(account, 'fake-auth-token'));
  });

  it('treats an invalid number, no caller_name package, an error_code without a name and 404 as not found', async () => {
    upstream.setHandler(twilioFake());
    // Area code 123 is not a NANP area code: Twilio answers 200 with valid: false.
    await expect(lookup('11235550123')).rejects.toThrow(/invalid/);
    await expect(lookup('14155550000')).rejects.toThrow(/No caller name.*Twilio error 60600/);
    upstream.setHandler((_req, res) => sendJson(res, 200, { ...documented, caller_name: null }));
    await expect(lookup()).rejects.toBeInstanceOf(SourceNotFoundError);
    upstream.setHandler((_req, res) =>
      sendJson(res, 200, {
        ...documented,
        caller_name: { caller_name: '  ', caller_type: null, error_code: null },
      }),
    );
    await expect(lookup()).rejects.toBeInstanceOf(SourceNotFoundError);
    upstream.setHandler((_req, res) => sendJson(res, 404, twilioError(404, 20404, 'Not found')));
    await expect(lookup()).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it('does not call Twilio for numbers outside +1 (Caller Name covers US carriers only)', async () => {
    const before = upstream.requests.length;
    await expect(lookup('919876543210')).rejects.toBeInstanceOf(SourceNotFoundError);
    await expect(lookup('447700900123')).rejects.toBeInstanceOf(SourceNotFoundError);
    expect(upstream.requests.length).toBe(before);
  });

  it('reads 401 from the fake (wrong secret) as misconfigured', async () => {
    upstream.setHandler(twilioFake());
    await expect(
      provider({ TWILIO_API_KEY_SECRET: 'not-the-secret' }).fetch(tel('14155550123'), signal()),
    ).rejects.toBeInstanceOf(SourceMisconfiguredError);
  });

  it('reads 429 with Retry-After as rate limited', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(res, 429, twilioError(429, 20429, 'Too Many Requests'), { 'retry-after': '3' }),
    );
    const error = await lookup().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceRateLimitedError);
    expect((error as SourceRateLimitedError).retryAfterMs).toBe(3000);
  });

  it('fails on 500', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 500, twilioError(500, 20500, 'Internal Server Error')));
    const error = await lookup().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceFailedError);
    expect((error as SourceFailedError).status).toBe(500);
  });

  it('fails on malformed JSON, an HTML page, an error envelope with 200 and a field of the wrong type', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, '{"phone_number": "+14155550123",'));
    await expect(lookup()).rejects.toThrow(/malformed JSON/);
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Sign in</title>');
    });
    await expect(lookup()).rejects.toThrow(/text\/html, not JSON/);
    upstream.setHandler((_req, res) => sendJson(res, 200, twilioError(401, 20003, 'Authenticate')));
    await expect(lookup()).rejects.toThrow(/unexpected shape/);
    upstream.setHandler((_req, res) =>
      sendJson(res, 200, { ...documented, caller_name: { ...documented.caller_name, caller_name: 42 } }),
    );
    await expect(lookup()).rejects.toThrow(/unexpected shape \(caller_name.caller_name\)/);
    upstream.setHandler((_req, res) => sendJson(res, 200, { ...documented, valid: 'yes' }));
    await expect(lookup()).rejects.toThrow(/unexpected shape \(valid\)/);
  });

  it('stops when the signal aborts', async () => {
    upstream.setHandler(() => undefined);
    const started = Date.now();
    await expect(provider().fetch(tel('14155550123'), AbortSignal.timeout(200))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an answer larger than the cap, declared or streamed', async () => {
    const big = JSON.stringify({ ...documented, url: 'x'.repeat(300 * 1024) });
    upstream.setHandler((_req, res) => sendJson(res, 200, big, { 'content-length': String(big.length) }));
    await expect(lookup()).rejects.toThrow(/too large/);
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"url":"');
      for (let i = 0; i < 40; i++) res.write('x'.repeat(8 * 1024));
      res.end('"}');
    });
    await expect(lookup()).rejects.toThrow(/too large/);
  });

  it('refuses a redirect to another host', async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/v2/PhoneNumbers/+14155550123` });
      res.end();
    });
    await expect(lookup()).rejects.toBeInstanceOf(SourceFailedError);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('lands on the merged profile: the caller name, its type, the number and country', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, documented));
    const tcData = await lookup();
    const profile = mergePhoneProfile({ tcData } as Parameters<typeof mergePhoneProfile>[0]);
    expect(profile.names).toEqual([{ value: 'Avery Quill', source: 'Caller ID' }]);
    expect(profile.basicInfo).toEqual([{ value: 'Consumer', source: 'Caller ID', key: 'Caller Type' }]);
    expect(profile.phones).toEqual([{ value: '+14155550123', source: 'Caller ID' }]);
    expect(profile.countryCodes).toEqual([{ value: 'US', source: 'Caller ID' }]);
  });
});

describe('Twilio variables', () => {
  it('switches on with either credential pair, the API key winning, and trims the base URL', () => {
    const parse = (env: Record<string, string>) => twilio.configure(twilio.env.parse(env));
    expect(parse({})).toBeUndefined();
    expect(parse({ TWILIO_API_KEY_SID: 'SK1' })).toBeUndefined();
    expect(parse({ TWILIO_ACCOUNT_SID: 'AC1' })).toBeUndefined();
    expect(parse({ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' })).toEqual({
      username: 'AC1',
      password: 't',
      baseUrl: 'https://lookups.twilio.com/v2',
    });
    expect(
      twilioCredentials({
        TWILIO_API_KEY_SID: 'SK1',
        TWILIO_API_KEY_SECRET: 's',
        TWILIO_ACCOUNT_SID: 'AC1',
        TWILIO_AUTH_TOKEN: 't',
      }),
    ).toEqual({ username: 'SK1', password: 's' });
    expect(
      parse({
        TWILIO_API_KEY_SID: 'SK1',
        TWILIO_API_KEY_SECRET: 's',
        TWILIO_LOOKUP_BASE_URL: 'http://127.0.0.1:9/v2/',
      })?.baseUrl,
    ).toBe('http://127.0.0.1:9/v2');
    const [only] = twilio.providers({ username: 'SK1', password: 's', baseUrl: 'http://127.0.0.1:9' }, info);
    expect(only).toMatchObject({ id: 'twilio:tcData', source: 'tcData', kinds: ['tel'], sandbox: false });
    expect(only!.vendor).toEqual(info);
  });
});
