import { type IntelKind, messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditEntries, lookups } from '../../src/db/schema.ts';
import { kycProviders } from '../../src/providers/http/kyc.ts';
import { SourceFailedError } from '../../src/providers/types.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { pdfText } from '../support/pdf.ts';
import { type RecordedRequest, sendJson, startFakeUpstream } from '../support/upstream.ts';

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream((_req, res) => sendJson(res, 500, {}));
});
afterAll(() => upstream.close());

const envelope = (data: Record<string, unknown>) => ({
  data: { client_id: 'vendor_req_1', ...data },
  status_code: 200,
  success: true,
  message: '',
  message_code: 'success',
});
const notFound = {
  data: null,
  status_code: 422,
  success: false,
  message: 'No records found',
  message_code: 'not_found',
};

/** Each search: the validated fields, the vendor path and the body the vendor must receive. */
const CALLS: Array<[IntelKind, Record<string, string | boolean>, string, Record<string, unknown>]> = [
  [
    'corporate:corporate_gstin',
    {
      id_number: '27AADCN4821K1ZC',
      year: '2023',
      filing_status: true,
      hsn_info: false,
      filing_frequency: true,
      address: true,
    },
    '/api/v1/corporate/gstin',
    {
      id_number: '27AADCN4821K1ZC',
      financial_year: '2023-24',
      filing_status_get: true,
      hsn_info_get: false,
      filing_frequency_get: true,
      split_address: true,
    },
  ],
  [
    'corporate:gst_intel',
    { id_number: '27AADCN4821K1ZC', filing_status: false, hsn_info: true, filing_frequency: false },
    '/api/v1/corporate/gstin-advanced',
    {
      id_number: '27AADCN4821K1ZC',
      filing_status_get: false,
      hsn_info_get: true,
      filing_frequency_get: false,
    },
  ],
  [
    'corporate:corporate_cin',
    { id_number: 'U72200MH2015PTC248219' },
    '/api/v1/corporate/company-details',
    { id_number: 'U72200MH2015PTC248219' },
  ],
  [
    'corporate:employment_history',
    { id_number: '100482190612' },
    '/api/v1/income/employment-history-uan-v2',
    { id_number: '100482190612' },
  ],
  [
    'corporate:find_uan',
    { mobile_number: '9876543210' },
    '/api/v1/income/epfo/find-uan',
    { mobile_number: '9876543210' },
  ],
  [
    'corporate:pan_to_uan',
    { pan_number: 'BQZPD4821K' },
    '/api/v1/pan/pan-to-uan',
    { pan_number: 'BQZPD4821K' },
  ],
  [
    'corporate:credit_report',
    { mobile: '9876543210', pan: 'BQZPD4821K', name: 'Rohan Deshmukh', gender: 'male', consent: true },
    '/api/v1/credit-report-cibil/fetch-report-pdf',
    { mobile: '9876543210', pan: 'BQZPD4821K', name: 'Rohan Deshmukh', gender: 'male', consent: 'Y' },
  ],
  ['verification:pan', { pan: 'BQZPD4821K' }, '/api/v1/pan/pan-comprehensive', { id_number: 'BQZPD4821K' }],
  [
    'verification:driving_license',
    { dl_number: 'MH1220110048219', dob: '1990-04-17' },
    '/api/v1/driving-license/driving-license',
    { id_number: 'MH1220110048219', dob: '1990-04-17' },
  ],
  [
    'verification:voter_id',
    { epic_number: 'KTW4821906', name: 'Rohan' },
    '/api/v1/voter-id/voter-id',
    { id_number: 'KTW4821906', name: 'Rohan' },
  ],
  [
    'verification:passport',
    { file_number: 'PN1064821906217', dob: '1990-04-17' },
    '/api/v1/passport/passport/passport-details',
    { id_number: 'PN1064821906217', dob: '1990-04-17' },
  ],
  [
    'verification:bank_account',
    { account_number: '50100482190612', ifsc: 'KCBX0PUN482', phone: '9876543210' },
    '/api/v1/bank-verification',
    { id_number: '50100482190612', ifsc: 'KCBX0PUN482', ifsc_details: true, mobile: '9876543210' },
  ],
  ['verification:ifsc', { ifsc: 'KCBX0PUN482' }, '/api/v1/bank-verification/ifsc', { ifsc: 'KCBX0PUN482' }],
  [
    'verification:vehicle_rc',
    { vehicle_number: 'mh 12 fp-1234' },
    '/api/v1/rc/rc-full',
    { id_number: 'MH12FP1234' },
  ],
  [
    'verification:employment',
    { uan: '100482190612', employee_name: 'Rohan Deshmukh' },
    '/api/v1/employment/employment-verification-advanced',
    { uan: '100482190612', employee_name: 'Rohan Deshmukh' },
  ],
];

