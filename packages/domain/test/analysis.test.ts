import { describe, expect, it } from 'vitest';
import {
  type AnalysisAttribute,
  analyzeEmailLookup,
  analyzePhoneLookup,
  confidenceFor,
  type EmailLookupData,
  isoDay,
  MAX_CONFIDENCE,
  MAX_NEXT_STEPS,
  type PhoneLookupResponse,
  type ProfileAnalysis,
  SOURCE_RELIABILITY,
} from '../src/index.ts';
import { conflictingPhone, emptyEmail, richEmail, richPhone, sparsePhone } from './fixtures/answers.ts';

/** Untyped on purpose: the malformed-input tests put wrong types where the payload types forbid them. */
const phone = (value: unknown) => value as Partial<PhoneLookupResponse>;
const email = (value: unknown) => value as Partial<EmailLookupData>;

/** Values without their provenance (tested on its own). */
const plain = (values: AnalysisAttribute['values']) => values.map(({ provenance: _, ...value }) => value);

const attr = (analysis: ProfileAnalysis, name: string): AnalysisAttribute => {
  const found = analysis.attributes.find((a) => a.attribute === name);
  if (!found) throw new Error(`no attribute ${name} in ${analysis.attributes.map((a) => a.attribute)}`);
  return found;
};

const UNLAWFUL =
  /hack|pretext|impersonat|brute|crack|phish|guess (?:the )?password|log ?in (?:to|with)|spoof/i;

