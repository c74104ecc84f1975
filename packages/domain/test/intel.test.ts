import { describe, expect, it } from 'vitest';
import {
  CORPORATE_TYPE_KEYS,
  cleanTypedQuery,
  corporateTypes,
  EMPLOYMENT_COMBINATIONS,
  filterIntelLines,
  findIntelType,
  flattenIntelResult,
  type IntelType,
  initialIntelValues,
  intelExample,
  intelFieldErrors,
  intelKindOf,
  intelQueryText,
  intelTypedText,
  isIsoDate,
  leakTypedText,
  messages,
  normalizeIntelData,
  parseIntelRequest,
  QUERY_TYPED_MAX,
  toIntelRequestData,
  VERIFICATION_TYPE_KEYS,
  validateIntel,
  verificationTypes,
} from '../src/index.ts';

const type = (area: 'corporate' | 'verification', key: string): IntelType => {
  const found = findIntelType(area, key);
  if (!found) throw new Error(`no type ${key}`);
  return found;
};

/** A valid value for every field of a type, as the browser's form holds it. */
const VALID: Record<string, Record<string, string | boolean>> = {
  corporate_gstin: {
    id_number: '27ABCDE1234F1Z5',
    year: '2024',
    filing_status: true,
    hsn_info: false,
    filing_frequency: true,
    address: true,
  },
  credit_report: {
    mobile: '9876543210',
    pan: 'BQZPD4821K',
    name: 'Rohan Deshmukh',
    gender: 'male',
    consent: true,
  },
  corporate_cin: { id_number: 'U72200MH2015PTC123456' },
  gst_intel: { id_number: '27ABCDE1234F1Z5', filing_status: true, hsn_info: true, filing_frequency: false },
  employment_history: { id_number: '100482190612' },
  find_uan: { mobile_number: '9876543210' },
  pan_to_uan: { pan_number: 'BQZPD4821K' },
  pan: { pan: 'BQZPD4821K', name: 'Rohan' },
  driving_license: { dl_number: 'MH1220110048219', dob: '1990-04-17' },
  voter_id: { epic_number: 'KTW4821906', name: '' },
  passport: { file_number: 'PN4821906', name: '', dob: '1990-04-17' },
  bank_account: { account_number: '50100482190612', ifsc: 'KCBX0PUN482', name: '', phone: '' },
  ifsc: { ifsc: 'KCBX0PUN482' },
  vehicle_rc: { vehicle_number: 'MH12FP1234' },
  employment: { phone: '9876543210', pan: '', uan: '', dob: '', employee_name: '', employer_name: '' },
};

