/**
 * The forms of Corporate Intelligence (spec §2.7) and Identity Intelligence (spec §2.8), as data: the
 * browser draws its dynamic form from these, and the browser and the server validate with them
 * (validate.ts), so the two can never disagree about a field.
 */
import type { CorporateTypeKey, IntelKind, VerificationTypeKey } from '../catalogue/kinds.ts';
import { messages } from '../messages.ts';

export type IntelArea = 'corporate' | 'verification';
export type IntelFieldKind = 'text' | 'mobile' | 'pan' | 'date' | 'year' | 'checkbox' | 'gender' | 'consent';

export interface IntelOption {
  value: string;
  label: string;
}

export interface IntelField {
  /** The key sent in `data` (the spec's names: id_number, year, filing_status, mobile, pan, ...). */
  name: string;
  /** Shown above the input; used in '{label} is required.'. */
  label: string;
  kind: IntelFieldKind;
  /** Shows the 'Optional' badge; the field is not required. */
  optional?: boolean;
  /** The year select (2024..2021) and the gender radio (male/female). */
  options?: readonly IntelOption[];
  /** The year defaults to '2024'; checkboxes to false. */
  default?: string | boolean;
  placeholder?: string;
  /** Longest accepted value of a text-like field (after trimming). */
  maxLength?: number;
}

export interface IntelType {
  area: IntelArea;
  /** The search key sent as `type`. */
  type: string;
  /** Shown in the type dropdown. */
  label: string;
  fields: readonly IntelField[];
  /** 'Search' | 'Download Report' | 'Verify'. */
  submitLabel: string;
  /** 'Searching...' | 'Generating PDF...'. */
  overlay: string;
  /** True only for credit_report: the answer is a PDF. */
  returnsPdf: boolean;
  /** How checkboxes travel in `data`: 'Y'/'N' for the credit report, booleans otherwise (spec §3). */
  checkboxWire: 'yn' | 'boolean';
  /**
   * When set (employment), no field is required on its own: the values must complete at least one of
   * these field combinations (spec §5).
   */
  combinations?: readonly (readonly string[])[];
}

/** Financial years offered (spec §9), newest first; the first is the default. */
export const INTEL_YEARS = ['2024', '2023', '2022', '2021'] as const;
export const INTEL_GENDERS = ['male', 'female'] as const;
/** Mobile numbers of the corporate and verification forms: 7 to 12 digits (spec §9). */
export const INTEL_MOBILE_MIN = 7;
export const INTEL_MOBILE_MAX = 12;
/** Longest accepted text value where a field sets no limit of its own. */
export const INTEL_TEXT_MAX = 100;

const L = messages.intel.labels;
const P = messages.intel.placeholders;

const text = (name: string, label: string, extra: Partial<IntelField> = {}): IntelField => ({
  name,
  label,
  kind: 'text',
  ...extra,
});
const checkbox = (name: string, label: string): IntelField => ({
  name,
  label,
  kind: 'checkbox',
  default: false,
});

const yearField: IntelField = {
  name: 'year',
  label: L.financialYear,
  kind: 'year',
  options: INTEL_YEARS.map((year) => ({ value: year, label: year })),
  default: INTEL_YEARS[0],
};
const genderField: IntelField = {
  name: 'gender',
  label: L.gender,
  kind: 'gender',
  options: [
    { value: 'male', label: L.male },
    { value: 'female', label: L.female },
  ],
};
const gstinField = text('id_number', L.gstin, { placeholder: P.gstin, maxLength: 15 });
const gstFlags = [
  checkbox('filing_status', L.filingStatus),
  checkbox('hsn_info', L.hsnInfo),
  checkbox('filing_frequency', L.filingFrequency),
];
const dob = (optional = false): IntelField => ({ name: 'dob', label: L.dob, kind: 'date', optional });
const optionalName: IntelField = text('name', L.name, { optional: true, placeholder: P.name });

const corporate = (type: CorporateTypeKey, fields: IntelField[], pdf = false): IntelType => ({
  area: 'corporate',
  type,
  label: messages.intel.typeLabels[type],
  fields,
  submitLabel: pdf ? messages.intel.downloadReport : messages.intel.search,
  overlay: pdf ? messages.intel.generatingPdf : messages.intel.searching,
  returnsPdf: pdf,
  checkboxWire: pdf ? 'yn' : 'boolean',
});

const verification = (
  type: VerificationTypeKey,
  fields: IntelField[],
  combinations?: readonly (readonly string[])[],
): IntelType => ({
  area: 'verification',
  type,
  label: messages.intel.typeLabels[type],
  fields,
  submitLabel: messages.intel.verify,
  overlay: messages.intel.searching,
  returnsPdf: false,
  checkboxWire: 'boolean',
  ...(combinations ? { combinations } : {}),
});

