import type { ServerResponse } from 'node:http';
import { type LinkedPersonData, mergeEmailProfile } from '@footprint/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PDL_MAX_BYTES, pdl } from '../../src/providers/http/pdl.ts';
import {
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
  type VendorInfo,
} from '../../src/providers/types.ts';
import { DEMO, emailPersona } from '../../src/sandbox/providers/demo.ts';
import { defaultLikelihood, PDL_FAKE_KEY, pdlFake } from '../fakes/pdl.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream(pdlFake());
});
afterAll(() => upstream.close());
beforeEach(() => upstream.setHandler(pdlFake()));

const info: VendorInfo = { id: 'pdl', name: 'People Data Labs', costPerCall: 0.28, currency: 'USD' };

/** The adapter as the registry builds it, pointed at the fake. */
function provider(env: Record<string, string> = {}) {
  const config = pdl.configure(
    pdl.env.parse({ PDL_API_KEY: PDL_FAKE_KEY, PDL_BASE_URL: `${upstream.url}/v5`, ...env }),
  );
  const [only] = pdl.providers(config!, info);
  return only!;
}

const lookup = (
  value: string,
  signal: AbortSignal = AbortSignal.timeout(5000),
  env: Record<string, string> = {},
) => provider(env).fetch({ kind: 'email', value }, signal);

/** A documented enrichment answer, synthetic, as PDL writes it with titlecase=true. */
const record = (overrides: Record<string, unknown> = {}) => ({
  id: 'qEnOZ5Oh0poWnQ1luFBfVw_0000',
  full_name: 'Asha Rao',
  first_name: 'Asha',
  last_name: 'Rao',
  sex: 'female',
  linkedin_url: 'linkedin.example.test/in/asha-rao',
  headline: null,
  job_title: 'Solutions Architect',
  job_company_name: 'Orbitly Labs',
  location_name: 'Pune, Maharashtra, India',
  location_locality: 'Pune',
  location_region: 'Maharashtra',
  location_country: 'India',
  location_names: ['Pune, Maharashtra, India', 'Nagpur, Maharashtra, India'],
  mobile_phone: '+15555550101',
  phone_numbers: ['+15555550101', '+15555550102'],
  work_email: 'asha@orbitly.example.com',
  skills: ['Kubernetes', 'Go'],
  interests: ['chess'],
  experience: [
    {
      company: { name: 'Tiffinwala', website: 'tiffinwala.example.com', size: '11-50' },
      title: { name: 'Engineer', role: 'engineering', levels: [] },
      start_date: '2014-06',
      end_date: '2018-01',
      is_primary: false,
    },
    {
      company: { name: 'Orbitly Labs', website: 'orbitly.example.com' },
      title: { name: 'Solutions Architect', role: 'engineering', levels: ['senior'] },
      start_date: '2021',
      end_date: null,
      is_primary: true,
    },
    {
      company: { name: 'Paisaplume', website: null },
      title: { name: 'Senior Engineer' },
      start_date: '2018-02',
      end_date: '2021',
      is_primary: false,
    },
  ],
  education: [
    {
      school: {
        name: 'Gangotri University',
        type: 'post-secondary institution',
        website: 'gangotri.example.org',
      },
      degrees: ['Bachelors', 'Bachelor Of Technology'],
      majors: ['Computer Science'],
      minors: [],
      start_date: '2010',
      end_date: '2014-05-31',
      gpa: null,
    },
  ],
  profiles: [
    { network: 'linkedin', url: 'linkedin.example.test/in/asha-rao', username: 'asha-rao', id: null },
    { network: 'github', url: 'github.example.test/asharao', username: 'asharao', id: null },
    { network: 'bogus', url: 'javascript:alert(1)', username: null, id: null },
  ],
  ...overrides,
});

const answer = (data: unknown, likelihood = 9) => ({ status: 200, likelihood, data });