describe('field definitions (spec §2.7, §2.8)', () => {
  it('lists the seven corporate and eight verification types in the spec order', () => {
    expect(corporateTypes.map((t) => t.type)).toEqual([...CORPORATE_TYPE_KEYS]);
    expect(verificationTypes.map((t) => t.type)).toEqual([...VERIFICATION_TYPE_KEYS]);
    expect(corporateTypes.every((t) => t.area === 'corporate')).toBe(true);
    expect(verificationTypes.every((t) => t.area === 'verification')).toBe(true);
  });

  it('has the spec fields of every type', () => {
    const names = (list: readonly IntelType[]) =>
      Object.fromEntries(list.map((t) => [t.type, t.fields.map((f) => f.name)]));
    expect(names(corporateTypes)).toEqual({
      corporate_gstin: ['id_number', 'year', 'filing_status', 'hsn_info', 'filing_frequency', 'address'],
      credit_report: ['mobile', 'pan', 'name', 'gender', 'consent'],
      corporate_cin: ['id_number'],
      gst_intel: ['id_number', 'filing_status', 'hsn_info', 'filing_frequency'],
      employment_history: ['id_number'],
      find_uan: ['mobile_number'],
      pan_to_uan: ['pan_number'],
    });
    expect(names(verificationTypes)).toEqual({
      pan: ['pan', 'name'],
      driving_license: ['dl_number', 'dob'],
      voter_id: ['epic_number', 'name'],
      passport: ['file_number', 'name', 'dob'],
      bank_account: ['account_number', 'ifsc', 'name', 'phone'],
      ifsc: ['ifsc'],
      vehicle_rc: ['vehicle_number'],
      employment: ['phone', 'pan', 'uan', 'dob', 'employee_name', 'employer_name'],
    });
  });

  it('marks exactly the spec optional fields, with kinds, options and defaults', () => {
    const optional = verificationTypes.flatMap((t) =>
      t.fields.filter((f) => f.optional).map((f) => `${t.type}.${f.name}`),
    );
    expect(optional).toEqual([
      'pan.name',
      'voter_id.name',
      'passport.name',
      'bank_account.name',
      'bank_account.phone',
    ]);
    expect(corporateTypes.flatMap((t) => t.fields.filter((f) => f.optional))).toEqual([]);

    const gstin = type('corporate', 'corporate_gstin');
    const year = gstin.fields.find((f) => f.name === 'year')!;
    expect(year.kind).toBe('year');
    expect(year.options?.map((o) => o.value)).toEqual(['2024', '2023', '2022', '2021']);
    expect(year.default).toBe('2024');
    expect(gstin.fields.find((f) => f.name === 'address')!.label).toBe('Split Address');
    expect(gstin.fields.filter((f) => f.kind === 'checkbox').map((f) => f.default)).toEqual([
      false,
      false,
      false,
      false,
    ]);

    const credit = type('corporate', 'credit_report');
    expect(credit.fields.map((f) => f.kind)).toEqual(['mobile', 'pan', 'text', 'gender', 'consent']);
    expect(credit.fields.find((f) => f.kind === 'gender')!.options?.map((o) => o.value)).toEqual([
      'male',
      'female',
    ]);
    expect(type('verification', 'driving_license').fields[1]!.kind).toBe('date');
    expect(type('verification', 'employment').fields.map((f) => f.kind)).toEqual([
      'mobile',
      'pan',
      'text',
      'date',
      'text',
      'text',
    ]);
  });

  it('has the spec buttons and overlays; only the credit report returns a PDF and sends Y/N', () => {
    for (const t of corporateTypes) {
      const pdf = t.type === 'credit_report';
      expect(t.submitLabel).toBe(pdf ? 'Download Report' : 'Search');
      expect(t.overlay).toBe(pdf ? 'Generating PDF...' : 'Searching...');
      expect(t.returnsPdf).toBe(pdf);
      expect(t.checkboxWire).toBe(pdf ? 'yn' : 'boolean');
    }
    for (const t of verificationTypes) {
      expect([t.submitLabel, t.overlay, t.returnsPdf]).toEqual(['Verify', 'Searching...', false]);
    }
  });

  it('finds types only in their own area, and names their query kinds', () => {
    expect(findIntelType('corporate', 'pan')).toBeUndefined();
    expect(findIntelType('verification', 'corporate_gstin')).toBeUndefined();
    expect(findIntelType('corporate', 'nope')).toBeUndefined();
    expect(intelKindOf(type('corporate', 'gst_intel'))).toBe('corporate:gst_intel');
    expect(intelKindOf(type('verification', 'pan'))).toBe('verification:pan');
  });

  it('starts forms with the defaults, empty text and unticked boxes', () => {
    expect(initialIntelValues(type('corporate', 'corporate_gstin'))).toEqual({
      id_number: '',
      year: '2024',
      filing_status: false,
      hsn_info: false,
      filing_frequency: false,
      address: false,
    });
    expect(initialIntelValues(type('corporate', 'credit_report'))).toEqual({
      mobile: '',
      pan: '',
      name: '',
      gender: '',
      consent: false,
    });
  });
});

