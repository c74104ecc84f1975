import { type IntelKind, messages } from '@footprint/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, creditEntries, lookups, reports, users } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { INTEL_DEMO } from '../../src/sandbox/index.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { pdfText } from '../support/pdf.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => t.close());

async function userWith(credits: number, appMode: 'live' | 'trial' = 'live') {
  const user = await createUser(t.db, { credits, appMode });
  const { token } = await signIn(t, user.email, user.password);
  return { user, auth: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
}

const CORPORATE = '/api/corporate-intelligence';
const VERIFICATION = '/api/verification-id';

const post = (url: string, body: unknown, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
  });

async function balanceOf(userId: string) {
  const [row] = await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return row!.credits;
}
const ledgerOf = (userId: string) =>
  t.db.select().from(creditEntries).where(eq(creditEntries.userId, userId)).orderBy(creditEntries.id);
const lookupsOf = (userId: string) =>
  t.db.select().from(lookups).where(eq(lookups.userId, userId)).orderBy(desc(lookups.createdAt));
const auditOf = (userId: string) =>
  t.db.select().from(auditEvents).where(eq(auditEvents.userId, userId)).orderBy(auditEvents.id);

/** A search of every type with the demo identities, and a field of the answer it must carry. */
const HAPPY: Array<{
  url: string;
  type: string;
  data: Record<string, unknown>;
  cost: number;
  expect: Record<string, unknown>;
}> = [
  {
    url: CORPORATE,
    type: 'corporate_gstin',
    data: {
      id_number: INTEL_DEMO.gstin,
      year: '2023',
      filing_status: true,
      hsn_info: true,
      filing_frequency: true,
      address: true,
    },
    cost: 2,
    expect: {
      gstin: INTEL_DEMO.gstin,
      legal_name: 'NIMBUSLANE TECHNOLOGIES PRIVATE LIMITED',
      gstin_status: 'Active',
    },
  },
  {
    url: CORPORATE,
    type: 'corporate_cin',
    data: { id_number: INTEL_DEMO.cin },
    cost: 2,
    expect: { company_id: INTEL_DEMO.cin, company_status: 'Active' },
  },
  {
    url: CORPORATE,
    type: 'gst_intel',
    data: { id_number: INTEL_DEMO.gstin, filing_status: true, hsn_info: false, filing_frequency: false },
    cost: 2,
    expect: { gstin: INTEL_DEMO.gstin, hsn_info: {} },
  },
  {
    url: CORPORATE,
    type: 'employment_history',
    data: { id_number: INTEL_DEMO.uan },
    cost: 2,
    expect: { uan: INTEL_DEMO.uan },
  },
  {
    url: CORPORATE,
    type: 'find_uan',
    data: { mobile_number: INTEL_DEMO.mobile },
    cost: 2,
    expect: { uan_list: [INTEL_DEMO.uan] },
  },
  {
    url: CORPORATE,
    type: 'pan_to_uan',
    data: { pan_number: INTEL_DEMO.pan },
    cost: 2,
    expect: { uan_number: INTEL_DEMO.uan },
  },
  {
    url: VERIFICATION,
    type: 'pan',
    data: { pan: INTEL_DEMO.pan, name: 'Rohan Deshmukh' },
    cost: 1,
    expect: { pan_number: INTEL_DEMO.pan, full_name: 'ROHAN SURESH DESHMUKH', name_match: true },
  },
  {
    url: VERIFICATION,
    type: 'driving_license',
    data: { dl_number: INTEL_DEMO.drivingLicence, dob: INTEL_DEMO.dob },
    cost: 1,
    expect: {
      license_number: INTEL_DEMO.drivingLicence,
      vehicle_classes: ['MCWG', 'LMV'],
      transport_doi: '1800-01-01',
    },
  },
  {
    url: VERIFICATION,
    type: 'voter_id',
    data: { epic_number: INTEL_DEMO.voterId },
    cost: 1,
    expect: { epic_no: INTEL_DEMO.voterId, name: 'ROHAN SURESH DESHMUKH' },
  },
  {
    url: VERIFICATION,
    type: 'passport',
    data: { file_number: INTEL_DEMO.passportFile, dob: INTEL_DEMO.dob },
    cost: 1,
    expect: { file_number: INTEL_DEMO.passportFile, passport_number: 'Z4821906' },
  },
  {
    url: VERIFICATION,
    type: 'bank_account',
    data: { account_number: INTEL_DEMO.accountNumber, ifsc: INTEL_DEMO.ifsc },
    cost: 1,
    expect: {
      account_exists: true,
      full_name: 'ROHAN SURESH DESHMUKH',
      ifsc_details: { bank: 'Konkan Coastal Bank' },
    },
  },
  {
    url: VERIFICATION,
    type: 'ifsc',
    data: { ifsc: INTEL_DEMO.ifsc },
    cost: 1,
    expect: { ifsc: INTEL_DEMO.ifsc, bank: 'Konkan Coastal Bank', branch: 'BANER BRANCH' },
  },
  {
    url: VERIFICATION,
    type: 'vehicle_rc',
    data: { vehicle_number: INTEL_DEMO.vehicle },
    cost: 1,
    expect: { rc_number: INTEL_DEMO.vehicle, owner_name: 'ROHAN SURESH DESHMUKH' },
  },
  {
    url: VERIFICATION,
    type: 'employment',
    data: { phone: INTEL_DEMO.mobile },
    cost: 1,
    expect: { employee_details: { uan: INTEL_DEMO.uan, is_employed: true } },
  },
];

