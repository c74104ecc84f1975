/**
 * The example form of each corporate and verification kind (the other kinds' examples are in their
 * declarations): one example request per paid search kind, for the sandbox's fixed demo subjects (README, "Demo
 * identities"): fictional people and firms, never real data. The API reference shows them, and the
 * kind conformance test sends each one through its route, history, report, export, case and timeline.
 */
import type { IntelKind } from '../catalogue/kinds.ts';

export interface KindExample {
  method: 'GET' | 'POST';
  path: string;
  /** Query parameters (GET) or the JSON body (POST), without a case reference. */
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** The demo form of each corporate and verification type (spec §2.7, §2.8). */
const INTEL_EXAMPLES: Record<IntelKind, Record<string, string | boolean>> = {
  'corporate:corporate_gstin': {
    id_number: '27AADCN4821K1ZC',
    year: '2024',
    filing_status: true,
    hsn_info: true,
    filing_frequency: true,
    address: true,
  },
  'corporate:credit_report': {
    mobile: '9876543210',
    pan: 'BQZPD4821K',
    name: 'Rohan Deshmukh',
    gender: 'male',
    consent: 'Y',
  },
  'corporate:corporate_cin': { id_number: 'U72200MH2015PTC248219' },
  'corporate:gst_intel': {
    id_number: '27AADCN4821K1ZC',
    filing_status: true,
    hsn_info: true,
    filing_frequency: true,
  },
  'corporate:employment_history': { id_number: '100482190612' },
  'corporate:find_uan': { mobile_number: '9876543210' },
  'corporate:pan_to_uan': { pan_number: 'BQZPD4821K' },
  'verification:pan': { pan: 'BQZPD4821K', name: 'Rohan Deshmukh' },
  'verification:driving_license': { dl_number: 'MH1220110048219', dob: '1990-04-17' },
  'verification:voter_id': { epic_number: 'KTW4821906' },
  'verification:passport': { file_number: 'PN1064821906217', dob: '1990-04-17' },
  'verification:bank_account': { account_number: '50100482190612', ifsc: 'KCBX0PUN482' },
  'verification:ifsc': { ifsc: 'KCBX0PUN482' },
  'verification:vehicle_rc': { vehicle_number: 'MH12FP1234' },
  'verification:employment': { phone: '9876543210' },
};

export const intelExample = (kind: IntelKind) => INTEL_EXAMPLES[kind];