const ashaRao: LinkedPersonData = {
  person: {
    displayName: 'Asha Rao',
    location: 'Pune, Maharashtra, India',
    locationHistory: ['Pune, Maharashtra, India', 'Nagpur, Maharashtra, India'],
    phoneNumbers: ['+15555550101', '+15555550102'],
    linkedInUrl: 'https://linkedin.example.test/in/asha-rao',
    photoUrl: null,
    headline: 'Solutions Architect at Orbitly Labs',
    schools: {
      educationHistory: [
        {
          schoolName: 'Gangotri University',
          degreeName: 'Bachelors, Bachelor Of Technology',
          fieldOfStudy: 'Computer Science',
          schoolUrl: 'https://gangotri.example.org',
          startEndDate: { start: { year: 2010 }, end: { year: 2014 } },
        },
      ],
    },
    positions: {
      positionHistory: [
        {
          title: 'Solutions Architect',
          companyName: 'Orbitly Labs',
          companyUrl: 'https://orbitly.example.com',
          startEndDate: { start: { year: 2021 }, end: null },
        },
        {
          title: 'Senior Engineer',
          companyName: 'Paisaplume',
          companyUrl: null,
          startEndDate: { start: { year: 2018 }, end: { year: 2021 } },
        },
        {
          title: 'Engineer',
          companyName: 'Tiffinwala',
          companyUrl: 'https://tiffinwala.example.com',
          startEndDate: { start: { year: 2014 }, end: { year: 2018 } },
        },
      ],
    },
    skills: ['Kubernetes', 'Go'],
    profiles: [
      { network: 'github', url: 'https://github.example.test/asharao', username: 'asharao' },
      { network: 'bogus', url: null, username: null },
    ],
  },
};

/** An address whose fake likelihood is exactly `n` (the fake derives it from a hash). */
function addressWithLikelihood(n: number): string {
  for (let i = 0; ; i++) {
    const address = `person${i}@example.test`;
    if (defaultLikelihood(address) === n) return address;
  }
}

describe('People Data Labs vendor definition', () => {
  it('is off without a key; documented base URL and our likelihood floor by default', () => {
    expect(pdl.configure(pdl.env.parse({}))).toBeUndefined();
    expect(pdl.configure(pdl.env.parse({ PDL_API_KEY: '' }))).toBeUndefined();
    expect(pdl.configure(pdl.env.parse({ PDL_API_KEY: 'k', PDL_MIN_LIKELIHOOD: '' }))).toEqual({
      apiKey: 'k',
      baseUrl: 'https://api.peopledatalabs.com/v5',
      minLikelihood: 6,
    });
    expect(pdl.env.parse({ PDL_MIN_LIKELIHOOD: '9' }).PDL_MIN_LIKELIHOOD).toBe(9);
    for (const bad of ['0', '11', '5.5', 'high'])
      expect(pdl.env.safeParse({ PDL_MIN_LIKELIHOOD: bad }).success, bad).toBe(false);
    expect(pdl.currency).toBe('USD');
    for (const [name, schema] of Object.entries(pdl.env.shape)) expect(schema.description, name).toBeTruthy();
  });

  it('runs one provider: getuserData, for e-mail lookups only, carrying the vendor', () => {
    const p = provider();
    expect(p).toMatchObject({
      id: 'pdl:getuserData',
      source: 'getuserData',
      kinds: ['email'],
      sandbox: false,
    });
    expect(p.vendor).toBe(info);
  });
});