describe('every type answers its record, charged once, with a lookups row and an audit row', () => {
  it.each(HAPPY.map((c) => [c.type, c] as const))('%s', async (_, c) => {
    const { user, auth } = await userWith(10);
    const res = await post(c.url, { type: c.type, data: c.data, case_reference: '  FIR 214/2025  ' }, auth);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ data: c.expect, credits: 10 - c.cost, sandbox: true });
    expect(body.data).not.toHaveProperty('status_code');
    expect(await balanceOf(user.id)).toBe(10 - c.cost);

    const area = c.url === CORPORATE ? 'corporate' : 'verification';
    const [row] = await lookupsOf(user.id);
    expect(row).toMatchObject({
      id: body.lookup_id,
      kind: `${area}:${c.type}`,
      cost: c.cost,
      status: 'complete',
      sandbox: true,
      caseReference: 'FIR 214/2025',
      sourcesAnswered: [`${area}:${c.type}`],
    });
    expect(row!.query).toContain(String(Object.values(c.data)[0]));
    const ledger = await ledgerOf(user.id);
    expect(ledger.map((e) => [e.kind, e.delta, e.lookupId])).toEqual([
      ['grant', 10, null],
      ['charge', -c.cost, body.lookup_id],
    ]);
    const audit = (await auditOf(user.id)).filter((a) => a.action.startsWith('lookup.'));
    expect(audit).toEqual([
      expect.objectContaining({
        action: `lookup.${area}`,
        outcome: 'success',
        cost: c.cost,
        caseReference: 'FIR 214/2025',
        target: `${c.type}:${row!.query}`,
      }),
    ]);
  });

  it('sends the GSTIN options through: year, filing status, HSN, frequency and split address', async () => {
    const { auth } = await userWith(10);
    const data = {
      id_number: INTEL_DEMO.gstin,
      year: '2022',
      filing_status: true,
      hsn_info: false,
      filing_frequency: true,
      address: true,
    };
    const full = (await post(CORPORATE, { type: 'corporate_gstin', data }, auth)).json().data;
    expect(full.filing_status[0][0]).toMatchObject({ fy: '2022-2023', taxp: 'April' });
    expect(full.filing_frequency[0]).toMatchObject({ fy: '2022-2023', quarter: 'Q1' });
    expect(full.address_details).toMatchObject({ city: 'Pune', pincode: '411045' });
    expect(full.hsn_info).toEqual({});
    const bare = (
      await post(
        CORPORATE,
        { type: 'corporate_gstin', data: { id_number: INTEL_DEMO.gstin, year: '2024' } },
        auth,
      )
    ).json().data;
    expect(bare).toMatchObject({
      filing_status: [],
      filing_frequency: [],
      address_details: {},
      hsn_info: {},
    });
  });
});

