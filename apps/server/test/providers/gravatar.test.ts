import { type AvatarServiceData, mergeEmailProfile } from '@footprint/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GRAVATAR_MAX_BYTES, gravatar, gravatarHash } from '../../src/providers/http/gravatar.ts';
import {
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
  type VendorInfo,
} from '../../src/providers/types.ts';
import { DEMO } from '../../src/sandbox/providers/demo.ts';
import { personaFor } from '../../src/sandbox/providers/persona.ts';
import { fakeGravatarProfile, GRAVATAR_FAKE_KEY, gravatarFake } from '../fakes/gravatar.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream(gravatarFake());
});
afterAll(() => upstream.close());
beforeEach(() => upstream.setHandler(gravatarFake()));

const info: VendorInfo = { id: 'gravatar', name: 'Gravatar', costPerCall: 0, currency: 'USD' };

/** The adapter as the registry builds it, pointed at the fake. */
function provider(apiKey = GRAVATAR_FAKE_KEY) {
  const config = gravatar.configure(
    gravatar.env.parse({ GRAVATAR_API_KEY: apiKey, GRAVATAR_BASE_URL: `${upstream.url}/v3/` }),
  );
  const [only] = gravatar.providers(config!, info);
  return only!;
}

const lookup = (value: string, signal: AbortSignal = AbortSignal.timeout(5000)) =>
  provider().fetch({ kind: 'email', value }, signal);

/** A documented Profile, filled with synthetic values. */
const profile = (overrides: Record<string, unknown> = {}) => ({
  hash: 'a'.repeat(64),
  display_name: 'Asha Rao',
  profile_url: 'https://gravatar.example.test/asharao',
  avatar_url: 'https://gravatar.example.test/avatar/aaaa',
  avatar_alt_text: '',
  location: 'Pune, India',
  description: 'Builds things.',
  job_title: 'Architect',
  company: 'Orbitly Labs',
  verified_accounts: [
    {
      service_type: 'github',
      service_label: 'GitHub',
      service_icon: 'https://gravatar.example.test/icons/github.svg',
      url: 'https://github.example.test/asharao',
      is_hidden: false,
    },
    {
      service_type: 'tumblr',
      service_label: 'Tumblr',
      service_icon: 'https://gravatar.example.test/icons/tumblr.svg',
      url: 'https://tumblr.example.test/asharao',
      is_hidden: true,
    },
  ],
  pronunciation: '',
  pronouns: '',
  ...overrides,
});

const asharao: AvatarServiceData = {
  data: [
    {
      source: 'Gravatar',
      status: 'found',
      username: 'asharao',
      avatar_url: 'https://gravatar.example.test/avatar/aaaa',
      profile_url: 'https://gravatar.example.test/asharao',
      display_name: 'Asha Rao',
      location: 'Pune, India',
      job_title: 'Architect',
      company: 'Orbitly Labs',
    },
    {
      source: 'GitHub',
      status: 'found',
      username: null,
      avatar_url: null,
      profile_url: 'https://github.example.test/asharao',
    },
  ],
};

describe('Gravatar vendor definition', () => {
  it('is off without a key and defaults to the documented base URL', () => {
    expect(gravatar.configure(gravatar.env.parse({}))).toBeUndefined();
    expect(gravatar.configure(gravatar.env.parse({ GRAVATAR_API_KEY: '  ' }))).toBeUndefined();
    expect(gravatar.configure(gravatar.env.parse({ GRAVATAR_API_KEY: 'k' }))).toEqual({
      apiKey: 'k',
      baseUrl: 'https://api.gravatar.com/v3',
    });
    expect(gravatar.currency).toBe('USD');
    for (const [name, schema] of Object.entries(gravatar.env.shape))
      expect(schema.description, name).toBeTruthy();
  });

  it('runs one provider: zehefData, for e-mail lookups only, carrying the vendor', () => {
    const p = provider();
    expect(p).toMatchObject({
      id: 'gravatar:zehefData',
      source: 'zehefData',
      kinds: ['email'],
      sandbox: false,
    });
    expect(p.vendor).toBe(info);
  });
});