describe('People Data Labs Person Enrichment v5 adapter', () => {
  it('sends GET /person/enrich with the e-mail, the likelihood floor, titlecase and the key', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, answer(record())));
    const before = upstream.requests.length;
    const payload = await lookup('a+b@example.test');
    expect(upstream.requests.length).toBe(before + 1);
    const req = upstream.requests[before]!;
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/v5/person/enrich?email=a%2Bb%40example.test&min_likelihood=6&titlecase=true');
    expect(req.headers['x-api-key']).toBe(PDL_FAKE_KEY);
    expect(req.headers.accept).toBe('application/json');
    expect(req.body).toBe('');
    expect(payload).toEqual(ashaRao);
  });

  it('sends the configured likelihood floor', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, answer(record())));
    const before = upstream.requests.length;
    await lookup('a@example.test', undefined, { PDL_MIN_LIKELIHOOD: '9' });
    expect(new URL(upstream.requests[before]!.url, 'http://x').searchParams.get('min_likelihood')).toBe('9');
  });

  it("maps the fake's deterministic person, title-cased, and the same again on a repeat", async () => {
    const address = DEMO.richEmail;
    const persona = emailPersona(address);
    const payload = (await lookup(address)) as LinkedPersonData;
    expect(payload.person?.displayName).toBe(persona.fullName);
    expect(payload.person?.positions?.positionHistory?.[0]).toMatchObject({
      title: persona.positions[0]!.title,
      companyName: persona.positions[0]!.company,
      companyUrl: persona.positions[0]!.url.replace('//www.', '//'),
    });
    expect(payload.person?.linkedInUrl).toMatch(/^https:\/\/linkedin\.example\.test\/in\//);
    expect(payload.person?.profiles?.map((p) => p?.network)).toEqual(['twitter', 'github']);
    expect(await lookup(address)).toEqual(payload);
  });

  it('keeps a weaker match out, as PDL does below min_likelihood', async () => {
    const address = addressWithLikelihood(4);
    await expect(lookup(address)).rejects.toBeInstanceOf(SourceNotFoundError);
    const payload = (await lookup(address, undefined, { PDL_MIN_LIKELIHOOD: '4' })) as LinkedPersonData;
    expect(payload.person?.displayName).toBe(emailPersona(address).fullName);
  });

  it('drops the true/false a free plan sends in place of contact fields', async () => {
    upstream.setHandler(pdlFake({ plan: 'free' }));
    const payload = (await lookup(DEMO.richEmail)) as LinkedPersonData;
    expect(payload.person).toMatchObject({ phoneNumbers: [], locationHistory: [], location: 'India' });
    upstream.setHandler((_req, res) =>
      sendJson(
        res,
        200,
        answer(
          record({ location_name: true, location_names: false, phone_numbers: true, mobile_phone: false }),
        ),
      ),
    );
    expect(((await lookup('a@example.test')) as LinkedPersonData).person).toMatchObject({
      location: 'Pune, Maharashtra, India',
      locationHistory: [],
      phoneNumbers: [],
    });
  });

  it('builds the headline and name from parts when PDL has no headline or full name', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(
        res,
        200,
        answer(record({ full_name: null, job_company_name: null, headline: 'Builds platforms' })),
      ),
    );
    expect(((await lookup('a@example.test')) as LinkedPersonData).person).toMatchObject({
      displayName: 'Asha Rao',
      headline: 'Builds platforms',
    });
    upstream.setHandler((_req, res) => sendJson(res, 200, answer(record({ job_company_name: null }))));
    expect(((await lookup('a@example.test')) as LinkedPersonData).person?.headline).toBe(
      'Solutions Architect',
    );
  });

  it('reads 404 as "no match"', async () => {
    await expect(lookup(DEMO.emptyEmail)).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it('flags a refused key and an account out of credits as misconfiguration', async () => {
    const refused = provider({ PDL_API_KEY: 'wrong' }).fetch(
      { kind: 'email', value: DEMO.richEmail },
      AbortSignal.timeout(5000),
    );
    await expect(refused).rejects.toBeInstanceOf(SourceMisconfiguredError);
    await expect(refused).rejects.toMatchObject({ status: 401 });
    upstream.setHandler((_req, res) =>
      sendJson(res, 402, {
        status: 402,
        error: { type: 'payment_required', message: 'You have hit your account maximum' },
      }),
    );
    const broke = lookup('a@example.test');
    await expect(broke).rejects.toBeInstanceOf(SourceMisconfiguredError);
    await expect(broke).rejects.toMatchObject({ status: 402 });
  });

  it('reports 429 as rate limited with Retry-After', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(
        res,
        429,
        { status: 429, error: { type: 'rate_limit_error', message: 'Slow down' } },
        { 'retry-after': '12' },
      ),
    );
    const failure = lookup('a@example.test');
    await expect(failure).rejects.toBeInstanceOf(SourceRateLimitedError);
    await expect(failure).rejects.toMatchObject({ retryAfterMs: 12_000 });
  });

  it('fails on 400, 500, malformed JSON, HTML, an error envelope with 200 and fields of the wrong type', async () => {
    const cases: Array<[string, (res: ServerResponse) => void, RegExp]> = [
      [
        '400',
        (res) => sendJson(res, 400, { status: 400, error: { type: 'invalid_request_error', message: 'x' } }),
        /answered 400/,
      ],
      [
        '500',
        (res) => sendJson(res, 500, { status: 500, error: { type: 'internal', message: 'x' } }),
        /answered 500/,
      ],
      ['malformed', (res) => sendJson(res, 200, '{"status": 200, "data": {'), /malformed JSON/],
      [
        'html',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end('<!doctype html><title>Maintenance</title>');
        },
        /text\/html, not JSON/,
      ],
      [
        'error envelope',
        (res) => sendJson(res, 200, { status: 404, error: { type: 'not_found', message: 'No records' } }),
        /unexpected shape \(status\)/,
      ],
      [
        'wrong type',
        (res) => sendJson(res, 200, answer(record({ full_name: 42 }))),
        /unexpected shape \(data\.full_name\)/,
      ],
      [
        'wrong nested type',
        (res) => sendJson(res, 200, answer(record({ experience: [{ title: { name: ['Engineer'] } }] }))),
        /unexpected shape \(data\.experience\.0\.title\.name\)/,
      ],
      [
        'a list where text is due',
        (res) => sendJson(res, 200, answer(record({ skills: 'Go' }))),
        /unexpected shape/,
      ],
    ];
    for (const [name, respond, message] of cases) {
      upstream.setHandler((_req, res) => respond(res));
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
    const big = JSON.stringify(answer(record({ interests: ['x'.repeat(PDL_MAX_BYTES)] })));
    upstream.setHandler((_req, res) => sendJson(res, 200, big));
    await expect(lookup('a@example.test')).rejects.toThrow(/too large/);
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(big.slice(0, 1000));
      res.end(big.slice(1000));
    });
    await expect(lookup('a@example.test')).rejects.toThrow(/too large/);
    const fits = JSON.stringify(answer(record({ interests: ['x'.repeat(PDL_MAX_BYTES - 5000)] })));
    upstream.setHandler((_req, res) => sendJson(res, 200, fits));
    await expect(lookup('a@example.test')).resolves.toBeDefined();
  });

  it('refuses a redirect to another host', async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(307, { location: 'http://elsewhere.example.test/v5/person/enrich' });
      res.end();
    });
    await expect(lookup('a@example.test')).rejects.toBeInstanceOf(SourceFailedError);
  });
});