describe('validateIntel (spec §5)', () => {
  it.each([...corporateTypes, ...verificationTypes].map((t) => [t.area, t.type] as const))(
    '%s %s: a complete form is valid, as form values and as sent',
    (area, key) => {
      const t = type(area, key);
      const values = VALID[key]!;
      expect(validateIntel(t, values)).toBeNull();
      expect(validateIntel(t, toIntelRequestData(t, values))).toBeNull();
    },
  );

  it.each(
    [...corporateTypes, ...verificationTypes].flatMap((t) =>
      t.fields
        .filter((f) => !f.optional && !t.combinations && !['checkbox', 'consent'].includes(f.kind))
        .map((f) => [t.type, f.name, f.label] as const),
    ),
  )('%s: an empty %s answers "{label} is required."', (key, field, label) => {
    const t = findIntelType('corporate', key) ?? findIntelType('verification', key)!;
    for (const empty of ['', '   ', undefined, null]) {
      expect(validateIntel(t, { ...VALID[key], [field]: empty })).toBe(`${label} is required.`);
    }
  });

  it('words required messages with the labels', () => {
    const gstin = type('corporate', 'corporate_gstin');
    expect(validateIntel(gstin, { ...VALID.corporate_gstin, id_number: '' })).toBe('GSTIN is required.');
    expect(validateIntel(gstin, { ...VALID.corporate_gstin, year: '' })).toBe('Financial Year is required.');
    const credit = type('corporate', 'credit_report');
    expect(validateIntel(credit, { ...VALID.credit_report, gender: '' })).toBe('Gender is required.');
    expect(validateIntel(credit, { ...VALID.credit_report, name: '' })).toBe('Name is required.');
    expect(validateIntel(type('verification', 'driving_license'), { dl_number: 'X1', dob: '' })).toBe(
      'Date of Birth is required.',
    );
  });

  it('lets optional fields be empty or absent', () => {
    const bank = type('verification', 'bank_account');
    expect(validateIntel(bank, { account_number: '1234567', ifsc: 'KCBX0PUN482' })).toBeNull();
    expect(validateIntel(type('verification', 'pan'), { pan: 'BQZPD4821K' })).toBeNull();
  });

  describe('mobile numbers', () => {
    const cases: Array<[string, string | null]> = [
      ['98765a4321', messages.intel.mobileDigits],
      ['+919876543210', messages.intel.mobileDigits],
      ['98765 43210', messages.intel.mobileDigits],
      ['123456', messages.intel.mobileLength],
      ['1234567', null],
      ['123456789012', null],
      ['1234567890123', messages.intel.mobileLength],
    ];
    it.each(cases)('credit report mobile %s', (mobile, message) => {
      expect(validateIntel(type('corporate', 'credit_report'), { ...VALID.credit_report, mobile })).toBe(
        message,
      );
    });
    it.each(cases)('find UAN mobile_number %s', (mobile_number, message) => {
      expect(validateIntel(type('corporate', 'find_uan'), { mobile_number })).toBe(message);
    });
    it.each(cases)('optional bank phone %s', (phone, message) => {
      expect(validateIntel(type('verification', 'bank_account'), { ...VALID.bank_account, phone })).toBe(
        message,
      );
    });
    it.each(cases)('employment phone %s', (phone, message) => {
      expect(validateIntel(type('verification', 'employment'), { phone })).toBe(message);
    });
    it('has the spec wording', () => {
      expect(messages.intel.mobileDigits).toBe('Mobile number must contain only digits.');
      expect(messages.intel.mobileLength).toBe('Mobile number must be between 7 and 12 digits.');
    });
  });

  describe('PAN format', () => {
    const cases: Array<[string, string | null]> = [
      ['BQZPD4821K', null],
      ['bqzpd4821k', 'Invalid PAN format.'],
      ['BQZPd4821K', 'Invalid PAN format.'],
      ['BQZP4821K', 'Invalid PAN format.'],
      ['BQZPD48211', 'Invalid PAN format.'],
      ['BQZPD4821KK', 'Invalid PAN format.'],
      ['12345ABCDE', 'Invalid PAN format.'],
    ];
    it.each(cases)('credit report pan %s', (pan, message) => {
      expect(validateIntel(type('corporate', 'credit_report'), { ...VALID.credit_report, pan })).toBe(
        message,
      );
    });
    it.each(cases)('pan_to_uan pan_number %s', (pan_number, message) => {
      expect(validateIntel(type('corporate', 'pan_to_uan'), { pan_number })).toBe(message);
    });
    it.each(cases)('verification pan %s', (pan, message) => {
      expect(validateIntel(type('verification', 'pan'), { pan })).toBe(message);
    });
    it.each(cases)('employment pan %s (with a phone)', (pan, message) => {
      expect(validateIntel(type('verification', 'employment'), { phone: '9876543210', pan })).toBe(message);
    });
  });

  describe('consent', () => {
    const credit = type('corporate', 'credit_report');
    it.each([
      [true, null],
      ['Y', null],
      [false, messages.intel.consent],
      ['N', messages.intel.consent],
      [undefined, messages.intel.consent],
      ['yes', messages.intel.consent],
      [1, messages.intel.consent],
    ])('consent %s', (consent, message) => {
      expect(validateIntel(credit, { ...VALID.credit_report, consent })).toBe(message);
    });
    it('has the spec wording', () => {
      expect(messages.intel.consent).toBe('You must consent to fetch your credit report.');
    });
  });

  describe('employment combinations', () => {
    const employment = type('verification', 'employment');
    const sample: Record<string, string> = {
      phone: '9876543210',
      pan: 'BQZPD4821K',
      uan: '100482190612',
      dob: '1990-04-17',
      employee_name: 'Rohan Deshmukh',
      employer_name: 'Nimbuslane Technologies Pvt Ltd',
    };
    const fill = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, sample[n]!]));

    it('lists the twelve combinations of the spec', () => {
      expect(EMPLOYMENT_COMBINATIONS.map((c) => c.join('+'))).toEqual([
        'phone',
        'uan',
        'phone+pan',
        'phone+dob+employer_name',
        'phone+employee_name+employer_name',
        'phone+dob+employee_name+employer_name',
        'phone+pan+employee_name+employer_name',
        'phone+dob+pan+employee_name+employer_name',
        'uan+employee_name+employer_name',
        'uan+employee_name',
        'dob+employee_name',
        'dob+employee_name+employer_name',
      ]);
    });

    it.each(EMPLOYMENT_COMBINATIONS.map((c) => [c.join(' + '), c] as const))('accepts %s', (_, combo) => {
      expect(validateIntel(employment, fill(combo))).toBeNull();
      // Empty strings for the other fields, as the form holds them, change nothing.
      expect(validateIntel(employment, { ...initialIntelValues(employment), ...fill(combo) })).toBeNull();
    });

    it.each([
      [[]],
      [['pan']],
      [['dob']],
      [['employee_name']],
      [['employer_name']],
      [['pan', 'dob']],
      [['pan', 'employee_name', 'employer_name']],
      [['dob', 'employer_name']],
      [['uan', 'employer_name'].slice(1)],
      [['pan', 'dob', 'employer_name']],
    ])('refuses %j with the spec message', (names) => {
      expect(validateIntel(employment, fill(names))).toBe(
        'Please fill all fields for at least one valid combination (e.g. phone + pan, uan + name, etc).',
      );
    });

    it('checks the format of filled fields before the combination', () => {
      expect(validateIntel(employment, { pan: 'bqzpd4821k' })).toBe('Invalid PAN format.');
      expect(validateIntel(employment, { dob: '17-04-1990', employee_name: 'R' })).toBe(
        'Date of Birth must be a date (YYYY-MM-DD).',
      );
    });
  });

  describe('bad input the spec does not word', () => {
    it('refuses fields of another type, and unknown fields', () => {
      expect(validateIntel(type('verification', 'pan'), { pan: 'BQZPD4821K', dl_number: 'X' })).toBe(
        "'dl_number' is not a field of PAN.",
      );
      expect(validateIntel(type('corporate', 'corporate_cin'), { id_number: 'U1', year: '2024' })).toBe(
        "'year' is not a field of Company Details (CIN).",
      );
    });

    it('refuses arrays, numbers and objects where strings belong', () => {
      const cin = type('corporate', 'corporate_cin');
      expect(validateIntel(cin, { id_number: ['U72200MH2015PTC123456'] })).toBe('CIN must be text.');
      expect(validateIntel(cin, { id_number: { a: 1 } })).toBe('CIN must be text.');
      expect(validateIntel(type('corporate', 'find_uan'), { mobile_number: 9876543210 })).toBe(
        'Mobile Number must be text.',
      );
    });

    it('refuses checkboxes that are not booleans (Y/N only for the credit report)', () => {
      const gst = type('corporate', 'gst_intel');
      expect(validateIntel(gst, { ...VALID.gst_intel, hsn_info: 'Y' })).toBe(
        'HSN Info must be true or false.',
      );
      expect(validateIntel(gst, { ...VALID.gst_intel, filing_status: 'true' })).toBe(
        'Filing Status must be true or false.',
      );
      expect(validateIntel(gst, { id_number: '27ABCDE1234F1Z5' })).toBeNull();
    });

    it('refuses dates that are not dates', () => {
      const dl = type('verification', 'driving_license');
      for (const dob of ['17-04-1990', '1990-02-30', '1990-13-01', 'yesterday', '1990-4-7', '1799-12-31']) {
        expect(validateIntel(dl, { dl_number: 'MH1220110048219', dob }), dob).toBe(
          'Date of Birth must be a date (YYYY-MM-DD).',
        );
      }
      expect(isIsoDate('2024-02-29')).toBe(true);
      expect(isIsoDate('2023-02-29')).toBe(false);
    });

    it('refuses a year or gender outside the options', () => {
      expect(
        validateIntel(type('corporate', 'corporate_gstin'), { ...VALID.corporate_gstin, year: '2020' }),
      ).toBe('Financial Year must be one of 2024, 2023, 2022, 2021.');
      expect(
        validateIntel(type('corporate', 'credit_report'), { ...VALID.credit_report, gender: 'other' }),
      ).toBe('Gender must be one of male, female.');
    });

    it('refuses over-long values and control characters', () => {
      const gstin = type('corporate', 'corporate_gstin');
      expect(validateIntel(gstin, { ...VALID.corporate_gstin, id_number: '27ABCDE1234F1Z5X' })).toBe(
        'GSTIN must not be longer than 15 characters.',
      );
      expect(validateIntel(type('verification', 'pan'), { pan: 'BQZPD4821K', name: 'x'.repeat(101) })).toBe(
        'Name must not be longer than 100 characters.',
      );
      expect(validateIntel(type('verification', 'ifsc'), { ifsc: 'KCBX\u00000PUN' })).toBe(
        'IFSC contains characters that are not allowed.',
      );
    });
  });
});

