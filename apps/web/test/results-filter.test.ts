import {
  analyzePhoneLookup,
  type Breach,
  type ExtraRecord,
  mergePhoneProfile,
  type PhoneLookupResponse,
} from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import {
  filterAnalysis,
  filterAttributes,
  filterBreaches,
  filterKey,
  filterProfile,
  filterRecords,
  hasProfileContent,
  matches,
  unweighedProfile,
} from '../src/features/results/filter.ts';

const answer = {
  wpData: { number: '919876543210', pushname: 'Rohan D', isUser: true },
  hlrData: { msisdn: '919876543210', timestamp: '2026-10-01T06:26:08.000Z', original_network_name: 'Airtel' },
  tcData: {
    data: {
      basicInfo: { name: { fullName: 'Rohan Suresh Deshmukh' }, gender: 'MALE', callerType: 'Person' },
      phoneInfo: { number: '+91 98765 43210' },
    },
  },
  osintData: {
    data: [{ source: 'Orbitly 2019', name: 'ROHAN SURESH DESHMUKH', email: 'Rich.Demo@Example.test ' }],
  },
  sKData: {
    data: {
      details: {
        name: 'Rohan Suresh Deshmukh',
        personal_info: { gender: 'M', age: 36, dob: '17/04/1990' },
        address_info: [{ address: 'Baner Road, Pune', reported_date: '2024-01-05', type: 'permanent' }],
      },
    },
  },
  errors: {},
  credits: 0,
} as unknown as PhoneLookupResponse;

const analysis = analyzePhoneLookup(answer);
const labels = { timeline: 'Timeline', nextSteps: 'Lawful next steps' };
const valuesOf = (attributes: ReturnType<typeof filterAttributes>) =>
  attributes.flatMap((a) => a.values.map((v) => `${a.attribute}: ${v.value}`));

describe('matches', () => {
  it('is a case-insensitive substring match on any of the texts, and an empty filter matches all', () => {
    expect(matches('PUNE', 'Baner Road, Pune')).toBe(true);
    expect(matches('  rohan   suresh ', 'Rohan Suresh Deshmukh')).toBe(true);
    expect(matches('mumbai', 'Baner Road, Pune', undefined, null)).toBe(false);
    expect(matches('', 'anything')).toBe(true);
    expect(matches('   ')).toBe(true);
    expect(matches('36', 36)).toBe(true);
    expect(filterKey('  A  B ')).toBe('a b');
  });
});

describe('filtering the merged profile', () => {
  it('keeps every value when the filter is empty', () => {
    expect(filterAttributes(analysis.attributes, '')).toBe(analysis.attributes);
  });

  it('keeps only the values that match, in their attributes', () => {
    expect(valuesOf(filterAttributes(analysis.attributes, 'rich.demo'))).toEqual([
      'E-mail: rich.demo@example.test',
    ]);
    expect(valuesOf(filterAttributes(analysis.attributes, '+9198765'))).toEqual(['Phone: +919876543210']);
  });

  it('keeps a whole attribute whose label matches', () => {
    const gender = filterAttributes(analysis.attributes, 'gender');
    expect(gender.map((a) => a.attribute)).toEqual(['Gender']);
    expect(gender[0]!.values.map((v) => v.value)).toEqual(['Male']);
  });

  it('matches on a source label and on a provenance name (the breach of an OSINT record)', () => {
    const byBreach = valuesOf(filterAttributes(analysis.attributes, 'orbitly'));
    expect(byBreach).toEqual(expect.arrayContaining(['E-mail: rich.demo@example.test']));
    expect(byBreach.every((line) => !line.startsWith('Address'))).toBe(true);
    expect(valuesOf(filterAttributes(analysis.attributes, 'isp response'))).toContain('Phone: +919876543210');
  });

  it('narrows the timeline and next steps, and keeps them whole when their heading matches', () => {
    const pune = filterAnalysis(analysis, 'pune', labels);
    expect(pune.timeline.map((e) => e.event)).toEqual(['Address reported (permanent): Baner Road, Pune']);
    expect(pune.nextSteps.every((step) => /pune/i.test(step))).toBe(true);
    expect(filterAnalysis(analysis, 'timeline', labels).timeline).toEqual(analysis.timeline);
    expect(filterAnalysis(analysis, 'lawful', labels).nextSteps).toEqual(analysis.nextSteps);
    const none = filterAnalysis(analysis, 'zzz-nothing', labels);
    expect([none.attributes, none.timeline, none.nextSteps]).toEqual([[], [], []]);
  });
});

describe('filtering the per-source profile and records', () => {
  const profile = mergePhoneProfile(answer, { origins: true });

  it('keeps matching entries per section, and whole sections whose title matches', () => {
    const rohan = filterProfile(profile, 'deshmukh');
    expect(rohan.names.length).toBeGreaterThan(0);
    expect(rohan.phones).toEqual([]);
    expect(filterProfile(profile, 'phone numbers').phones).toEqual(profile.phones);
    expect(hasProfileContent(filterProfile(profile, 'zzz-nothing'))).toBe(false);
    expect(filterProfile(profile, '')).toBe(profile);
  });

  it('leaves the merged values out of the details beyond the analysis', () => {
    const more = unweighedProfile(profile);
    expect(more.names).toEqual([]);
    expect(more.basicInfo.map((e) => e.key)).toEqual(['Caller Type', 'Age']);
  });

  it('narrows breaches and records on any of their fields', () => {
    const breaches: Breach[] = [
      { Name: 'Orbitly', Title: 'Orbitly 2019', DataClasses: ['Passwords'] },
      { Name: 'Zestmint', Title: 'Zestmint 2023', Domain: 'zestmint.example.test' },
    ];
    expect(filterBreaches(breaches, 'password', 'Found breaches').map((b) => b.Name)).toEqual(['Orbitly']);
    expect(filterBreaches(breaches, 'ZESTMINT.example', 'Found breaches').map((b) => b.Name)).toEqual([
      'Zestmint',
    ]);
    expect(filterBreaches(breaches, 'breaches', 'Found breaches')).toEqual(breaches);
    const records: ExtraRecord[] = [
      { name: 'Rohan', additional: [['City', 'Pune']] },
      { name: 'Other', additional: [] },
    ];
    expect(filterRecords(records, 'pune', 'Records').map((r) => r.name)).toEqual(['Rohan']);
    expect(filterRecords(records, 'nothing', 'Records')).toEqual([]);
  });
});
