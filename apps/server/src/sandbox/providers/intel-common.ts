/**
 * Shared pieces of the corporate and verification generators: the fixed demo identities, the
 * "does the registry know this id?" decision, Indian registry formats (GSTIN check digit, state
 * codes) and invented company names.
 */

import { hashFraction, type Rng } from '../random.ts';
import { CITIES, type City, COMPANY_NAME_WORDS, COMPANY_SECTOR_WORDS } from '../words.ts';
import { type Persona, personaFor } from './persona.ts';

/**
 * Fixed queries for demos, tests and screenshots. The rich ones belong to the rich demo persona
 * (Rohan Suresh Deshmukh, Pune) and his employer; the unknown ones answer 'no record' (HTTP 422).
 */
export const INTEL_DEMO = {
  /** Nimbuslane Technologies Private Limited, Pune: active, regular filer, HSN codes, 2 places of business. */
  gstin: '27AADCN4821K1ZC',
  /** Saffronleaf Analytics LLP: registration cancelled, filings stop at the cancellation. */
  gstinCancelled: '27AAGFS2619M1ZU',
  gstinUnknown: '29AAACZ0000Z1ZQ',
  /** Nimbuslane's company master data: 4 directors (one resigned), 3 charges (one satisfied). */
  cin: 'U72200MH2015PTC248219',
  cinUnknown: 'U00000KA2000PTC000000',
  pan: 'BQZPD4821K',
  panUnknown: 'ZZZPZ9999Z',
  mobile: '9876543210',
  mobileUnknown: '9000000000',
  /** Three employers; the current one has the 1800-01-01 'no exit' date. */
  uan: '100482190612',
  uanUnknown: '100000000000',
  drivingLicence: 'MH1220110048219',
  dob: '1990-04-17',
  voterId: 'KTW4821906',
  passportFile: 'PN1064821906217',
  accountNumber: '50100482190612',
  ifsc: 'KCBX0PUN482',
  ifscUnknown: 'ABCD0000000',
  vehicle: 'MH12FP1234',
  vehicleUnknown: 'KA01FP0000',
} as const;

export interface IntelDemoIdentity {
  kind: string;
  input: string;
  description: string;
}

/** For the README table and the sandbox tests. */
export const INTEL_DEMO_IDENTITIES: readonly IntelDemoIdentity[] = [
  {
    kind: 'corporate:corporate_gstin',
    input: INTEL_DEMO.gstin,
    description:
      'Nimbuslane Technologies Private Limited, Pune: active; with the boxes ticked, monthly GSTR-1/GSTR-3B filing status for the chosen year, HSN/SAC codes, quarterly/monthly filing frequency and a split address.',
  },
  {
    kind: 'corporate:corporate_gstin',
    input: INTEL_DEMO.gstinCancelled,
    description:
      'Saffronleaf Analytics LLP: registration cancelled (date of cancellation set, filings stop).',
  },
  {
    kind: 'corporate:corporate_gstin',
    input: INTEL_DEMO.gstinUnknown,
    description: 'No record (422, credits refunded). Also for GST Intelligence.',
  },
  {
    kind: 'corporate:gst_intel',
    input: INTEL_DEMO.gstin,
    description:
      'The advanced GSTIN answer for the current year: contact details, 2 additional places of business, e-invoice status.',
  },
  {
    kind: 'corporate:corporate_cin',
    input: INTEL_DEMO.cin,
    description:
      'Company master data: capital, AGM and balance-sheet dates, 4 directors (one resigned), 3 charges.',
  },
  { kind: 'corporate:corporate_cin', input: INTEL_DEMO.cinUnknown, description: 'No record (422).' },
  {
    kind: 'corporate:employment_history',
    input: INTEL_DEMO.uan,
    description: 'Three employers of the demo person; the current job has date_of_exit 1800-01-01 (hidden).',
  },
  { kind: 'corporate:employment_history', input: INTEL_DEMO.uanUnknown, description: 'No record (422).' },
  {
    kind: 'corporate:find_uan',
    input: INTEL_DEMO.mobile,
    description: `UAN ${INTEL_DEMO.uan}; mobile ${INTEL_DEMO.mobileUnknown} has none (422).`,
  },
  {
    kind: 'corporate:pan_to_uan',
    input: INTEL_DEMO.pan,
    description: `UAN ${INTEL_DEMO.uan}; PAN ${INTEL_DEMO.panUnknown} has none (422).`,
  },
  {
    kind: 'corporate:credit_report',
    input: `PAN ${INTEL_DEMO.pan}, mobile ${INTEL_DEMO.mobile}, any name and gender`,
    description: `A credit-report PDF: score, 5 accounts, enquiries, addresses. PAN ${INTEL_DEMO.panUnknown}: no credit history (422).`,
  },
  {
    kind: 'verification:pan',
    input: INTEL_DEMO.pan,
    description: `ROHAN SURESH DESHMUKH with address, masked Aadhaar, linked e-mail and phone; a name adds name_match. ${INTEL_DEMO.panUnknown}: no record.`,
  },
  {
    kind: 'verification:driving_license',
    input: `${INTEL_DEMO.drivingLicence}, DOB ${INTEL_DEMO.dob}`,
    description:
      'Licence with vehicle classes; no transport licence (1800-01-01 dates hidden). Another DOB: no record.',
  },
  { kind: 'verification:voter_id', input: INTEL_DEMO.voterId, description: 'Electoral roll entry in Pune.' },
  {
    kind: 'verification:passport',
    input: `${INTEL_DEMO.passportFile}, DOB ${INTEL_DEMO.dob}`,
    description: 'Passport application dispatched, passport Z4821906.',
  },
  {
    kind: 'verification:bank_account',
    input: `${INTEL_DEMO.accountNumber} / ${INTEL_DEMO.ifsc}`,
    description: 'Account exists, name at bank ROHAN SURESH DESHMUKH, branch details.',
  },
  {
    kind: 'verification:ifsc',
    input: INTEL_DEMO.ifsc,
    description: `Konkan Coastal Bank, Baner branch, Pune. ${INTEL_DEMO.ifscUnknown}: no record.`,
  },
  {
    kind: 'verification:vehicle_rc',
    input: INTEL_DEMO.vehicle,
    description: `The RC details of the results-page modal; ${INTEL_DEMO.vehicleUnknown}: no record.`,
  },
  {
    kind: 'verification:employment',
    input: `phone ${INTEL_DEMO.mobile} (or UAN ${INTEL_DEMO.uan})`,
    description: 'Current employment at Nimbuslane Technologies, employer details and match flags.',
  },
];