/** Spec §2.7, in the spec's order. */
export const corporateTypes: readonly IntelType[] = [
  corporate('corporate_gstin', [gstinField, yearField, ...gstFlags, checkbox('address', L.splitAddress)]),
  corporate(
    'credit_report',
    [
      { name: 'mobile', label: L.mobile, kind: 'mobile', placeholder: P.mobile },
      { name: 'pan', label: L.pan, kind: 'pan', placeholder: P.pan },
      text('name', L.name, { placeholder: P.name }),
      genderField,
      { name: 'consent', label: L.consent, kind: 'consent', default: false },
    ],
    true,
  ),
  corporate('corporate_cin', [text('id_number', L.cin, { placeholder: P.cin, maxLength: 21 })]),
  corporate('gst_intel', [gstinField, ...gstFlags]),
  corporate('employment_history', [text('id_number', L.uan, { placeholder: P.uan, maxLength: 12 })]),
  corporate('find_uan', [
    { name: 'mobile_number', label: L.mobileNumber, kind: 'mobile', placeholder: P.mobile },
  ]),
  corporate('pan_to_uan', [{ name: 'pan_number', label: L.panNumber, kind: 'pan', placeholder: P.pan }]),
];

/** The employment rule of spec §5: at least one of these must be complete. */
export const EMPLOYMENT_COMBINATIONS: readonly (readonly string[])[] = [
  ['phone'],
  ['uan'],
  ['phone', 'pan'],
  ['phone', 'dob', 'employer_name'],
  ['phone', 'employee_name', 'employer_name'],
  ['phone', 'dob', 'employee_name', 'employer_name'],
  ['phone', 'pan', 'employee_name', 'employer_name'],
  ['phone', 'dob', 'pan', 'employee_name', 'employer_name'],
  ['uan', 'employee_name', 'employer_name'],
  ['uan', 'employee_name'],
  ['dob', 'employee_name'],
  ['dob', 'employee_name', 'employer_name'],
];

/** Spec §2.8, in the spec's order. */
export const verificationTypes: readonly IntelType[] = [
  verification('pan', [{ name: 'pan', label: L.panNumber, kind: 'pan', placeholder: P.pan }, optionalName]),
  verification('driving_license', [
    text('dl_number', L.dlNumber, { placeholder: P.dlNumber, maxLength: 20 }),
    dob(),
  ]),
  verification('voter_id', [
    text('epic_number', L.epicNumber, { placeholder: P.epicNumber, maxLength: 20 }),
    optionalName,
  ]),
  verification('passport', [
    text('file_number', L.fileNumber, { placeholder: P.fileNumber, maxLength: 20 }),
    optionalName,
    dob(),
  ]),
  verification('bank_account', [
    text('account_number', L.accountNumber, { placeholder: P.accountNumber, maxLength: 20 }),
    text('ifsc', L.ifsc, { placeholder: P.ifsc, maxLength: 11 }),
    optionalName,
    { name: 'phone', label: L.phone, kind: 'mobile', optional: true, placeholder: P.mobile },
  ]),
  verification('ifsc', [text('ifsc', L.ifsc, { placeholder: P.ifsc, maxLength: 11 })]),
  verification('vehicle_rc', [
    text('vehicle_number', L.vehicleNumber, { placeholder: P.vehicleNumber, maxLength: 20 }),
  ]),
  verification(
    'employment',
    [
      { name: 'phone', label: L.phone, kind: 'mobile', placeholder: P.mobile },
      { name: 'pan', label: L.pan, kind: 'pan', placeholder: P.pan },
      text('uan', L.uan, { placeholder: P.uan, maxLength: 12 }),
      dob(),
      text('employee_name', L.employeeName),
      text('employer_name', L.employerName),
    ],
    EMPLOYMENT_COMBINATIONS,
  ),
];

export function findIntelType(area: IntelArea, type: string): IntelType | undefined {
  const list = area === 'corporate' ? corporateTypes : verificationTypes;
  return list.find((t) => t.type === type);
}

/** The query kind of a type: 'corporate:corporate_gstin', 'verification:pan', ... */
export const intelKindOf = (t: IntelType): IntelKind => `${t.area}:${t.type}` as IntelKind;

/** The form's starting values: defaults applied, other text fields '' and checkboxes false. */
export function initialIntelValues(t: IntelType): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const field of t.fields) {
    values[field.name] =
      field.default ?? (field.kind === 'checkbox' || field.kind === 'consent' ? false : '');
  }
  return values;
}
