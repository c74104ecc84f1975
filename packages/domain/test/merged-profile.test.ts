/**
 * The merged profile the results page and both PDFs show: normalisation, folding of equal values,
 * conflicts and the provenance of each merged value, on the rich, sparse and conflicting demo answers.
 */
import { describe, expect, it } from 'vitest';
import {
  type AnalysisAttribute,
  analyzeEmailLookup,
  analyzePhoneLookup,
  bestForm,
  mergePhoneProfile,
  nameKey,
  normalizeDate,
  normalizeEmail,
  normalizeGender,
  normalizePhone,
  type ProfileAnalysis,
  provenanceLines,
  provenanceText,
} from '../src/index.ts';
import { conflictingPhone, richEmail, richPhone, sparsePhone } from './fixtures/answers.ts';

const attr = (analysis: ProfileAnalysis, name: string): AnalysisAttribute => {
  const found = analysis.attributes.find((a) => a.attribute === name);
  if (!found) throw new Error(`no attribute ${name} in ${analysis.attributes.map((a) => a.attribute)}`);
  return found;
};

const values = (analysis: ProfileAnalysis, name: string) => attr(analysis, name).values.map((v) => v.value);

describe('normalisation', () => {
  it('writes phones in E.164, reading a number without a country as Indian', () => {
    for (const form of ['919876543210', '+919876543210', '+91 98765 43210', '09876543210', '9876543210'])
      expect(normalizePhone(form), form).toBe('+919876543210');
    expect(normalizePhone('0091 98765-43210')).toBe('+919876543210');
    expect(normalizePhone('+1 415 555 2671')).toBe('+14155552671');
    expect(normalizePhone('022 2345 6789')).toBe('+912223456789');
    for (const junk of ['', 'abc', '12', null, undefined, {}, 'n/a'])
      expect(normalizePhone(junk)).toBeUndefined();
  });

  it('trims and lower-cases e-mail addresses, and refuses what is not one', () => {
    expect(normalizeEmail('  Rich.Demo@Example.TEST ')).toBe('rich.demo@example.test');
    expect(normalizeEmail('rich demo@example.test')).toBeUndefined();
    expect(normalizeEmail('no-at-sign')).toBeUndefined();
    expect(normalizeEmail(42)).toBeUndefined();
  });

  it('writes dates as yyyy-mm-dd', () => {
    expect(normalizeDate('17/04/1990')).toBe('1990-04-17');
    expect(normalizeDate('17-04-1990')).toBe('1990-04-17');
    expect(normalizeDate('1990-04-17T00:00:00Z')).toBe('1990-04-17');
    expect(normalizeDate('1990-4-7')).toBe('1990-04-07');
    expect(normalizeDate('31/02/1990')).toBeUndefined();
    expect(normalizeDate('1800-01-01')).toBeUndefined();
  });

  it('folds names for comparison and shows the most common, best-cased form', () => {
    expect(nameKey('  ROHAN   suresh-Deshmukh ')).toBe('rohan suresh deshmukh');
    expect(bestForm(['ROHAN DESHMUKH', 'Rohan Deshmukh'])).toBe('Rohan Deshmukh');
    expect(bestForm(['rohan deshmukh', 'ROHAN DESHMUKH'])).toBe('ROHAN DESHMUKH');
    expect(bestForm(['ROHAN DESHMUKH', 'Rohan Deshmukh', 'ROHAN DESHMUKH'])).toBe('ROHAN DESHMUKH');
    expect(normalizeGender('MALE')).toBe('Male');
    expect(normalizeGender('f')).toBe('Female');
  });
});