/** Whether the registry lacks an id it was asked about: `rate` of ids, drawn from a hash. */
export function registryLacks(kind: string, id: string, rate: number): boolean {
  return hashFraction(`intel-known:${kind}:${id}`) < rate;
}

// ---------- GSTIN ----------

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The GSTIN check character (the 15th) of the first 14. */
export function gstinCheckChar(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const value = BASE36.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(value / 36) + (value % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36]!;
}

export const GSTIN_PATTERN = /^(\d{2})([A-Z]{5}\d{4}[A-Z])([1-9A-Z])Z([0-9A-Z])$/;
export const CIN_PATTERN = /^([LU])(\d{5})([A-Z]{2})(\d{4})([A-Z]{3})(\d{6})$/;
export const PAN_SHAPE = /^[A-Z]{3}([PCFHATBLJG])([A-Z])\d{4}[A-Z]$/;

/** GST state codes of the catalogue's states. */
export const GST_STATE_CODES: Record<string, string> = {
  MH: '27',
  KA: '29',
  DL: '07',
  TN: '33',
  TS: '36',
  WB: '19',
  GJ: '24',
  RJ: '08',
  UP: '09',
  KL: '32',
  MP: '23',
  CH: '04',
  OD: '21',
  BR: '10',
  AS: '18',
};

/** A city of the state a GST code or a two-letter state code names, else one drawn from the rng. */
export function cityOfState(rng: Rng, code: string): City {
  const stateCode = /^\d{2}$/.test(code)
    ? Object.entries(GST_STATE_CODES).find(([, gst]) => gst === code)?.[0]
    : code;
  const inState = CITIES.filter((c) => c.stateCode === stateCode);
  return inState.length > 0 ? rng.pick(inState) : rng.pick(CITIES);
}

// ---------- companies ----------

export interface Company {
  name: string;
  /** NIC 2008 activity code as CINs carry it. */
  nic: string;
  city: City;
  incorporated: number;
}

/** A company name starting with `initial` where the word list allows it. */
export function companyName(rng: Rng, initial?: string): { name: string; nic: string } {
  const words = initial ? COMPANY_NAME_WORDS.filter((w) => w.startsWith(initial)) : [];
  const first = words.length > 0 ? rng.pick(words) : rng.pick(COMPANY_NAME_WORDS);
  const [sector, nic] = rng.pick(COMPANY_SECTOR_WORDS);
  const second = rng.chance(0.4) ? `${rng.pick(['crest', 'line', 'leaf', 'works', 'peak'])}` : '';
  return { name: `${first}${second} ${sector}`, nic };
}

/** The rich demo persona's employer, as the company registries know it. */
export const DEMO_COMPANY = {
  name: 'NIMBUSLANE TECHNOLOGIES PRIVATE LIMITED',
  tradeName: 'NIMBUSLANE TECHNOLOGIES',
  pan: 'AADCN4821K',
  cin: INTEL_DEMO.cin,
  incorporated: '2015-06-23',
  email: 'compliance@nimbuslane.example.com',
  address: {
    building_name: 'Sahyadri Tech Park',
    building_number: 'Unit 502, Tower B',
    floor: '5th Floor',
    street: 'Baner Road',
    location: 'Baner',
    district: 'Pune',
    city: 'Pune',
    state: 'Maharashtra',
    pincode: '411045',
  },
} as const;

export const DEMO_LLP = {
  name: 'SAFFRONLEAF ANALYTICS LLP',
  pan: 'AAGFS2619M',
  registered: '2014-08-11',
  cancelled: '2022-03-31',
} as const;

/** Someone who works for, or directs, a company: seeded by the company and a role index. */
export function personOf(seed: string, index: number): Persona {
  return personaFor(`${seed}#${index}`);
}
