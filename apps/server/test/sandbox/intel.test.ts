import { flattenIntelResult, type IntelKind } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { createSandboxProviders, INTEL_DEMO, INTEL_SOURCES, intelPayload } from '../../src/sandbox/index.ts';
import {
  GSTIN_PATTERN,
  gstinCheckChar,
  INTEL_DEMO_IDENTITIES,
} from '../../src/sandbox/providers/intel-common.ts';

type Envelope = {
  data: Record<string, unknown> | null;
  status_code: number;
  success: boolean;
  message: string;
};
const ask = (kind: IntelKind, params: Record<string, string | boolean>) =>
  intelPayload(kind, params) as Envelope;

/** The demo search of every kind, as the validated form fields. */
const DEMO_SEARCHES: Record<IntelKind, Record<string, string | boolean>> = {
  'corporate:corporate_gstin': {
    id_number: INTEL_DEMO.gstin,
    year: '2024',
    filing_status: true,
    hsn_info: true,
    filing_frequency: true,
    address: true,
  },
  'corporate:credit_report': {
    mobile: INTEL_DEMO.mobile,
    pan: INTEL_DEMO.pan,
    name: 'Rohan Deshmukh',
    gender: 'male',
    consent: true,
  },
  'corporate:corporate_cin': { id_number: INTEL_DEMO.cin },
  'corporate:gst_intel': {
    id_number: INTEL_DEMO.gstin,
    filing_status: true,
    hsn_info: true,
    filing_frequency: true,
  },
  'corporate:employment_history': { id_number: INTEL_DEMO.uan },
  'corporate:find_uan': { mobile_number: INTEL_DEMO.mobile },
  'corporate:pan_to_uan': { pan_number: INTEL_DEMO.pan },
  'verification:pan': { pan: INTEL_DEMO.pan, name: 'Rohan Deshmukh' },
  'verification:driving_license': { dl_number: INTEL_DEMO.drivingLicence, dob: INTEL_DEMO.dob },
  'verification:voter_id': { epic_number: INTEL_DEMO.voterId },
  'verification:passport': { file_number: INTEL_DEMO.passportFile, dob: INTEL_DEMO.dob },
  'verification:bank_account': {
    account_number: INTEL_DEMO.accountNumber,
    ifsc: INTEL_DEMO.ifsc,
    name: 'Rohan',
  },
  'verification:ifsc': { ifsc: INTEL_DEMO.ifsc },
  'verification:vehicle_rc': { vehicle_number: INTEL_DEMO.vehicle },
  'verification:employment': { phone: INTEL_DEMO.mobile, employer_name: 'Nimbuslane' },
};

/** What a results page must cope with, found anywhere in an answer. */
function featuresOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v !== 'object' || v === null))
      found.add('array of scalars');
    if (value.some((v) => typeof v === 'object' && v !== null && !Array.isArray(v)))
      found.add('array of objects');
    if (value.some(Array.isArray)) found.add('array of arrays');
    for (const v of value) featuresOf(v, found);
  } else if (typeof value === 'object' && value !== null) {
    found.add('object');
    for (const v of Object.values(value)) {
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) found.add('nested object');
      featuresOf(v, found);
    }
  } else if (value === '1800-01-01') found.add('1800-01-01');
  else if (value === 'N/A') found.add('N/A');
  else if (value === '-') found.add('-');
  else if (value === null) found.add('null');
  return found;
}