describe('People Data Labs answer on the results screen', () => {
  it('gives the merged e-mail profile its name, places, phones, jobs, schools, skills and accounts', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, answer(record())));
    const getuserData = (await lookup('asha.rao@example.test')) as LinkedPersonData;
    const merged = mergeEmailProfile({ getuserData });
    const values = (entries: Array<{ value: string; source: string }>) =>
      entries.map((e) => [e.value, e.source]);
    expect(values(merged.names)).toEqual([['Asha Rao', 'GetUser']]);
    expect(values(merged.locations)).toEqual([
      ['Pune, Maharashtra, India', 'GetUser'],
      ['Nagpur, Maharashtra, India', 'GetUser'],
    ]);
    expect(values(merged.phones)).toEqual([
      ['+15555550101', 'GetUser'],
      ['+15555550102', 'GetUser'],
    ]);
    expect(values(merged.usernames)).toEqual([['asharao', 'GetUser']]);
    expect(values(merged.jobProfiles)).toEqual([
      ['Solutions Architect at Orbitly Labs', 'LinkedIn'],
      ['Senior Engineer at Paisaplume', 'LinkedIn'],
      ['Engineer at Tiffinwala', 'LinkedIn'],
    ]);
    expect(merged.experience[0]).toEqual({
      title: 'Solutions Architect',
      company: 'Orbitly Labs',
      url: 'https://orbitly.example.com',
      startYear: 2021,
      source: 'LinkedIn',
    });
    expect(merged.qualifications).toEqual([
      {
        degree: 'Bachelors, Bachelor Of Technology',
        field: 'Computer Science',
        school: 'Gangotri University',
        url: 'https://gangotri.example.org',
        startYear: 2010,
        endYear: 2014,
        source: 'LinkedIn',
      },
    ]);
    expect(values(merged.skills)).toEqual([
      ['Kubernetes', 'LinkedIn'],
      ['Go', 'LinkedIn'],
    ]);
    expect(merged.internetPresence).toEqual([
      { platform: 'Github', active: true, url: 'https://github.example.test/asharao', source: 'GetUser' },
      { platform: 'Bogus', active: true, source: 'GetUser' },
      {
        platform: 'LinkedIn',
        active: true,
        url: 'https://linkedin.example.test/in/asha-rao',
        source: 'LinkedIn',
      },
    ]);
  });
});