describe('Gravatar REST API v3 adapter', () => {
  it('hashes the trimmed, lower-cased address with SHA-256, as Gravatar documents', () => {
    // The example from docs.gravatar.com "Core Concepts" → Email Hashing.
    expect(gravatarHash('MyEmailAddress@example.com ')).toBe(
      '84059b07d4be67b806386c0aad8070a23f18836bbaae342275dc0a83414c32ee',
    );
  });

  it('sends GET /profiles/{hash} with the Bearer key, and maps the profile', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, profile()));
    const before = upstream.requests.length;
    const payload = await lookup('myemailaddress@example.com');
    expect(upstream.requests.length).toBe(before + 1);
    const req = upstream.requests[before]!;
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/v3/profiles/84059b07d4be67b806386c0aad8070a23f18836bbaae342275dc0a83414c32ee');
    expect(req.headers.authorization).toBe(`Bearer ${GRAVATAR_FAKE_KEY}`);
    expect(req.headers.accept).toBe('application/json');
    expect(req.body).toBe('');
    expect(payload).toEqual(asharao);
  });

  it("reads the fake's deterministic profile for any address", async () => {
    const value = 'asha.rao@example.test';
    const hash = gravatarHash(value);
    // Pick an address the fake has a profile for, whatever the hash.
    upstream.setHandler(gravatarFake({ missing: () => false }));
    const expected = fakeGravatarProfile(hash, personaFor(`gravatar:${hash}`), true);
    const payload = (await lookup(value)) as AvatarServiceData;
    const [first, ...others] = payload.data ?? [];
    expect(first).toMatchObject({
      source: 'Gravatar',
      status: 'found',
      display_name: expected.display_name,
      avatar_url: expected.avatar_url,
      profile_url: expected.profile_url,
    });
    expect(others.map((item) => item?.profile_url)).toEqual(
      expected.verified_accounts.filter((a) => !a.is_hidden).map((a) => a.url),
    );
    expect(await lookup(value)).toEqual(payload);
  });

  it('turns empty strings into nulls and drops hidden or unlabelled verified accounts', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(
        res,
        200,
        profile({
          display_name: '',
          location: ' ',
          job_title: '',
          company: '',
          avatar_url: '',
          profile_url: 'https://gravatar.example.test/a/b',
          verified_accounts: [{ service_label: '', url: 'https://x.example.test/a', is_hidden: false }],
        }),
      ),
    );
    expect(await lookup('a@example.test')).toEqual({
      data: [
        {
          source: 'Gravatar',
          status: 'found',
          username: null,
          avatar_url: null,
          profile_url: 'https://gravatar.example.test/a/b',
          display_name: null,
          location: null,
          job_title: null,
          company: null,
        },
      ],
    });
  });

  it('reads 404 as "no profile", with or without an error body', async () => {
    await expect(lookup(DEMO.emptyEmail)).rejects.toBeInstanceOf(SourceNotFoundError);
    upstream.setHandler((_req, res) => sendJson(res, 404, { error: 'Profile not found', code: 'not_found' }));
    await expect(lookup('ghost@example.test')).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it('flags a refused key as misconfiguration', async () => {
    const failure = provider('wrong-key').fetch(
      { kind: 'email', value: DEMO.richEmail },
      AbortSignal.timeout(5000),
    );
    await expect(failure).rejects.toBeInstanceOf(SourceMisconfiguredError);
    await expect(failure).rejects.toMatchObject({ status: 401 });
  });

  it('reports 429 as rate limited, with Retry-After when sent and without when not', async () => {
    const limited = { error: 'Rate limit exceeded', code: 'rate_limit_exceeded' };
    upstream.setHandler((_req, res) => sendJson(res, 429, limited, { 'retry-after': '30' }));
    await expect(lookup('a@example.test')).rejects.toMatchObject({
      name: 'SourceRateLimitedError',
      retryAfterMs: 30_000,
    });
    upstream.setHandler((_req, res) => sendJson(res, 429, limited, { 'x-ratelimit-reset': '1900000000' }));
    const failure = lookup('a@example.test');
    await expect(failure).rejects.toBeInstanceOf(SourceRateLimitedError);
    await expect(failure).rejects.toMatchObject({ retryAfterMs: undefined });
  });

  it('fails on 500, malformed JSON, HTML, an error envelope with 200 and a field of the wrong type', async () => {
    const cases: Array<[string, (res: import('node:http').ServerResponse) => void, RegExp]> = [
      ['500', (res) => sendJson(res, 500, ''), /answered 500/],
      ['malformed', (res) => sendJson(res, 200, '{"hash": "aa", "display_name"'), /malformed JSON/],
      [
        'html',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html><body>Gravatar is down</body></html>');
        },
        /text\/html, not JSON/,
      ],
      [
        'error envelope',
        (res) => sendJson(res, 200, { error: 'Rate limit exceeded', code: 'rate_limit_exceeded' }),
        /unexpected shape \(hash\)/,
      ],
      [
        'wrong type',
        (res) => sendJson(res, 200, profile({ display_name: 42 })),
        /unexpected shape \(display_name\)/,
      ],
      [
        'wrong nested type',
        (res) => sendJson(res, 200, profile({ verified_accounts: [{ service_label: 'GitHub', url: 7 }] })),
        /unexpected shape \(verified_accounts\.0\.url\)/,
      ],
    ];
    for (const [name, answer, message] of cases) {
      upstream.setHandler((_req, res) => answer(res));
      const failure = lookup('a@example.test');
      await expect(failure, name).rejects.toBeInstanceOf(SourceFailedError);
      await expect(failure, name).rejects.toThrow(message);
    }
  });

  it('stops promptly when the signal aborts', async () => {
    upstream.setHandler(() => {
      // Never answers.
    });
    const started = Date.now();
    await expect(lookup('slow@example.test', AbortSignal.timeout(150))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses an answer larger than its cap, declared or streamed', async () => {
    const big = JSON.stringify(profile({ description: 'x'.repeat(GRAVATAR_MAX_BYTES) }));
    upstream.setHandler((_req, res) => sendJson(res, 200, big));
    await expect(lookup('a@example.test')).rejects.toThrow(/too large/);
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(big.slice(0, 1000));
      res.end(big.slice(1000));
    });
    await expect(lookup('a@example.test')).rejects.toThrow(/too large/);
    // Just under the cap is still read.
    const fits = JSON.stringify(profile({ description: 'x'.repeat(GRAVATAR_MAX_BYTES - 2000) }));
    upstream.setHandler((_req, res) => sendJson(res, 200, fits));
    await expect(lookup('a@example.test')).resolves.toBeDefined();
  });

  it('refuses a redirect to another host', async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(302, { location: 'http://elsewhere.example.test/v3/profiles/x' });
      res.end();
    });
    await expect(lookup('a@example.test')).rejects.toBeInstanceOf(SourceFailedError);
  });
});