describe('sandbox corporate and verification sources', () => {
  it('has one provider per intel kind, answering only its own kind', async () => {
    const providers = createSandboxProviders().filter((p) => p.source.includes(':'));
    expect(providers.map((p) => p.source).sort()).toEqual([...INTEL_SOURCES].sort());
    for (const p of providers) expect(p.kinds).toEqual([p.source]);
    const pan = providers.find((p) => p.source === 'verification:pan')!;
    const answer = (await pan.fetch(
      { kind: 'verification:pan', value: `pan=${INTEL_DEMO.pan}`, params: { pan: INTEL_DEMO.pan } },
      new AbortController().signal,
    )) as Envelope;
    expect(answer.data).toMatchObject({ pan_number: INTEL_DEMO.pan });
    await expect(
      pan.fetch({ kind: 'verification:ifsc', value: 'x', params: {} }, new AbortController().signal),
    ).rejects.toThrow();
  });

  it.each(Object.entries(DEMO_SEARCHES) as Array<[IntelKind, Record<string, string | boolean>]>)(
    '%s: the demo search answers a record, the same every time, with lines to show',
    (kind, params) => {
      const answer = ask(kind, params);
      expect(answer).toMatchObject({ status_code: 200, success: true });
      expect(answer.data).toEqual(expect.objectContaining({ client_id: expect.any(String) }));
      expect(ask(kind, params)).toEqual(answer);
      const lines = flattenIntelResult(answer.data);
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) expect(['', '-', 'N/A', '1800-01-01']).not.toContain(line.value);
    },
  );

  it('exercises every shape the results page handles, across the demo answers', () => {
    const all = new Set<string>();
    for (const [kind, params] of Object.entries(DEMO_SEARCHES))
      featuresOf(ask(kind as IntelKind, params).data, all);
    for (const feature of [
      'nested object',
      'array of scalars',
      'array of objects',
      'array of arrays',
      '1800-01-01',
      'N/A',
      '-',
      'null',
    ]) {
      expect(all, feature).toContain(feature);
    }
    // The rich GSTIN alone has most of them.
    const gstin = featuresOf(
      ask('corporate:corporate_gstin', DEMO_SEARCHES['corporate:corporate_gstin']).data,
    );
    for (const feature of [
      'nested object',
      'array of scalars',
      'array of objects',
      'array of arrays',
      '1800-01-01',
      'N/A',
    ]) {
      expect(gstin, feature).toContain(feature);
    }
  });

  it('answers the demo person consistently across sources', () => {
    const pan = ask('verification:pan', { pan: INTEL_DEMO.pan }).data!;
    expect(pan).toMatchObject({
      full_name: 'ROHAN SURESH DESHMUKH',
      dob: '1990-04-17',
      phone_number: INTEL_DEMO.mobile,
    });
    expect(ask('corporate:find_uan', { mobile_number: INTEL_DEMO.mobile }).data).toMatchObject({
      uan_list: [INTEL_DEMO.uan],
    });
    expect(ask('corporate:pan_to_uan', { pan_number: INTEL_DEMO.pan }).data).toMatchObject({
      uan_number: INTEL_DEMO.uan,
    });
    const history = ask('corporate:employment_history', { id_number: INTEL_DEMO.uan }).data!;
    const jobs = history.employment_history as Array<Record<string, string>>;
    expect(jobs.map((j) => j.establishment_name)).toEqual([
      'NIMBUSLANE TECHNOLOGIES PRIVATE LIMITED',
      'SAFFRONLEAF ANALYTICS LLP',
      'DECCANBYTE FINTECH',
    ]);
    expect(jobs[0]!.date_of_exit).toBe('1800-01-01');
    expect(jobs[1]!.date_of_exit).not.toBe('1800-01-01');
    const cin = ask('corporate:corporate_cin', { id_number: INTEL_DEMO.cin }).data!;
    expect(cin.company_name).toBe('NIMBUSLANE TECHNOLOGIES PRIVATE LIMITED');
    expect((cin.directors as unknown[]).length).toBe(4);
    expect((cin.charges as unknown[]).length).toBe(3);
    expect(ask('verification:bank_account', DEMO_SEARCHES['verification:bank_account']).data).toMatchObject({
      account_exists: true,
      full_name: 'ROHAN SURESH DESHMUKH',
      name_match: true,
    });
    const credit = ask('corporate:credit_report', DEMO_SEARCHES['corporate:credit_report']).data!;
    expect(credit).toMatchObject({ credit_score: '781', pan: INTEL_DEMO.pan });
    expect((credit.credit_report as { accounts: unknown[] }).accounts).toHaveLength(5);
  });

  it('follows the GSTIN options: the chosen year, and each section only when asked', () => {
    const base = { id_number: INTEL_DEMO.gstin };
    const none = ask('corporate:corporate_gstin', { ...base, year: '2024' }).data!;
    expect(none).toMatchObject({
      filing_status: [],
      hsn_info: {},
      filing_frequency: [],
      address_details: {},
    });
    for (const year of ['2024', '2023', '2022', '2021']) {
      const data = ask('corporate:corporate_gstin', {
        ...base,
        year,
        filing_status: true,
        filing_frequency: true,
      }).data!;
      const rows = (data.filing_status as Array<Array<Record<string, string>>>)[0]!;
      expect(rows.length).toBe(24);
      expect(new Set(rows.map((r) => r.fy))).toEqual(new Set([`${year}-${Number(year) + 1}`]));
      expect(new Set(rows.map((r) => r.rtntype))).toEqual(new Set(['GSTR1', 'GSTR3B']));
    }
    const cancelled = ask('corporate:corporate_gstin', {
      id_number: INTEL_DEMO.gstinCancelled,
      year: '2022',
      filing_status: true,
    }).data!;
    expect(cancelled).toMatchObject({ gstin_status: 'Cancelled', date_of_cancellation: '2022-03-31' });
    expect(cancelled.filing_status).toEqual([]);
  });

  it('answers the vendor 422 envelope for the unknown demo ids and malformed ids', () => {
    const unknown: Array<[IntelKind, Record<string, string | boolean>]> = [
      ['corporate:corporate_gstin', { id_number: INTEL_DEMO.gstinUnknown, year: '2024' }],
      ['corporate:gst_intel', { id_number: INTEL_DEMO.gstinUnknown }],
      ['corporate:corporate_gstin', { id_number: 'NOT-A-GSTIN', year: '2024' }],
      ['corporate:corporate_cin', { id_number: INTEL_DEMO.cinUnknown }],
      ['corporate:corporate_cin', { id_number: 'U123' }],
      ['corporate:employment_history', { id_number: INTEL_DEMO.uanUnknown }],
      ['corporate:find_uan', { mobile_number: INTEL_DEMO.mobileUnknown }],
      ['corporate:pan_to_uan', { pan_number: INTEL_DEMO.panUnknown }],
      [
        'corporate:credit_report',
        { ...DEMO_SEARCHES['corporate:credit_report'], pan: INTEL_DEMO.panUnknown },
      ],
      ['verification:pan', { pan: INTEL_DEMO.panUnknown }],
      ['verification:driving_license', { dl_number: INTEL_DEMO.drivingLicence, dob: '1990-04-18' }],
      ['verification:driving_license', { dl_number: 'XX', dob: INTEL_DEMO.dob }],
      ['verification:voter_id', { epic_number: '12345' }],
      ['verification:passport', { file_number: INTEL_DEMO.passportFile, dob: '2000-01-01' }],
      [
        'verification:bank_account',
        { account_number: INTEL_DEMO.accountNumber, ifsc: INTEL_DEMO.ifscUnknown },
      ],
      ['verification:ifsc', { ifsc: INTEL_DEMO.ifscUnknown }],
      ['verification:vehicle_rc', { vehicle_number: INTEL_DEMO.vehicleUnknown }],
      ['verification:employment', { uan: INTEL_DEMO.uanUnknown }],
    ];
    for (const [kind, params] of unknown) {
      expect(ask(kind, params), `${kind} ${JSON.stringify(params)}`).toMatchObject({
        data: null,
        status_code: 422,
        success: false,
      });
    }
  });

  it('knows most well-formed ids, each as a stable synthetic record, and only reserved e-mail domains', () => {
    let known = 0;
    const emails: string[] = [];
    for (let i = 0; i < 200; i++) {
      const first14 = `27AAB${i % 2 ? 'C' : 'P'}${String.fromCharCode(65 + (i % 26))}${String(1000 + i)}${String.fromCharCode(65 + ((i * 7) % 26))}1Z`;
      const gstin = `${first14}${gstinCheckChar(first14)}`;
      expect(gstin).toMatch(GSTIN_PATTERN);
      const answer = ask('corporate:gst_intel', { id_number: gstin });
      if (answer.data) {
        known += 1;
        expect(answer.data.gstin).toBe(gstin);
        expect(answer.data.legal_name).toEqual(expect.any(String));
        emails.push(String((answer.data.contact_details as Record<string, string>).email));
      }
    }
    expect(known).toBeGreaterThan(160);
    expect(known).toBeLessThan(200);
    for (const email of emails) expect(email).toMatch(/@[a-z0-9.-]+\.example\.com$/);
  });

  it('gives the demo GSTINs their real check character', () => {
    for (const gstin of [INTEL_DEMO.gstin, INTEL_DEMO.gstinCancelled, INTEL_DEMO.gstinUnknown]) {
      expect(gstinCheckChar(gstin.slice(0, 14))).toBe(gstin[14]);
    }
  });

  it('documents a demo identity for every kind', () => {
    const kinds = new Set(INTEL_DEMO_IDENTITIES.map((d) => d.kind));
    for (const kind of INTEL_SOURCES) expect(kinds, kind).toContain(kind);
  });
});