describe('the credit report', () => {
  const data = {
    mobile: INTEL_DEMO.mobile,
    pan: INTEL_DEMO.pan,
    name: 'Rohan Deshmukh',
    gender: 'male',
    consent: 'Y',
  };

  it('answers 503 with Retry-After when the report queue is full, and keeps only the drawn reports charged', async () => {
    // One render thread and no waiting room: credit reports asked for together find it busy.
    const busy = await createTestApp({
      env: { RATE_LIMIT_ENABLED: 'false', REPORT_THREADS: '1', REPORT_QUEUE: '0' },
    });
    try {
      const user = await createUser(busy.db, { credits: 50, appMode: 'live' });
      const { token } = await signIn(busy, user.email, user.password);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          busy.app.inject({
            method: 'POST',
            url: CORPORATE,
            payload: JSON.stringify({ type: 'credit_report', data }),
            headers,
          }),
        ),
      );
      const drawn = answers.filter((res) => res.statusCode === 200);
      const refused = answers.filter((res) => res.statusCode === 503);
      expect(drawn.length + refused.length, answers.map((res) => res.statusCode).join()).toBe(4);
      expect(drawn.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const res of refused) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(res.json().message).toMatch(/^Reports are busy right now/);
      }
      const [row] = await busy.db.select({ credits: users.credits }).from(users).where(eq(users.id, user.id));
      expect(row!.credits).toBe(50 - 5 * drawn.length);
      expect(await findLedgerMismatches(busy.db)).toEqual([]);
      const stored = await busy.db.select().from(reports).where(eq(reports.userId, user.id));
      expect(stored).toHaveLength(drawn.length);
    } finally {
      await busy.close();
    }
  });

  it('answers a PDF, charges 5, keeps the balance in X-Credits and a verifiable report row', async () => {
    const { user, auth } = await userWith(7);
    const res = await post(CORPORATE, { type: 'credit_report', data }, auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="credit-report-${INTEL_DEMO.pan}.pdf"`,
    );
    expect(res.headers['x-credits']).toBe('2');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Credit Report');
    expect(text).toContain(INTEL_DEMO.pan);
    expect(text).toContain('ROHAN SURESH DESHMUKH');
    expect(text).toContain('Sandbox data');
    expect(text).toContain('Accounts');
    expect(text).not.toContain('1800-01-01');
    expect(await balanceOf(user.id)).toBe(2);

    const [row] = await lookupsOf(user.id);
    expect(row).toMatchObject({ kind: 'corporate:credit_report', cost: 5, status: 'complete' });
    const [report] = await t.db.select().from(reports).where(eq(reports.lookupId, row!.id));
    expect(report).toMatchObject({
      id: res.headers['x-report-id'],
      kind: 'credit_report',
      bytes: res.rawPayload.length,
    });
    const verify = await t.app.inject({
      method: 'GET',
      url: `/api/reports/${report!.id}/verify?sha256=${res.headers['x-report-sha256']}`,
      headers: { authorization: auth.authorization },
    });
    expect(verify.json()).toMatchObject({ valid: true, kind: 'credit_report' });
  });

  it('accepts the ticked box as true as well, and refuses consent N without a charge', async () => {
    const { user, auth } = await userWith(10);
    expect(
      (await post(CORPORATE, { type: 'credit_report', data: { ...data, consent: true } }, auth)).statusCode,
    ).toBe(200);
    const refused = await post(CORPORATE, { type: 'credit_report', data: { ...data, consent: 'N' } }, auth);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: messages.intel.consent,
      error: messages.intel.consent,
      errors: { 'data.consent': [messages.intel.consent] },
    });
    expect(await balanceOf(user.id)).toBe(5);
  });

  it('answers 422 and refunds when the bureau has no history for the PAN', async () => {
    const { user, auth } = await userWith(5);
    const res = await post(
      CORPORATE,
      { type: 'credit_report', data: { ...data, pan: INTEL_DEMO.panUnknown } },
      auth,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: messages.intel.noRecord, credits: 5 });
    expect(res.headers['content-type']).toMatch(/json/);
    expect(await balanceOf(user.id)).toBe(5);
    const [row] = await lookupsOf(user.id);
    // The bureau's "no record": refunded as before, recorded as no_record rather than a failure.
    expect(row).toMatchObject({ kind: 'corporate:credit_report', status: 'no_record', cost: 5 });
    expect(await t.db.select().from(reports).where(eq(reports.lookupId, row!.id))).toEqual([]);
  });
});

describe('bad input: the spec message, 400, no charge, no lookup', () => {
  // [what, path, body, message, the key of `errors` it is under]
  const cases: Array<[string, string, unknown, string, string]> = [
    [
      'unknown type',
      CORPORATE,
      { type: 'corporate_xyz', data: {} },
      messages.intel.unknownType('corporate_xyz'),
      'type',
    ],
    [
      'a verification type on the corporate path',
      CORPORATE,
      { type: 'pan', data: { pan: 'BQZPD4821K' } },
      messages.intel.unknownType('pan'),
      'type',
    ],
    [
      'a corporate type on the verification path',
      VERIFICATION,
      { type: 'corporate_cin', data: { id_number: INTEL_DEMO.cin } },
      messages.intel.unknownType('corporate_cin'),
      'type',
    ],
    ['missing type', CORPORATE, { data: {} }, messages.intel.missingType, 'type'],
    ['missing data', VERIFICATION, { type: 'pan' }, messages.intel.badData, 'data'],
    ['data as a list', VERIFICATION, { type: 'pan', data: ['BQZPD4821K'] }, messages.intel.badData, 'data'],
    ['a body that is a list', VERIFICATION, [], messages.intel.badBody, 'body'],
    [
      'an unknown top-level key',
      VERIFICATION,
      { type: 'pan', data: { pan: 'BQZPD4821K' }, cost: 0 },
      messages.intel.unexpectedKey('cost'),
      'cost',
    ],
    [
      'fields of another type',
      VERIFICATION,
      { type: 'pan', data: { pan: 'BQZPD4821K', dl_number: 'MH1220110048219' } },
      messages.intel.unknownField('dl_number', 'PAN'),
      'data.dl_number',
    ],
    [
      'lower-case PAN',
      VERIFICATION,
      { type: 'pan', data: { pan: 'bqzpd4821k' } },
      'Invalid PAN format.',
      'data.pan',
    ],
    [
      'lower-case PAN to UAN',
      CORPORATE,
      { type: 'pan_to_uan', data: { pan_number: 'bqzpd4821k' } },
      'Invalid PAN format.',
      'data.pan_number',
    ],
    [
      'a 13-digit mobile',
      CORPORATE,
      { type: 'find_uan', data: { mobile_number: '9876543210123' } },
      'Mobile number must be between 7 and 12 digits.',
      'data.mobile_number',
    ],
    [
      'a mobile with letters',
      CORPORATE,
      { type: 'find_uan', data: { mobile_number: '98765abc10' } },
      'Mobile number must contain only digits.',
      'data.mobile_number',
    ],
    [
      'consent N',
      CORPORATE,
      {
        type: 'credit_report',
        data: { mobile: '9876543210', pan: 'BQZPD4821K', name: 'R', gender: 'male', consent: 'N' },
      },
      'You must consent to fetch your credit report.',
      'data.consent',
    ],
    [
      'missing gender',
      CORPORATE,
      { type: 'credit_report', data: { mobile: '9876543210', pan: 'BQZPD4821K', name: 'R', consent: 'Y' } },
      'Gender is required.',
      'data.gender',
    ],
    [
      'an empty GSTIN',
      CORPORATE,
      { type: 'corporate_gstin', data: { id_number: ' ', year: '2024' } },
      'GSTIN is required.',
      'data.id_number',
    ],
    [
      'a year not offered',
      CORPORATE,
      { type: 'corporate_gstin', data: { id_number: INTEL_DEMO.gstin, year: '2019' } },
      'Financial Year must be one of 2024, 2023, 2022, 2021.',
      'data.year',
    ],
    [
      'a date that is not a date',
      VERIFICATION,
      { type: 'driving_license', data: { dl_number: INTEL_DEMO.drivingLicence, dob: '31-02-1990' } },
      'Date of Birth must be a date (YYYY-MM-DD).',
      'data.dob',
    ],
    [
      'an impossible date',
      VERIFICATION,
      { type: 'passport', data: { file_number: INTEL_DEMO.passportFile, dob: '1990-02-30' } },
      'Date of Birth must be a date (YYYY-MM-DD).',
      'data.dob',
    ],
    [
      'an array where a string belongs',
      CORPORATE,
      { type: 'corporate_cin', data: { id_number: [INTEL_DEMO.cin] } },
      'CIN must be text.',
      'data.id_number',
    ],
    [
      'an object where a string belongs',
      VERIFICATION,
      { type: 'ifsc', data: { ifsc: { code: INTEL_DEMO.ifsc } } },
      'IFSC must be text.',
      'data.ifsc',
    ],
    [
      'a string checkbox',
      CORPORATE,
      { type: 'gst_intel', data: { id_number: INTEL_DEMO.gstin, hsn_info: 'true' } },
      'HSN Info must be true or false.',
      'data.hsn_info',
    ],
    [
      'no employment combination',
      VERIFICATION,
      { type: 'employment', data: { pan: 'BQZPD4821K', dob: '1990-04-17' } },
      messages.intel.combination,
      'data',
    ],
    [
      'an over-long case reference',
      VERIFICATION,
      { type: 'pan', data: { pan: 'BQZPD4821K' }, case_reference: 'x'.repeat(101) },
      messages.caseReference.tooLong,
      'case_reference',
    ],
  ];

  it.each(cases)('%s', async (_, url, body, message, field) => {
    const { user, auth } = await userWith(5);
    const before = await ledgerOf(user.id);
    const res = await post(url, body, auth);
    expect(res.statusCode, res.body).toBe(400);
    // The spec's message and error, and per field like every other form: the first is the message's.
    const answer = res.json();
    expect(answer).toEqual({ message, error: message, errors: expect.any(Object) });
    expect(Object.entries(answer.errors)[0]).toEqual([field, [message]]);
    expect(await balanceOf(user.id)).toBe(5);
    expect(await ledgerOf(user.id)).toEqual(before);
    expect(await lookupsOf(user.id)).toEqual([]);
    const [audit] = await auditOf(user.id).then((rows) => rows.filter((a) => a.action.startsWith('lookup.')));
    expect(audit).toMatchObject({ outcome: 'failure', cost: 0 });
  });

  it('names every field that breaks a rule, as the other forms do', async () => {
    const { auth } = await userWith(5);
    const res = await post(
      CORPORATE,
      { type: 'corporate_gstin', data: { id_number: '', year: '2019', extra: 1 } },
      auth,
    );
    expect(res.statusCode).toBe(400);
    const message = messages.intel.unknownField('extra', 'GSTIN Details');
    expect(res.json()).toMatchObject({ message, error: message });
    expect(res.json().errors).toEqual({
      'data.extra': [message],
      'data.id_number': ['GSTIN is required.'],
      'data.year': ['Financial Year must be one of 2024, 2023, 2022, 2021.'],
    });
  });

  it('answers malformed JSON with a 400 and no charge', async () => {
    const { user, auth } = await userWith(5);
    const res = await post(VERIFICATION, '{"type": "pan", "data": ', auth);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: messages.errors.malformedJson });
    expect(await balanceOf(user.id)).toBe(5);
  });
});

describe('credits and failures', () => {
  it('answers 402 with the balance when credits are short, charging and storing nothing', async () => {
    const { user, auth } = await userWith(1);
    const res = await post(CORPORATE, { type: 'corporate_cin', data: { id_number: INTEL_DEMO.cin } }, auth);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: messages.credits.insufficient, credits: 1 });
    expect(await lookupsOf(user.id)).toEqual([]);
    expect((await ledgerOf(user.id)).map((e) => e.kind)).toEqual(['grant']);
    // One credit is enough for a verification.
    expect(
      (await post(VERIFICATION, { type: 'ifsc', data: { ifsc: INTEL_DEMO.ifsc } }, auth)).json(),
    ).toMatchObject({
      credits: 0,
    });
  });

  it.each([
    [CORPORATE, 'corporate_gstin', { id_number: INTEL_DEMO.gstinUnknown, year: '2024' }],
    [CORPORATE, 'corporate_cin', { id_number: INTEL_DEMO.cinUnknown }],
    [CORPORATE, 'employment_history', { id_number: INTEL_DEMO.uanUnknown }],
    [CORPORATE, 'find_uan', { mobile_number: INTEL_DEMO.mobileUnknown }],
    [CORPORATE, 'pan_to_uan', { pan_number: INTEL_DEMO.panUnknown }],
    [VERIFICATION, 'pan', { pan: INTEL_DEMO.panUnknown }],
    [VERIFICATION, 'driving_license', { dl_number: INTEL_DEMO.drivingLicence, dob: '1991-01-01' }],
    [VERIFICATION, 'ifsc', { ifsc: INTEL_DEMO.ifscUnknown }],
    [VERIFICATION, 'vehicle_rc', { vehicle_number: INTEL_DEMO.vehicleUnknown }],
  ])(
    '%s %s: no record is 422, refunded, with the lookup kept as no_record (not a failure)',
    async (url, type, data) => {
      const { user, auth } = await userWith(3);
      const res = await post(url, { type, data, case_reference: 'CASE-9' }, auth);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ message: messages.intel.noRecord, credits: 3 });
      expect(await balanceOf(user.id)).toBe(3);
      const [row] = await lookupsOf(user.id);
      expect(row).toMatchObject({ status: 'no_record', caseReference: 'CASE-9' });
      const cost = url === CORPORATE ? 2 : 1;
      expect((await ledgerOf(user.id)).map((e) => [e.kind, e.delta])).toEqual([
        ['grant', 3],
        ['charge', -cost],
        ['refund', cost],
      ]);
      const [audit] = (await auditOf(user.id)).filter((a) => a.action.startsWith('lookup.'));
      expect(audit).toMatchObject({
        outcome: 'no_record',
        cost: 0,
        details: expect.objectContaining({ reason: 'no_record', refunded: cost, query: row!.query }),
      });
      // History: the neutral outcome, the charge shown as given back.
      const history = await t.app.inject({ method: 'GET', url: '/api/history', headers: auth });
      expect(history.json().data[0]).toMatchObject({ id: row!.id, status: 'no_record', refunded: true });
    },
  );

  it('keeps the search as typed (the filled fields, readable) beside the normalized query', async () => {
    const { user, auth } = await userWith(3);
    const data = { dl_number: INTEL_DEMO.drivingLicence, dob: INTEL_DEMO.dob };
    const res = await post(VERIFICATION, { type: 'driving_license', data }, auth);
    expect(res.statusCode, res.body).toBe(200);
    const typed = `Driving License Number: ${INTEL_DEMO.drivingLicence} · Date of Birth: 17 Apr 1990`;
    const normalized = `dl_number=${INTEL_DEMO.drivingLicence}&dob=${INTEL_DEMO.dob}`;
    const [row] = await lookupsOf(user.id);
    expect(row).toMatchObject({ status: 'complete', query: normalized, queryTyped: typed });
    const [audit] = (await auditOf(user.id)).filter((a) => a.action.startsWith('lookup.'));
    expect(audit).toMatchObject({
      outcome: 'success',
      details: expect.objectContaining({ query_typed: typed, query: normalized }),
    });
    const history = await t.app.inject({ method: 'GET', url: '/api/history', headers: auth });
    expect(history.json().data[0]).toMatchObject({ query: normalized, query_typed: typed, refunded: false });
  });

  it('refuses trial accounts with 403 whatever they send, and audits the refusal', async () => {
    const { user, auth } = await userWith(10, 'trial');
    for (const [url, body] of [
      [CORPORATE, { type: 'corporate_cin', data: { id_number: INTEL_DEMO.cin } }],
      [VERIFICATION, { type: 'pan', data: { pan: INTEL_DEMO.pan } }],
      [VERIFICATION, { nonsense: true }],
    ] as const) {
      const res = await post(url, body, auth);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(messages.upgrade.body);
    }
    expect(await balanceOf(user.id)).toBe(10);
    expect(await lookupsOf(user.id)).toEqual([]);
    const audit = (await auditOf(user.id)).filter((a) => a.action.startsWith('lookup.'));
    expect(audit.map((a) => [a.action, a.outcome])).toEqual([
      ['lookup.corporate', 'denied'],
      ['lookup.verification', 'denied'],
      ['lookup.verification', 'denied'],
    ]);
  });

  it('needs a valid token', async () => {
    for (const url of [CORPORATE, VERIFICATION]) {
      const res = await post(url, { type: 'pan', data: {} }, { 'content-type': 'application/json' });
      expect(res.statusCode).toBe(401);
    }
  });

  it('keeps every balance equal to its ledger', async () => {
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });
});

describe('a source that fails', () => {
  let failing: TestApp;
  beforeAll(async () => {
    failing = await createTestApp({
      env: {
        RATE_LIMIT_ENABLED: 'false',
        SANDBOX_FAILURES: 'corporate:corporate_cin=1,verification:pan=1',
        COST_CORPORATE: '3',
      },
    });
  });
  afterAll(() => failing.close());

  it.each([
    [CORPORATE, 'corporate:corporate_cin', { type: 'corporate_cin', data: { id_number: INTEL_DEMO.cin } }, 3],
    [VERIFICATION, 'verification:pan', { type: 'pan', data: { pan: INTEL_DEMO.pan } }, 1],
  ] as const)('%s answers 502 and refunds (%s)', async (url, kind: IntelKind, body, cost) => {
    const user = await createUser(failing.db, { credits: 4, appMode: 'live' });
    const { token } = await signIn(failing, user.email, user.password);
    const res = await failing.app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ message: messages.intel.upstreamFailed, credits: 4 });
    const [row] = await failing.db
      .select()
      .from(lookups)
      .where(and(eq(lookups.userId, user.id), eq(lookups.kind, kind)));
    expect(row).toMatchObject({ status: 'refunded', cost });
    const ledger = await failing.db.select().from(creditEntries).where(eq(creditEntries.userId, user.id));
    expect(ledger.map((e) => e.delta).sort()).toEqual([-cost, 4, cost].sort());
    // The other types still answer.
    const ok = await failing.app.inject({
      method: 'POST',
      url: VERIFICATION,
      payload: JSON.stringify({ type: 'ifsc', data: { ifsc: INTEL_DEMO.ifsc } }),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(ok.statusCode).toBe(200);
    expect(await findLedgerMismatches(failing.db)).toEqual([]);
  });
});
