/**
 * The sandbox's corporate and verification sources: one generator per search type, each answering
 * the KYC vendor envelope for the validated form fields. The source key is the query kind
 * ('corporate:corporate_gstin', 'verification:pan', ...).
 */
import type { IntelKind } from '@footprint/domain';
import {
  companyDetails,
  creditReport,
  employmentHistory,
  findUan,
  gstIntel,
  gstinDetails,
  panToUan,
} from './corporate.ts';
import {
  bankAccount,
  drivingLicence,
  employmentVerification,
  ifscDetails,
  panComprehensive,
  passport,
  vehicleRc,
  voterId,
} from './verification.ts';

type Params = Readonly<Record<string, string | boolean>>;

export const INTEL_GENERATORS: Record<IntelKind, (params: Params) => unknown> = {
  'corporate:corporate_gstin': gstinDetails,
  'corporate:credit_report': creditReport,
  'corporate:corporate_cin': companyDetails,
  'corporate:gst_intel': gstIntel,
  'corporate:employment_history': employmentHistory,
  'corporate:find_uan': findUan,
  'corporate:pan_to_uan': panToUan,
  'verification:pan': panComprehensive,
  'verification:driving_license': drivingLicence,
  'verification:voter_id': voterId,
  'verification:passport': passport,
  'verification:bank_account': bankAccount,
  'verification:ifsc': ifscDetails,
  'verification:vehicle_rc': vehicleRc,
  'verification:employment': employmentVerification,
};

/** Every intel source key, which is also its query kind. */
export const INTEL_SOURCES = Object.keys(INTEL_GENERATORS) as IntelKind[];

export const isIntelSource = (source: string): source is IntelKind => Object.hasOwn(INTEL_GENERATORS, source);

/** The sandbox answer of one intel search. */
export function intelPayload(kind: IntelKind, params: Params): unknown {
  return INTEL_GENERATORS[kind](params);
}

export { INTEL_DEMO, INTEL_DEMO_IDENTITIES } from './intel-common.ts';