describe('request data', () => {
  it('trims, drops empty optional fields and sends booleans', () => {
    const bank = type('verification', 'bank_account');
    expect(
      toIntelRequestData(bank, { account_number: ' 5010 ', ifsc: 'KCBX0PUN482', name: '  ', phone: '' }),
    ).toEqual({ account_number: '5010', ifsc: 'KCBX0PUN482' });
    expect(toIntelRequestData(type('corporate', 'corporate_gstin'), VALID.corporate_gstin!)).toEqual(
      VALID.corporate_gstin,
    );
  });

  it("sends the credit report's checkboxes as 'Y'/'N'", () => {
    const credit = type('corporate', 'credit_report');
    expect(toIntelRequestData(credit, VALID.credit_report!)).toEqual({
      ...VALID.credit_report,
      consent: 'Y',
    });
    expect(toIntelRequestData(credit, { ...VALID.credit_report, consent: false }).consent).toBe('N');
  });

  it('drops empty employment fields', () => {
    const employment = type('verification', 'employment');
    expect(
      toIntelRequestData(employment, { ...initialIntelValues(employment), uan: ' 100482190612 ' }),
    ).toEqual({
      uan: '100482190612',
    });
  });

  it('normalizes on the server: booleans, trimmed strings, canonical query text', () => {
    const credit = type('corporate', 'credit_report');
    const data = normalizeIntelData(credit, { ...VALID.credit_report, name: ' Rohan ', consent: 'Y' });
    expect(data).toEqual({ ...VALID.credit_report, name: 'Rohan', consent: true });
    const gstin = type('corporate', 'corporate_gstin');
    expect(
      intelQueryText(
        gstin,
        normalizeIntelData(gstin, { id_number: '27ABCDE1234F1Z5', year: '2023', hsn_info: true }),
      ),
    ).toBe('id_number=27ABCDE1234F1Z5&year=2023&hsn_info=true');
  });

  it('parses the request envelope with 400-ready messages', () => {
    expect(parseIntelRequest({ type: 'pan', data: { pan: 'X' } })).toEqual({
      ok: true,
      request: { type: 'pan', data: { pan: 'X' }, legal_basis: null },
    });
    expect(parseIntelRequest({ type: 'pan', data: {}, case_reference: '  FIR 1/2025 ' })).toMatchObject({
      ok: true,
      request: { case_reference: 'FIR 1/2025' },
    });
    expect(parseIntelRequest({ type: 'pan', data: {}, case_reference: '   ' })).toMatchObject({
      ok: true,
      request: { case_reference: undefined },
    });
    // Each refusal names its field in `errors`, as every other form's answer does.
    const refused = (field: string, message: string) => ({
      ok: false,
      message,
      errors: { [field]: [message] },
    });
    expect(parseIntelRequest({ data: {} })).toEqual(refused('type', messages.intel.missingType));
    expect(parseIntelRequest({ type: '', data: {} })).toEqual(refused('type', messages.intel.missingType));
    expect(parseIntelRequest({ type: 'pan' })).toEqual(refused('data', messages.intel.badData));
    expect(parseIntelRequest({ type: 'pan', data: ['x'] })).toEqual(refused('data', messages.intel.badData));
    expect(parseIntelRequest({ type: 'pan', data: {}, extra: 1 })).toEqual(
      refused('extra', "'extra' is not part of a search request."),
    );
    expect(parseIntelRequest({ type: 'pan', data: {}, case_reference: 'x'.repeat(101) })).toEqual(
      refused('case_reference', messages.caseReference.tooLong),
    );
    expect(parseIntelRequest([])).toEqual(refused('body', messages.intel.badBody));
  });
});