function expectWellFormed(analysis: ProfileAnalysis) {
  expect(Object.keys(analysis).sort()).toEqual(['attributes', 'exposure', 'nextSteps', 'timeline']);
  for (const attribute of analysis.attributes) {
    expect(typeof attribute.attribute).toBe('string');
    expect(['corroborated', 'conflicting', 'single-source']).toContain(attribute.status);
    expect(attribute.values.length).toBeGreaterThan(0);
    for (const value of attribute.values) {
      expect(typeof value.value).toBe('string');
      expect(value.value.length).toBeGreaterThan(0);
      expect(value.sources.length).toBeGreaterThan(0);
      expect(new Set(value.sources).size).toBe(value.sources.length);
      expect(value.confidence).toBeGreaterThan(0);
      expect(value.confidence).toBeLessThanOrEqual(MAX_CONFIDENCE);
      expect(Math.round(value.confidence * 100) / 100).toBe(value.confidence);
    }
    const confidences = attribute.values.map((v) => v.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
  }
  const { exposure } = analysis;
  for (const n of [exposure.breaches, exposure.sensitiveBreaches, exposure.registeredSites])
    expect(Number.isInteger(n) && n >= 0).toBe(true);
  expect(exposure.breachNames).toHaveLength(exposure.breaches);
  expect(exposure.sensitiveBreaches).toBeLessThanOrEqual(exposure.breaches);
  for (const profile of exposure.publicProfiles) expect(typeof profile.platform).toBe('string');
  for (const event of analysis.timeline) {
    expect(event.date).toMatch(/^\d{4}(-\d{2}-\d{2})?$/);
    expect(event.event.length).toBeGreaterThan(0);
  }
  const dates = analysis.timeline.map((e) => e.date);
  expect(dates).toEqual([...dates].sort());
  expect(analysis.nextSteps.length).toBeGreaterThan(0);
  expect(analysis.nextSteps.length).toBeLessThanOrEqual(MAX_NEXT_STEPS);
  expect(new Set(analysis.nextSteps.map((s) => s.toLowerCase())).size).toBe(analysis.nextSteps.length);
  for (const step of analysis.nextSteps) expect(step).not.toMatch(UNLAWFUL);
}

describe('confidence', () => {
  it('ranks sources Gov/ISP > LinkedIn/Account Provider > caller and social sources > OSINT', () => {
    const gov = confidenceFor(['Gov']);
    const isp = confidenceFor(['ISP Response']);
    const linkedIn = confidenceFor(['LinkedIn']);
    const provider = confidenceFor(['Account Provider']);
    const callerId = confidenceFor(['Caller ID']);
    const whatsApp = confidenceFor(['WhatsApp']);
    const osint = confidenceFor(['OSINT']);
    expect(gov).toBe(isp);
    expect(linkedIn).toBe(provider);
    expect(callerId).toBe(whatsApp);
    expect(gov).toBeGreaterThan(linkedIn);
    expect(linkedIn).toBeGreaterThan(callerId);
    expect(callerId).toBeGreaterThan(osint);
    expect(SOURCE_RELIABILITY['Social Media']).toBe(SOURCE_RELIABILITY['Caller Apps']);
  });

  it('grows with independent sources, counts a repeated source once, and is capped and rounded', () => {
    expect(confidenceFor(['Gov'])).toBe(0.8);
    expect(confidenceFor(['Gov', 'OSINT'])).toBe(0.86);
    expect(confidenceFor(['Caller ID', 'Caller Apps'])).toBe(0.75);
    expect(confidenceFor(['OSINT', 'OSINT', 'OSINT'])).toBe(confidenceFor(['OSINT']));
    expect(confidenceFor(['Caller ID', 'Caller Apps'])).toBeGreaterThan(confidenceFor(['Caller ID']));
    expect(confidenceFor(['Gov', 'ISP Response', 'LinkedIn', 'Caller ID', 'WhatsApp'])).toBe(MAX_CONFIDENCE);
    expect(confidenceFor([{ source: 'Caller ID', weight: 0.5 }])).toBe(0.25);
    expect(confidenceFor(['Some New Source'])).toBe(confidenceFor(['OSINT']));
    expect(confidenceFor([])).toBe(0);
  });
});

describe('isoDay', () => {
  it('reads ISO dates, timestamps, day-first dates and bare years, and refuses the rest', () => {
    expect(isoDay('1990-04-17')).toBe('1990-04-17');
    expect(isoDay('2026-10-01T06:26:08.000Z')).toBe('2026-10-01');
    expect(isoDay('17/04/1990')).toBe('1990-04-17');
    expect(isoDay('7-4-1990')).toBe('1990-04-07');
    expect(isoDay(2012)).toBe('2012');
    expect(isoDay('2012')).toBe('2012');
    for (const bad of ['1800-01-01', '2023-02-30', '2023-13-01', 'yesterday', '', null, {}, 12.5, '99999'])
      expect(isoDay(bad)).toBeUndefined();
  });
});

describe('analyzePhoneLookup: rich answer', () => {
  const analysis = analyzePhoneLookup(richPhone());

  it('is well formed', () => expectWellFormed(analysis));

  it('clusters name variants into one corroborated person, showing the fullest form', () => {
    const name = attr(analysis, 'Name');
    expect(name.status).toBe('corroborated');
    expect(name.values).toHaveLength(1);
    expect(name.values[0]!.value).toBe('ROHAN SURESH DESHMUKH');
    expect(name.values[0]!.sources).toEqual(
      expect.arrayContaining(['Gov', 'OSINT', 'Social Media', 'Telegram', 'Caller Apps']),
    );
    // Sources are listed most reliable first.
    expect(name.values[0]!.sources[0]).toBe('Gov');
    expect(name.values[0]!.confidence).toBe(MAX_CONFIDENCE);
  });

  it('folds phones into E.164 and dates, genders and addresses on their normalized form', () => {
    const phones = attr(analysis, 'Phone');
    expect(phones.values[0]!.value).toBe('+919876543210');
    expect(phones.values[0]!.sources).toEqual(
      expect.arrayContaining(['ISP Response', 'Gov', 'WhatsApp', 'Caller ID', 'Caller Apps', 'OSINT']),
    );
    expect(phones.values.map((v) => v.value)).toContain('+915712048863');
    expect(phones.status).toBe('corroborated');

    const dob = attr(analysis, 'Date of birth');
    expect(plain(dob.values)).toEqual([{ value: '1990-04-17', sources: ['Gov', 'OSINT'], confidence: 0.86 }]);
    expect(dob.status).toBe('corroborated');

    const gender = attr(analysis, 'Gender');
    expect(gender.values).toHaveLength(1);
    expect(gender.values[0]!.value).toBe('Male');
    expect(gender.values[0]!.sources).toEqual(['Gov', 'Caller ID', 'OSINT']);

    const addresses = attr(analysis, 'Address/Location');
    const mumbai = addresses.values.find((v) => /LOTUS HEIGHTS/i.test(v.value));
    expect(mumbai?.sources).toEqual(['Gov', 'OSINT']);
    expect(addresses.values.filter((v) => /LOTUS HEIGHTS/i.test(v.value))).toHaveLength(1);
  });

  it('lists identity documents per kind, bank, UPI, vehicles and carriers', () => {
    expect(attr(analysis, 'PAN Number').values[0]!.value).toBe('BQZPD4821K');
    expect(attr(analysis, 'PAN Number').status).toBe('single-source');
    expect(attr(analysis, 'Aadhaar').values[0]!.value).toBe('XXXX XXXX 4821');
    expect(attr(analysis, 'Voter ID').values[0]!.value).toBe('KTW4821906');
    expect(attr(analysis, 'Bank account').values[0]!.value).toBe(
      '50100482190612 (IFSC KCBX0PUN482, Konkan Coastal Bank)',
    );
    expect(attr(analysis, 'UPI').values.map((v) => v.value)).toEqual([
      'rohan.deshmukh@oksbi',
      '9876543210@ybl',
    ]);
    expect(attr(analysis, 'Vehicles').values.map((v) => v.value)).toEqual(['MH12FP1234', 'MH14FP5678']);
    const carriers = attr(analysis, 'Carrier').values;
    expect(carriers[0]).toMatchObject({
      value: 'Bharti Airtel',
      sources: ['ISP Response', 'Caller ID', 'Caller Apps'],
    });
    expect(carriers.some((c) => c.value.startsWith('Reliance Jio Infocomm'))).toBe(true);
    expect(attr(analysis, 'Usernames').values.map((v) => v.value)).toEqual(['rohand90', 'the_rohan17']);
  });

  it('has no breach data but lists public profiles', () => {
    expect(analysis.exposure).toMatchObject({
      breaches: 0,
      breachNames: [],
      registeredSites: 0,
      dataClasses: [],
    });
    expect(analysis.exposure.publicProfiles).toEqual([
      { platform: 'WhatsApp' },
      { platform: 'Facebook', url: 'https://www.facebook.example.test/rohan' },
      { platform: 'Telegram', url: 'https://t.me/rohand90' },
    ]);
  });

  it('builds a sorted timeline from reported addresses and the ISP last-seen time', () => {
    expect(analysis.timeline).toEqual([
      {
        date: '2017-09-24',
        event: 'Address reported (Correspondence): FLAT 504 LOTUS HEIGHTS ANDHERI WEST MUMBAI',
        source: 'Gov',
      },
      {
        date: '2019-06-11',
        event: 'Address reported (Permanent): HOUSE NO 42 LANE 7 KOTHRUD PUNE',
        source: 'Gov',
      },
      {
        date: '2026-03-02',
        event: 'Address reported (Correspondence): FLAT 1203 SILVER OAK RESIDENCY BANER PUNE',
        source: 'Gov',
      },
      {
        date: '2026-10-01',
        event: 'Number last seen on the network (Reliance Jio Infocomm)',
        source: 'ISP Response',
      },
    ]);
  });

  it('suggests concrete, lawful next steps', () => {
    const steps = analysis.nextSteps;
    expect(steps[0]).toBe(
      'Request subscriber details (CAF) from Reliance Jio Infocomm for +919876543210 under the applicable legal process',
    );
    expect(steps).toContain('Verify PAN BQZPD4821K through an official channel before relying on it');
    expect(
      steps.some((s) => s.startsWith('Review the 2 vehicles registered to the number (RC details')),
    ).toBe(true);
    expect(steps.some((s) => s.includes('Konkan Coastal Bank') && s.includes('legal process'))).toBe(true);
    expect(steps.some((s) => /marked as spam/.test(s))).toBe(true);
    expect(
      steps.some((s) => s.includes('FLAT 1203 SILVER OAK RESIDENCY BANER PUNE, reported 2026-03-02')),
    ).toBe(true);
    expect(steps.length).toBeLessThanOrEqual(MAX_NEXT_STEPS);
  });

  it('is deterministic', () => {
    expect(analyzePhoneLookup(richPhone())).toEqual(analysis);
  });
});

describe('analyzePhoneLookup: sparse answer', () => {
  const analysis = analyzePhoneLookup(sparsePhone());

  it('is well formed and reports only what the HLR and WhatsApp said', () => {
    expectWellFormed(analysis);
    expect(analysis.attributes.map((a) => a.attribute)).toEqual(['Phone', 'Address/Location', 'Carrier']);
    expect(plain(attr(analysis, 'Phone').values)).toEqual([
      { value: '+919123456780', sources: ['ISP Response', 'WhatsApp'], confidence: 0.9 },
    ]);
    expect(analysis.timeline).toEqual([
      {
        date: '2026-10-01',
        event: 'Number last seen on the network (Reliance Jio Infocomm)',
        source: 'ISP Response',
      },
    ]);
  });

  it('still suggests the subscriber request, and no retry for sources that answered "not found"', () => {
    expect(analysis.nextSteps).toContain(
      'Request subscriber details (CAF) from Reliance Jio Infocomm for +919123456780 under the applicable legal process',
    );
    expect(analysis.nextSteps.some((s) => /retry/i.test(s))).toBe(false);
  });

  it('asks to check a number the network reports as invalid instead of requesting its subscriber', () => {
    const invalid = analyzePhoneLookup({
      hlrData: { msisdn: '919000000001', connectivity_status: 'INVALID', original_country_name: 'India' },
      wpData: { number: '919000000001', isUser: false },
      errors: {},
      credits: 0,
    });
    expect(invalid.nextSteps[0]).toBe(
      'The network reports +919000000001 as invalid: confirm the number was recorded correctly',
    );
    expect(invalid.nextSteps.some((s) => s.includes('(CAF)'))).toBe(false);
  });

  it('suggests a retry for sources that failed', () => {
    const failed = analyzePhoneLookup({
      ...sparsePhone(),
      errors: {
        tcData: 'Source did not answer in time.',
        sKData: 'Source failed to answer.',
        smData: 'No social profile linked to this number.',
      },
    });
    expect(failed.nextSteps).toContain(
      'No answer from Caller ID and Gov identity records: retry the lookup later',
    );
  });
});

describe('analyzePhoneLookup: conflicting answer', () => {
  const response = conflictingPhone();
  const analysis = analyzePhoneLookup(response);

  it('is well formed', () => expectWellFormed(analysis));

  it('marks two different people as a name conflict', () => {
    const name = attr(analysis, 'Name');
    expect(name.status).toBe('conflicting');
    expect(name.values.map((v) => v.value)).toEqual(['ROHAN SURESH DESHMUKH', 'Priya Sharma']);
    expect(name.values[0]!.sources).toEqual(['Gov', 'OSINT']);
    expect(name.values[1]!.sources).toEqual(['Caller ID', 'Caller Apps']);
    expect(name.values[0]!.confidence).toBeGreaterThan(name.values[1]!.confidence);
    expect(analysis.nextSteps[0]).toBe(
      'Names conflict between Gov and OSINT and Caller ID and Caller Apps records (ROHAN SURESH DESHMUKH vs Priya Sharma): confirm identity in person before attributing the data',
    );
  });

  it('marks two dates of birth as conflicting, and keeps a weak rival from spoiling a corroborated gender', () => {
    const dob = attr(analysis, 'Date of birth');
    expect(dob.status).toBe('conflicting');
    expect(dob.values.map((v) => [v.value, v.sources])).toEqual([
      ['1990-04-17', ['Gov']],
      ['1985-01-01', ['OSINT']],
    ]);
    expect(
      analysis.nextSteps.some((s) => s.startsWith('Dates of birth conflict between Gov and OSINT')),
    ).toBe(true);
    const gender = attr(analysis, 'Gender');
    expect(gender.status).toBe('corroborated');
    expect(gender.values.map((v) => v.value)).toEqual(['Male', 'Female']);
  });

  it('marks two different PANs as conflicting', () => {
    const twoPans = richPhone();
    const details = twoPans.sKData!.data!.details!;
    details.identity_info = { pan_number: [{ id_number: 'BQZPD4821K' }, { id_number: 'AAAPZ1234C' }] };
    const result = analyzePhoneLookup(twoPans);
    expect(attr(result, 'PAN Number').status).toBe('conflicting');
    expect(result.nextSteps.some((s) => s.includes('BQZPD4821K vs AAAPZ1234C'))).toBe(true);
  });

  it('clusters reordered names and initials, and keeps different people apart', () => {
    const result = analyzePhoneLookup({
      sKData: { data: { details: { name: 'Rohan Suresh Deshmukh' } } },
      tcData: { data: { basicInfo: { name: { fullName: 'Deshmukh Rohan', altName: 'R. S. Deshmukh' } } } },
      allData: { callapp: { name: 'Rohan Desmukh' }, eyecon: 'Rohit Deshpande' },
      osintData: { data: [{ phone: '09876543210' }] },
      errors: {},
      credits: 0,
    });
    const name = attr(result, 'Name');
    expect(name.values.map((v) => [v.value, v.sources])).toEqual([
      ['Rohan Suresh Deshmukh', ['Gov', 'Caller ID', 'Caller Apps']],
      ['Rohit Deshpande', ['Caller Apps']],
    ]);
    expect(name.status).toBe('corroborated');
    expect(attr(result, 'Phone').values[0]!.value).toBe('+919876543210');
  });

  it('ranks a value from several sources above one from a single reliable source', () => {
    const result = analyzePhoneLookup({
      sKData: { data: { details: { name: 'Anil Kumar' } } },
      tcData: { data: { basicInfo: { name: { fullName: 'Sunil Rao' } } } },
      allData: { callapp: { name: 'Sunil Rao' }, eyecon: 'Sunil Rao' },
      smData: { response: { name: 'Sunil Rao' } },
      errors: {},
      credits: 0,
    });
    const name = attr(result, 'Name');
    expect(name.values.map((v) => v.value)).toEqual(['Sunil Rao', 'Anil Kumar']);
    expect(name.values[0]!.confidence).toBe(0.88);
    expect(name.values[1]!.confidence).toBe(0.8);
    expect(name.status).toBe('conflicting');
  });
});

describe('analyzeEmailLookup: rich answer', () => {
  const analysis = analyzeEmailLookup(richEmail());

  it('is well formed', () => expectWellFormed(analysis));

  it('corroborates the name and the linked phone across providers', () => {
    const name = attr(analysis, 'Name');
    expect(name.status).toBe('corroborated');
    expect(name.values).toHaveLength(1);
    expect(name.values[0]!.value).toBe('ROHAN SURESH DESHMUKH');
    expect(name.values[0]!.sources).toEqual(['Account Provider', 'GetUser', 'OSINT']);
    expect(attr(analysis, 'Phone').values[0]).toMatchObject({
      value: '+919876543210',
      sources: ['GetUser', 'OSINT'],
    });
    expect(attr(analysis, 'Occupation/Employer').values.map((v) => v.value)).toEqual([
      'Senior Software Engineer at Nimbuslane Technologies Pvt Ltd',
      'Software Engineer at Saffronleaf Analytics LLP',
    ]);
  });

  it('summarises exposure', () => {
    expect(analysis.exposure).toEqual({
      breaches: 3,
      breachNames: ['Orbitly', 'Rishtaloom', 'CricketKhel'],
      sensitiveBreaches: 1,
      registeredSites: 4,
      publicProfiles: [
        { platform: 'LinkedIn', url: 'https://www.linkedin.example.test/in/rohan-deshmukh' },
        { platform: 'Gravatar', url: 'https://profiles.example.test/gravatar/richdemo' },
      ],
      dataClasses: [
        'Dates of birth',
        'Email addresses',
        'Names',
        'Passwords',
        'Phone numbers',
        'Religions',
        'Usernames',
      ],
    });
  });

  it('builds a sorted timeline of breaches, education, positions, the profile update and reviews', () => {
    expect(analysis.timeline.map((e) => `${e.date} ${e.event} [${e.source}]`)).toEqual([
      '2008 Started B.Tech, Computer Science at Narmada Valley College of Engineering [LinkedIn]',
      '2012 Finished B.Tech, Computer Science at Narmada Valley College of Engineering [LinkedIn]',
      '2015 Started as Software Engineer at Saffronleaf Analytics LLP [LinkedIn]',
      '2019-03-14 Appeared in breach Orbitly [Breach Data]',
      '2021 Left Software Engineer at Saffronleaf Analytics LLP [LinkedIn]',
      '2021 Started as Senior Software Engineer at Nimbuslane Technologies Pvt Ltd [LinkedIn]',
      '2023-07-21 Posted a map review: Royal Tailors, Aundh, Pune, Maharashtra [Account Provider]',
      '2023-07-25 Appeared in breach Rishtaloom [Breach Data]',
      '2024-04-18 Appeared in breach CricketKhel [Breach Data]',
      '2025-01-01 Account-provider profile last updated [Account Provider]',
      '2025-04-29 Posted a map review: Fitzone Gym, Baner, Pune, Maharashtra [Account Provider]',
    ]);
  });

  it('suggests breach, provider, pivot and employment steps', () => {
    const steps = analysis.nextSteps;
    expect(steps[0]).toMatch(/^Check breach Orbitly exposed passwords: .*never use leaked credentials/);
    expect(steps).toContain(
      'Request subscriber details and access (IP) logs for rich.demo@example.test from its e-mail provider under the applicable legal process',
    );
    expect(steps).toContain(
      'Breach Rishtaloom is flagged sensitive: keep its details on a need-to-know basis',
    );
    expect(steps).toContain(
      'Run a phone lookup on +919876543210, linked to this address by GetUser and OSINT',
    );
    expect(steps).toContain(
      'Confirm current employment at Nimbuslane Technologies Pvt Ltd through an employment verification',
    );
  });
});

describe('analyzeEmailLookup: empty answer', () => {
  const analysis = analyzeEmailLookup(emptyEmail());

  it('finds nothing and says so in its next step', () => {
    expectWellFormed(analysis);
    expect(analysis.attributes).toEqual([]);
    expect(analysis.timeline).toEqual([]);
    expect(analysis.exposure).toEqual({
      breaches: 0,
      breachNames: [],
      sensitiveBreaches: 0,
      registeredSites: 0,
      publicProfiles: [],
      dataClasses: [],
    });
    expect(analysis.nextSteps).toHaveLength(1);
    expect(analysis.nextSteps[0]).toMatch(/^Little was found for this address/);
  });
});

describe('next steps are bounded', () => {
  it('never exceeds the maximum, even when every kind of step applies', () => {
    const response = richPhone();
    response.errors = { tcData: 'Source did not answer in time.', telData: 'Source failed to answer.' };
    response.sKData!.data!.details!.identity_info = {
      pan_number: [{ id_number: 'BQZPD4821K' }, { id_number: 'AAAPZ1234C' }],
      voter_id: [{ id_number: 'KTW4821906' }, { id_number: 'ABC1234567' }],
      passport_number: [{ id_number: 'Z4821906' }, { id_number: 'Y1111111' }],
      driving_license: [{ id_number: 'MH1220110048219' }, { id_number: 'MH0120200000001' }],
    };
    const analysis = analyzePhoneLookup(response);
    expectWellFormed(analysis);
    expect(analysis.nextSteps).toHaveLength(MAX_NEXT_STEPS);
    // Conflicts come first.
    expect(analysis.nextSteps[0]).toMatch(/^Two different PAN Number values/);
  });
});

describe('junk input', () => {
  const junk: unknown[] = [
    undefined,
    null,
    0,
    42,
    'text',
    true,
    [],
    [1, 2, 3],
    {},
    { errors: 'nope', credits: 'x' },
    { hlrData: '{not json', wpData: 'string', tcData: [], osintData: { data: 'x' } },
    { osintData: { data: [null, 1, 'x', { name: { first: 'A' }, dob: ['1990'] }] } },
    {
      sKData: { data: { details: { identity_info: { pan_number: 'ABCDE1234F', '': [{ id_number: 5 }] } } } },
    },
    {
      sKData: {
        data: { details: { address_info: [{ address: 'X', reported_date: '1800-01-01' }, 'junk'] } },
      },
    },
    { srData: { data: { rc_number: 12345 } }, suData: { data: { upi_id: 'solo@ybl' } } },
    { hibpData: { Name: 'NotAList' }, holeheData: { used: 'x', checked: [null, { site: 3, exists: true }] } },
    { hibpData: [null, 'x', { Name: null }, { Title: 'T', DataClasses: 'x', BreachDate: 'soon' }] },
    {
      emailData: {
        PROFILE_CONTAINER: { profile: { names: [{ fullname: '\u0000\u202e' }] } },
        maps_result: 3,
      },
    },
    {
      getuserData: {
        person: { positions: { positionHistory: [{ startEndDate: { start: { year: -5 } } }] } },
      },
    },
    { errors: { tcData: 42, ['__proto__']: 'x', constructor: 'Source failed to answer.' } },
    JSON.parse('{"__proto__": {"polluted": true}, "wpData": {"pushname": "A"}}'),
  ];

  it('never throws, and always answers a well-formed analysis', () => {
    for (const value of junk) {
      expectWellFormed(analyzePhoneLookup(phone(value)));
      expectWellFormed(analyzeEmailLookup(email(value)));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('survives randomly mangled versions of real answers', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const replacements = [
      null,
      undefined,
      0,
      -1,
      '',
      'x',
      '2020-02-30',
      [],
      {},
      [null],
      { a: 1 },
      true,
      1e308,
    ];
    const mangle = (value: unknown, depth = 0): unknown => {
      if (random() < 0.08) return replacements[Math.floor(random() * replacements.length)];
      if (Array.isArray(value)) return value.map((v) => mangle(v, depth + 1));
      if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mangle(v, depth + 1)]));
      return value;
    };
    for (let i = 0; i < 150; i++) {
      expectWellFormed(analyzePhoneLookup(phone(mangle(richPhone()))));
      expectWellFormed(analyzeEmailLookup(email(mangle(richEmail()))));
    }
    // A slow sweep on a loaded machine: it timed out at the default 5 s.
  }, 30_000);

  it('caps oversized input', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ name: `Person Number${i}`, phone: `90000${i}` }));
    const huge = analyzePhoneLookup({ osintData: { data: many }, errors: {}, credits: 0 });
    expectWellFormed(huge);
    for (const attribute of huge.attributes) expect(attribute.values.length).toBeLessThanOrEqual(25);
    const long = analyzePhoneLookup({
      smData: { response: { name: `A ${'b'.repeat(10_000)}` } },
      errors: {},
      credits: 0,
    });
    expect(attr(long, 'Name').values[0]!.value.length).toBeLessThanOrEqual(300);
  });
});