describe('folding: the rich phone', () => {
  const analysis = analyzePhoneLookup(richPhone());

  it('lists each phone once, in E.164, with every source that gave it', () => {
    const phones = values(analysis, 'Phone');
    expect(phones).toEqual([...new Set(phones)]);
    for (const phone of phones) expect(phone).toMatch(/^\+\d{8,15}$/);
    expect(phones).toEqual(expect.arrayContaining(['+919876543210', '+915712048863']));
    // Six formats of the searched number from six sources are one merged value.
    const searched = attr(analysis, 'Phone').values.find((v) => v.value === '+919876543210')!;
    expect(searched.sources).toEqual(
      expect.arrayContaining(['ISP Response', 'Gov', 'WhatsApp', 'Caller ID', 'Caller Apps', 'OSINT']),
    );
    // The raw profile still holds each source's own form.
    const raw = mergePhoneProfile(richPhone()).phones.map((p) => p.value);
    expect(new Set(raw).size).toBeGreaterThan(1);
  });

  it('folds the gender given four ways and the date of birth given two ways', () => {
    expect(values(analysis, 'Gender')).toEqual(['Male']);
    expect(attr(analysis, 'Gender').values[0]!.sources).toEqual(['Gov', 'Caller ID', 'OSINT']);
    expect(values(analysis, 'Date of birth')).toEqual(['1990-04-17']);
    expect(attr(analysis, 'Date of birth').status).toBe('corroborated');
  });

  it('shows the most common form of the name, then the best-cased', () => {
    // Gov and an OSINT record both write it in capitals; no source writes it otherwise.
    expect(values(analysis, 'Name')[0]).toBe('ROHAN SURESH DESHMUKH');
    const cased = richPhone();
    cased.tcData = { data: { basicInfo: { name: { fullName: 'Rohan Suresh Deshmukh' } } } };
    cased.allData = { eyecon: 'rohan  suresh deshmukh' };
    cased.telData = { first_name: 'Rohan Suresh', last_name: 'Deshmukh' };
    // Two sources in capitals, one in lower case, two well cased: the well-cased form is shown.
    expect(values(analyzePhoneLookup(cased), 'Name')[0]).toBe('Rohan Suresh Deshmukh');
  });

  it('lists the e-mail the government record gave, lower-cased', () => {
    expect(values(analysis, 'E-mail')).toEqual(['rich.demo@example.test']);
  });
});

describe('folding: the rich e-mail', () => {
  it('folds e-mail addresses that differ in case and spacing into one value with both sources', () => {
    const data = richEmail();
    data.osintData = {
      data: [
        { source: 'Old forum', email: '  Rich.Demo@EXAMPLE.test ', email_secondary: 'R.Demo@Example.Test' },
      ],
    };
    const analysis = analyzeEmailLookup(data);
    expect(values(analysis, 'E-mail')).toEqual(['rich.demo@example.test', 'r.demo@example.test']);
    const [main] = attr(analysis, 'E-mail').values;
    expect(main!.sources).toEqual(['Account Provider', 'OSINT']);
    expect(main!.confidence).toBeGreaterThan(attr(analysis, 'E-mail').values[1]!.confidence);
  });

  it('folds the linked phone from several sources into one E.164 value', () => {
    const analysis = analyzeEmailLookup(richEmail());
    const phones = values(analysis, 'Phone');
    expect(phones).toContain('+919876543210');
    expect(phones).toEqual([...new Set(phones)]);
  });
});

describe('folding: the sparse phone', () => {
  it('has one phone from the network and WhatsApp, and nothing that conflicts', () => {
    const analysis = analyzePhoneLookup(sparsePhone());
    expect(values(analysis, 'Phone')).toEqual(['+919123456780']);
    expect(attr(analysis, 'Phone').values[0]!.sources).toEqual(['ISP Response', 'WhatsApp']);
    expect(analysis.attributes.some((a) => a.status === 'conflicting')).toBe(false);
  });
});

describe('conflicts: the conflicting phone', () => {
  const analysis = analyzePhoneLookup(conflictingPhone());

  it('marks single-valued attributes the sources disagree on', () => {
    expect(attr(analysis, 'Name').status).toBe('conflicting');
    expect(attr(analysis, 'Date of birth').status).toBe('conflicting');
    expect(values(analysis, 'Date of birth')).toEqual(['1990-04-17', '1985-01-01']);
  });

  it('never marks a multi-valued attribute as conflicting', () => {
    expect(attr(analysis, 'Phone').status).not.toBe('conflicting');
    expect(attr(analysis, 'Address/Location').status).not.toBe('conflicting');
  });

  it('keeps a weak rival from turning a corroborated gender into a conflict', () => {
    expect(values(analysis, 'Gender')).toEqual(['Male', 'Female']);
    expect(attr(analysis, 'Gender').status).toBe('corroborated');
  });
});