describe('flattenIntelResult (spec §2.7)', () => {
  it('labels by the last key segment with underscores as spaces', () => {
    expect(
      flattenIntelResult({
        legal_name: 'ACME',
        address: { city_name: 'Pune', pincode: 411038 },
        active: true,
      }),
    ).toEqual([
      { path: 'legal_name', label: 'legal name', value: 'ACME' },
      { path: 'address.city_name', label: 'city name', value: 'Pune' },
      { path: 'address.pincode', label: 'pincode', value: '411038' },
      { path: 'active', label: 'active', value: 'Yes' },
    ]);
  });

  it("hides null, empty, 'N/A', '-', the 1800-01-01 sentinel and the vendor request id", () => {
    expect(
      flattenIntelResult({
        client_id: 'corporate_gstin_abc',
        a: null,
        b: '',
        c: '  ',
        d: 'N/A',
        e: 'n/a',
        f: '-',
        g: '1800-01-01',
        h: '01-01-1800',
        i: 'kept',
        j: [],
        k: {},
        l: ['N/A', '-'],
        m: 0,
        n: false,
      }),
    ).toEqual([
      { path: 'i', label: 'i', value: 'kept' },
      { path: 'm', label: 'm', value: '0' },
      { path: 'n', label: 'n', value: 'No' },
    ]);
  });

  it('joins arrays of scalars with commas, leaving hidden entries out', () => {
    expect(
      flattenIntelResult({ nature_bus_activities: ['Retail Business', 'N/A', 'Office / Sale Office'] }),
    ).toEqual([
      {
        path: 'nature_bus_activities',
        label: 'nature bus activities',
        value: 'Retail Business, Office / Sale Office',
      },
    ]);
  });

  it('indexes arrays of objects, nested arrays with dotted positions', () => {
    const lines = flattenIntelResult({
      directors: [
        { name: 'A', din: '0001', end_date: '1800-01-01' },
        { name: 'B', address: { city: 'Pune' } },
      ],
      filing_status: [
        [
          { fy: '2024-2025', status: 'Filed' },
          { fy: '2024-2025', status: '-' },
        ],
      ],
    });
    expect(lines.map((l) => [l.path, l.label, l.value])).toEqual([
      ['directors[0].name', 'directors 1 name', 'A'],
      ['directors[0].din', 'directors 1 din', '0001'],
      ['directors[1].name', 'directors 2 name', 'B'],
      ['directors[1].address.city', 'directors 2 city', 'Pune'],
      ['filing_status[0][0].fy', 'filing status 1.1 fy', '2024-2025'],
      ['filing_status[0][0].status', 'filing status 1.1 status', 'Filed'],
      ['filing_status[0][1].fy', 'filing status 1.2 fy', '2024-2025'],
    ]);
    expect(new Set(lines.map((l) => l.path)).size).toBe(lines.length);
  });

  it('answers nothing for nothing, and survives odd shapes', () => {
    expect(flattenIntelResult(null)).toEqual([]);
    expect(flattenIntelResult({})).toEqual([]);
    expect(flattenIntelResult('x')).toEqual([{ path: '', label: 'value', value: 'x' }]);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 50; i++) deep = { level: deep };
    expect(flattenIntelResult(deep)).toEqual([]);
    expect(flattenIntelResult({ list: Array.from({ length: 6000 }, (_, i) => ({ i })) })).toHaveLength(5000);
  });

  it('filters lines by label or value, any case', () => {
    const lines = flattenIntelResult({ legal_name: 'ACME Traders', state: 'Maharashtra', gstin: '27ABC' });
    expect(filterIntelLines(lines, 'acme').map((l) => l.path)).toEqual(['legal_name']);
    expect(filterIntelLines(lines, 'STATE').map((l) => l.path)).toEqual(['state']);
    expect(filterIntelLines(lines, '  ')).toEqual(lines);
    expect(filterIntelLines(lines, 'zzz')).toEqual([]);
  });
});