describe('Gravatar answer on the results screen', () => {
  it('gives the merged e-mail profile its name, photo, place, job, username and accounts', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, profile()));
    const zehefData = (await lookup('asha.rao@example.test')) as AvatarServiceData;
    const merged = mergeEmailProfile({ zehefData });
    const values = (entries: Array<{ value: string; source: string }>) =>
      entries.map((e) => [e.value, e.source]);
    expect(values(merged.names)).toEqual([['Asha Rao', 'Avatar Service']]);
    expect(merged.images).toEqual([
      { url: 'https://gravatar.example.test/avatar/aaaa', source: 'Avatar Service' },
    ]);
    expect(values(merged.locations)).toEqual([['Pune, India', 'Avatar Service']]);
    expect(values(merged.jobProfiles)).toEqual([['Architect at Orbitly Labs', 'Avatar Service']]);
    expect(values(merged.usernames)).toEqual([['asharao', 'Avatar Service']]);
    expect(merged.internetPresence).toEqual([
      {
        platform: 'Gravatar',
        active: true,
        url: 'https://gravatar.example.test/asharao',
        source: 'Avatar Service',
      },
      {
        platform: 'GitHub',
        active: true,
        url: 'https://github.example.test/asharao',
        source: 'Avatar Service',
      },
    ]);
  });
});