describe('provenance', () => {
  const response = {
    ...richPhone(),
    answered_at: '2026-11-24T10:00:00.000Z',
    source_status: {
      osintData: { status: 'ok', mode: 'sandbox' },
      sKData: { status: 'ok', mode: 'live', vendor: 'Acme KYC', answered_at: '2026-11-24T09:59:30.000Z' },
      hlrData: { status: 'ok', mode: 'live', vendor: 'HLR Co' },
      wpData: { status: 'ok', mode: 'sandbox' },
    },
  } as Parameters<typeof analyzePhoneLookup>[0];
  const analysis = analyzePhoneLookup(response);
  const searched = attr(analysis, 'Phone').values.find((v) => v.value === '+919876543210')!;
  const by = (name: string) => searched.provenance?.find((p) => p.name === name || p.vendor === name);

  it('names the breach or leak of each OSINT record, and the vendor of a live source', () => {
    expect(by('Old forum')).toEqual({
      source: 'OSINT',
      name: 'Old forum',
      key: 'osintData',
      via: 'OSINT',
      answeredAt: '2026-11-24T10:00:00.000Z',
      mode: 'sandbox',
    });
    // The record set is named, and the vendor that served it beside it.
    expect(by('Acme KYC')).toMatchObject({
      source: 'Gov',
      name: 'Gov identity records',
      key: 'sKData',
      vendor: 'Acme KYC',
      mode: 'live',
    });
    expect(by('HLR Co')).toMatchObject({ source: 'ISP Response', mode: 'live' });
  });

  it("uses a source's own answer time when source_status has one, else the answer's", () => {
    expect(by('Acme KYC')?.answeredAt).toBe('2026-11-24T09:59:30.000Z');
    expect(by('HLR Co')?.answeredAt).toBe('2026-11-24T10:00:00.000Z');
  });

  it('falls back to the catalogue name, and leaves out the mode when the answer does not record it', () => {
    const caller = searched.provenance?.find((p) => p.source === 'Caller ID');
    expect(caller).toEqual({
      source: 'Caller ID',
      name: 'Caller ID',
      key: 'tcData',
      answeredAt: '2026-11-24T10:00:00.000Z',
    });
  });

  it('gives every merged value a provenance entry for each of its sources', () => {
    for (const attribute of analysis.attributes)
      for (const value of attribute.values) {
        const labels = new Set(value.provenance?.map((p) => p.source));
        expect([...labels].sort(), `${attribute.attribute}: ${value.value}`).toEqual(
          [...value.sources].sort(),
        );
      }
  });

  it('reads in words', () => {
    expect(provenanceText(by('Old forum')!)).toBe(
      'Old forum (via OSINT) · sandbox · answered 2026-11-24 10:00 UTC',
    );
    expect(provenanceText(by('Acme KYC')!)).toBe(
      'Acme KYC · Gov identity records · live · answered 2026-11-24 09:59 UTC',
    );
  });

  it('groups sources that answered alike into one printed line', () => {
    const lines = provenanceLines(searched.provenance ?? []);
    expect(lines).toContain('Acme KYC · Gov identity records — live · answered 2026-11-24 09:59 UTC');
    const sandboxed = lines.find((line) => line.endsWith('— sandbox · answered 2026-11-24 10:00 UTC'));
    expect(sandboxed).toContain('Old forum (via OSINT)');
    expect(sandboxed).toContain('WhatsApp');
    expect(lines.filter((line) => line.includes('sandbox'))).toHaveLength(1);
  });

  it('names the record set of each source one vendor serves, not the vendor alone', () => {
    const kyc = { status: 'ok', mode: 'live', vendor: 'KYC vendor' };
    const served = analyzePhoneLookup({
      ...richPhone(),
      source_status: { sKData: kyc, suData: kyc, sbData: kyc, srData: kyc },
    } as Parameters<typeof analyzePhoneLookup>[0]);
    const names = served.attributes
      .flatMap((a) => a.values.flatMap((v) => v.provenance ?? []))
      .filter((p) => p.vendor === 'KYC vendor')
      .map(provenanceText);
    expect(names.length).toBeGreaterThan(0);
    for (const line of names)
      expect(line).toMatch(/^KYC vendor · Gov (identity|UPI|bank|vehicle) records · live/);
    expect(new Set(names.map((line) => line.split(' · ')[1])).size).toBeGreaterThan(1);
  });

  it('ignores malformed statuses and times', () => {
    const junk = analyzePhoneLookup({
      ...richPhone(),
      answered_at: 'yesterday',
      source_status: { osintData: { mode: 'martian', answered_at: 12 } },
    } as unknown as Parameters<typeof analyzePhoneLookup>[0]);
    const osint = attr(junk, 'Phone')
      .values.flatMap((v) => v.provenance ?? [])
      .find((p) => p.source === 'OSINT');
    expect(osint).toEqual({ source: 'OSINT', name: 'Old forum', key: 'osintData', via: 'OSINT' });
  });
});