describe('spec texts of the intel screens', () => {
  it.each([
    [messages.intel.required('GSTIN'), 'GSTIN is required.'],
    [messages.intel.invalidPan, 'Invalid PAN format.'],
    [messages.intel.search, 'Search'],
    [messages.intel.downloadReport, 'Download Report'],
    [messages.intel.verify, 'Verify'],
    [messages.intel.generatingPdf, 'Generating PDF...'],
    [messages.intel.searching, 'Searching...'],
    [messages.intel.optional, 'Optional'],
    [messages.intel.labels.splitAddress, 'Split Address'],
  ])('%s', (actual, fromSpec) => {
    expect(actual).toBe(fromSpec);
  });
});

describe('intelTypedText', () => {
  it('renders the filled fields as labels and values, dates readable, unticked boxes left out', () => {
    const dl = findIntelType('verification', 'driving_license')!;
    expect(intelTypedText(dl, { dl_number: ' MH1220110048219 ', dob: '1990-01-01' })).toBe(
      'Driving License Number: MH1220110048219 · Date of Birth: 01 Jan 1990',
    );
    const gst = findIntelType('corporate', 'corporate_gstin')!;
    const text = intelTypedText(gst, {
      id_number: '27AADCN4821K1ZC',
      year: '2024',
      filing_status: true,
      hsn_info: false,
    });
    expect(text).toContain('27AADCN4821K1ZC');
    expect(text).toContain('2024');
    expect(text).not.toContain('=');
    expect(text).not.toContain('&');
  });
});

