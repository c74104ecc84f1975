import { describe, expect, it } from 'vitest';
import {
  ANSWER_SOURCES,
  COST_DEFAULTS,
  costVariable,
  EMAIL_SOURCES,
  INTEL_KINDS,
  isSearchKind,
  KIND_SOURCES,
  kindsOfSource,
  messages,
  PHONE_SOURCES,
  PROFILE_LABELS,
  SEARCH_KINDS,
  SOURCE_KEYS,
  SOURCE_LABELS,
  SOURCE_LONG_LABELS,
  searchFamily,
  searchKindLabel,
  sourceKeyReliability,
  sourceName,
} from '../src/index.ts';

describe('the source catalogue', () => {
  it('lists the phone and e-mail answer keys of spec §3', () => {
    expect(PHONE_SOURCES).toEqual([
      'wpData',
      'hlrData',
      'tcData',
      'allData',
      'smData',
      'osintData',
      'sKData',
      'suData',
      'sbData',
      'srData',
      'telData',
    ]);
    expect([...EMAIL_SOURCES].sort()).toEqual(
      [
        'emailData',
        'hibpData',
        'holeheData',
        'zehefData',
        'getuserData',
        'socialScanData',
        'osintData',
        'osData',
      ].sort(),
    );
  });

  it('names each source once: the results page, the reports and the analysis read the same table', () => {
    expect(messages.profile.failedSources).toBe(SOURCE_LABELS);
    expect(SOURCE_LABELS.sKData).toBe('Gov identity records');
    expect(SOURCE_LONG_LABELS.sKData).toBe('Gov identity records');
    expect(SOURCE_LONG_LABELS.getuserData).toBe('GetUser / LinkedIn');
    expect(SOURCE_LONG_LABELS.osData).toBe('OSINT (linked phone)');
    for (const key of Object.keys(ANSWER_SOURCES)) expect(SOURCE_LABELS[key]).toBeTruthy();
  });

  it('gives every profile label a text, a reliability in (0, 1) and a hue', () => {
    for (const [key, entry] of Object.entries(PROFILE_LABELS)) {
      expect(messages.profile.sources[key as keyof typeof PROFILE_LABELS]).toBe(entry.text);
      expect(entry.reliability).toBeGreaterThan(0);
      expect(entry.reliability).toBeLessThan(1);
      expect(entry.hue).toMatch(/^[a-z]+$/);
    }
    expect(sourceKeyReliability('sKData')).toBe(0.8);
    expect(sourceKeyReliability('getuserData')).toBe(0.65);
  });

  it('holds every provider source: answer keys, then one source per detail and intel kind', () => {
    expect(new Set(SOURCE_KEYS).size).toBe(SOURCE_KEYS.length);
    expect(SOURCE_KEYS).toEqual([...Object.keys(ANSWER_SOURCES), ...KIND_SOURCES]);
    expect(kindsOfSource('osintData')).toEqual(['tel', 'email']);
    expect(kindsOfSource('rc')).toEqual(['rc']);
    expect(kindsOfSource('corporate:find_uan')).toEqual(['corporate:find_uan']);
    expect(kindsOfSource('nope')).toEqual([]);
    for (const source of SOURCE_KEYS) {
      for (const kind of kindsOfSource(source)) expect(isSearchKind(kind)).toBe(true);
    }
  });
});

describe('search kinds', () => {
  it('are the lookups, the leak search, the details and every corporate and verification type', () => {
    expect(SEARCH_KINDS.slice(0, 7)).toEqual(['tel', 'email', 'username', 'leak', 'rc', 'upi', 'challan']);
    expect(SEARCH_KINDS.slice(7)).toEqual(INTEL_KINDS);
    expect(INTEL_KINDS).toHaveLength(15);
    expect(isSearchKind('corporate:credit_report')).toBe(true);
    expect(isSearchKind('corporate')).toBe(false);
  });

  it('each have a family, a history label and a price variable with a default', () => {
    expect(searchFamily('verification:pan')).toBe('verification');
    expect(searchKindLabel('leak')).toBe('Leak Data Finder');
    expect(costVariable('corporate:credit_report')).toBe('COST_CREDIT_REPORT');
    expect(costVariable('corporate:gst_intel')).toBe('COST_CORPORATE');
    expect(costVariable('tel')).toBe('COST_TEL');
    for (const kind of SEARCH_KINDS) expect(COST_DEFAULTS[costVariable(kind)]).toBeGreaterThanOrEqual(0);
    expect(COST_DEFAULTS).toEqual({
      COST_TEL: 1,
      COST_EMAIL: 1,
      COST_USERNAME: 1,
      COST_LEAK: 1,
      COST_RC: 1,
      COST_UPI: 1,
      COST_CHALLAN: 1,
      COST_CORPORATE: 2,
      COST_VERIFICATION: 1,
      COST_CREDIT_REPORT: 5,
    });
  });
});

describe('sourceName', () => {
  it('names every source for people, never by its key', () => {
    expect(sourceName('wpData')).toBe('WhatsApp');
    expect(sourceName('sKData')).toBe('Gov identity records');
    expect(sourceName('rc')).toBe('RC Details');
    expect(sourceName('corporate:corporate_gstin')).toBe('Corporate · GSTIN Details');
    expect(sourceName('verification:driving_license')).toMatch(/ · Driving License$/);
    for (const key of SOURCE_KEYS) expect(sourceName(key), key).not.toBe(key);
    expect(sourceName('noSuchData')).toBe('noSuchData');
  });
});