describe('KYC vendor adapter: corporate and verification searches', () => {
  const providers = () => kycProviders({ baseUrl: `${upstream.url}/api/v1`, token: 'kyc-test-token' });
  const signal = () => AbortSignal.timeout(5000);

  it('has a provider for every intel kind, each answering only its kind', () => {
    const intel = providers().filter((p) => p.source.includes(':'));
    expect(intel.map((p) => p.source).sort()).toEqual(CALLS.map(([kind]) => kind).sort());
    for (const p of intel)
      expect(p).toMatchObject({ kinds: [p.source], sandbox: false, id: `kyc:${p.source}` });
  });

  it.each(CALLS)(
    '%s posts the vendor fields with the bearer token and passes the envelope through',
    async (kind, params, path, body) => {
      const answer = envelope({ echoed: kind });
      upstream.setHandler((_req, res) => sendJson(res, 200, answer));
      const before = upstream.requests.length;
      const provider = providers().find((p) => p.source === kind)!;
      expect(await provider.fetch({ kind, value: 'canonical', params }, signal())).toEqual(answer);
      const req = upstream.requests[before] as RecordedRequest;
      expect(req.method).toBe('POST');
      expect(req.url).toBe(path);
      expect(req.headers.authorization).toBe('Bearer kyc-test-token');
      expect(req.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req.body)).toEqual(body);
    },
  );

  it('passes 404 and 422 envelopes through as answers, and fails on 401, 429, 5xx and junk', async () => {
    const provider = providers().find((p) => p.source === 'verification:pan')!;
    const query = { kind: 'verification:pan' as const, value: 'pan=X', params: { pan: 'BQZPD4821K' } };
    for (const status of [404, 422]) {
      upstream.setHandler((_req, res) => sendJson(res, status, notFound));
      expect(await provider.fetch(query, signal())).toEqual(notFound);
    }
    for (const status of [401, 403, 429, 500, 503]) {
      upstream.setHandler((_req, res) => sendJson(res, status, { message: 'nope' }));
      await expect(provider.fetch(query, signal())).rejects.toBeInstanceOf(SourceFailedError);
    }
    upstream.setHandler((_req, res) => sendJson(res, 200, '<html>gateway</html>'));
    await expect(provider.fetch(query, signal())).rejects.toBeInstanceOf(SourceFailedError);
  });
});

describe('the server with the KYC vendor configured', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMIT_ENABLED: 'false',
        KYC_BASE_URL: `${upstream.url}/api/v1`,
        KYC_TOKEN: 'kyc-test-token',
      },
    });
    const user = await createUser(t.db, { credits: 20, appMode: 'live' });
    const { token } = await signIn(t, user.email, user.password);
    auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    userId = user.id;
  });
  afterAll(() => t.close());

  const verify = (data: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/verification-id',
      payload: JSON.stringify({ type: 'pan', data }),
      headers: auth,
    });
  const ledger = () => t.db.select().from(creditEntries).where(eq(creditEntries.userId, userId));

  it('answers the vendor record as data, not sandbox', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(res, 200, envelope({ pan_number: 'BQZPD4821K', full_name: 'A SYNTHETIC NAME' })),
    );
    const res = await verify({ pan: 'BQZPD4821K' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { full_name: 'A SYNTHETIC NAME' },
      credits: 19,
      sandbox: false,
    });
  });

  it.each([
    ['a 422 envelope', 422, notFound],
    ['a 404 envelope', 404, { ...notFound, status_code: 404 }],
    [
      'a 200 with success false',
      200,
      { data: null, status_code: 200, success: false, message: 'Invalid PAN' },
    ],
  ])('reads %s as no record: 422, refunded', async (_, status, body) => {
    upstream.setHandler((_req, res) => sendJson(res, status, body));
    const before = (await ledger()).length;
    const balance = (await ledger()).reduce((sum, e) => sum + e.delta, 0);
    const res = await verify({ pan: 'BQZPD4821K' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: messages.intel.noRecord, credits: balance });
    expect((await ledger()).slice(before).map((e) => e.kind)).toEqual(['charge', 'refund']);
  });

  it('answers 502 and refunds when the vendor fails', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 503, { message: 'maintenance' }));
    const balance = (await ledger()).reduce((sum, e) => sum + e.delta, 0);
    const res = await verify({ pan: 'BQZPD4821K' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ message: messages.intel.upstreamFailed, credits: balance });
    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, res.json().lookup_id));
    expect(row).toMatchObject({ status: 'refunded', kind: 'verification:pan' });
    expect(row!.sourceErrors).toEqual({ 'verification:pan': 'Source failed to answer.' });
  });

  it('draws the credit report from the vendor record, without the sandbox banner', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(
        res,
        200,
        envelope({
          pan: 'BQZPD4821K',
          credit_score: '702',
          credit_report: {
            score: { score: 702, range: '300-900' },
            accounts: [
              {
                member_name: 'SYNTHETIC BANK',
                account_type: 'Credit Card',
                current_balance: 1200,
                date_closed: '1800-01-01',
              },
            ],
          },
          credit_report_link: 'https://vendor.example.test/report.pdf',
        }),
      ),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/corporate-intelligence',
      payload: JSON.stringify({
        type: 'credit_report',
        data: { mobile: '9876543210', pan: 'BQZPD4821K', name: 'Rohan', gender: 'male', consent: 'Y' },
      }),
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('702');
    expect(text).toContain('SYNTHETIC BANK');
    expect(text).not.toContain('Sandbox data');
  });
});