describe('cleanTypedQuery', () => {
  it('removes control characters and NUL, keeps case and inner spacing, and caps the length', () => {
    expect(cleanTypedQuery('  Rohan\u0000 \u0007Deshmukh\n', 'x')).toBe('Rohan Deshmukh');
    expect(cleanTypedQuery('a\u202eb\u200bc', 'x')).toBe('abc');
    expect(Array.from(cleanTypedQuery('x'.repeat(QUERY_TYPED_MAX * 2), 'y'))).toHaveLength(QUERY_TYPED_MAX);
    expect(cleanTypedQuery(42, 'fallback')).toBe('fallback');
    expect(cleanTypedQuery('\u0000', 'fallback')).toBe('fallback');
  });

  it('renders a leak search as its rows typed', () => {
    expect(
      leakTypedText([
        { type: 'name', value: ' Rohan Deshmukh ' },
        { type: 'email', value: 'R@Example.com' },
      ]),
    ).toBe('Name: Rohan Deshmukh · Email: R@Example.com');
  });
});

describe('per-field errors and the documented examples', () => {
  const types = [...corporateTypes, ...verificationTypes];

  it('names every broken field under data.<name>, its first message the one validateIntel answers', () => {
    const gstin = findIntelType('corporate', 'corporate_gstin')!;
    const values = { id_number: '', year: '2019', extra: 1 };
    expect(intelFieldErrors(gstin, values)).toEqual({
      'data.extra': [messages.intel.unknownField('extra', gstin.label)],
      'data.id_number': ['GSTIN is required.'],
      'data.year': ['Financial Year must be one of 2024, 2023, 2022, 2021.'],
    });
    expect(Object.values(intelFieldErrors(gstin, values))[0]?.[0]).toBe(validateIntel(gstin, values));
    const employment = findIntelType('verification', 'employment')!;
    expect(intelFieldErrors(employment, { pan: 'BQZPD4821K' })).toEqual({
      data: [messages.intel.combination],
    });
  });

  it.each(types.map((t) => [t.type, t] as const))('documents a valid example for %s', (_, t) => {
    const example = intelExample(t) as { type: string; data: Record<string, unknown> };
    expect(example.type).toBe(t.type);
    expect(validateIntel(t, example.data)).toBeNull();
    expect(intelFieldErrors(t, example.data)).toEqual({});
  });
});
