import type { DetailFamily } from '../kinds/details.ts';

/**
 * The curated reading order of detail records (RC, UPI, challans) and intel results, on screen and in
 * the PDFs. Known keys come first in the order below; unknown keys follow alphabetically. The order
 * never depends on the key order of the vendor's JSON, so a fresh and a cached answer read the same.
 */

/** A section: a detail lookup or an intel query kind ('corporate:corporate_gstin', ...). */
export type RecordSection = DetailFamily | `${'corporate' | 'verification'}:${string}`;

const RC = [
  'owner_name',
  'rc_number',
  'vehicle_number',
  'registration_date',
  'rc_status',
  'maker_description',
  'maker_model',
  'variant',
  'vehicle_category_description',
  'vehicle_category',
  'body_type',
  'fuel_type',
  'color',
  'colour',
  'norms_type',
  'insurance_company',
  'insurance_policy_number',
  'insurance_upto',
  'fit_up_to',
  'pucc_number',
  'pucc_upto',
  'tax_upto',
  'tax_paid_upto',
  'financed',
  'financer',
  'registered_at',
  'owner_number',
  'father_name',
  'present_address',
  'permanent_address',
  'mobile_number',
  'manufacturing_date_formatted',
  'manufacturing_date',
  'vehicle_chasi_number',
  'vehicle_engine_number',
  'cubic_capacity',
  'no_cylinders',
  'seat_capacity',
  'sleeper_capacity',
  'standing_capacity',
  'vehicle_gross_weight',
  'unladen_weight',
  'wheelbase',
  'blacklist_status',
  'permit_type',
  'permit_number',
  'permit_issue_date',
  'permit_valid_from',
  'permit_valid_upto',
  'national_permit_number',
  'national_permit_upto',
  'national_permit_issued_by',
  'non_use_status',
  'non_use_from',
  'non_use_to',
  'noc_details',
  'latest_by',
];

const UPI = ['full_name', 'upi_id', 'account_exists', 'ifsc', 'bank', 'remarks'];

const CHALLAN = ['rc_number', 'total_challans', 'challan_details'];

const CHALLAN_ITEM = [
  'challan_number',
  'challan_date',
  'challan_status',
  'amount',
  'offense_details',
  'accused_name',
  'rc_number',
  'rto_name',
  'state',
  'court_challan',
  'payment_date',
  'payment_source',
  'payment_url',
];

const GST = [
  'legal_name',
  'business_name',
  'gstin',
  'pan_number',
  'gstin_status',
  'taxpayer_type',
  'constitution_of_business',
  'date_of_registration',
  'date_of_cancellation',
  'annual_aggregate_turnover',
  'gross_total_income',
  'address',
  'address_details',
  'contact_details',
  'nature_bus_activities',
  'nature_of_core_business_activity_code',
  'nature_of_core_business_activity_description',
  'promoters',
  'center_jurisdiction',
  'state_jurisdiction',
  'aadhaar_validation',
  'aadhaar_validation_date',
  'field_visit_conducted',
  'einvoice_status',
  'latest_return_filed',
  'filing_status',
  'filing_frequency',
  'hsn_info',
  'additional_places_of_business',
];

const COMPANY = [
  'company_name',
  'company_id',
  'company_status',
  'date_of_incorporation',
  'class_of_company',
  'company_category',
  'company_sub_category',
  'company_type',
  'roc_code',
  'registration_number',
  'nic_code',
  'authorised_capital',
  'paid_up_capital',
  'whether_listed',
  'active_compliance',
  'date_of_last_agm',
  'date_of_balance_sheet',
  'registered_address',
  'address_other_than_ro',
  'email_id',
  'directors',
  'charges',
];

const PERSON = [
  'full_name',
  'name',
  'name_in_regional_lang',
  'pan_number',
  'pan',
  'uan',
  'uan_number',
  'license_number',
  'epic_no',
  'file_number',
  'passport_number',
  'dob',
  'date_of_birth',
  'age',
  'gender',
  'relation_type',
  'relation_name',
  'father_or_husband_name',
  'status',
  'category',
  'phone_number',
  'mobile_number',
  'email',
  'address',
  'permanent_address',
  'permanent_zip',
  'temporary_address',
  'temporary_zip',
  'state',
  'district',
];

const EMPLOYMENT = [
  'name',
  'employee_name',
  'guardian_name',
  'establishment_name',
  'employer_name',
  'member_id',
  'establishment_id',
  'date_of_joining',
  'date_of_exit',
  'last_pf_submitted',
];

/** Section orders. Intel kinds that are not listed fall back to the person order. */
const SECTIONS: Readonly<Record<string, readonly string[]>> = {
  rc: RC,
  upi: UPI,
  challan: CHALLAN,
  'verification:vehicle_rc': RC,
  'corporate:corporate_gstin': GST,
  'corporate:gst_intel': GST,
  'corporate:corporate_cin': COMPANY,
  'corporate:employment_history': ['employment_history', ...EMPLOYMENT],
  'corporate:find_uan': ['mobile_number', 'uan_list'],
  'corporate:pan_to_uan': ['pan_number', 'uan_number'],
  'verification:bank_account': [
    'full_name',
    'account_exists',
    'account_number',
    'ifsc',
    'ifsc_details',
    'remarks',
  ],
  'verification:ifsc': ['bank', 'branch', 'ifsc', 'micr', 'address', 'city', 'district', 'state', 'contact'],
  'verification:employment': ['employee_details', 'employer_details', 'other_employers', ...EMPLOYMENT],
};

/** Orders of nested objects and of the columns of lists of records, by the key that holds them. */
const NESTED: Readonly<Record<string, readonly string[]>> = {
  challan_details: CHALLAN_ITEM,
  filing_status: ['fy', 'taxp', 'rtntype', 'status', 'dof', 'mof', 'arn'],
  filing_frequency: ['fy', 'quarter', 'preference'],
  directors: ['name', 'din', 'designation', 'begin_date', 'end_date'],
  charges: [
    'charge_holder',
    'amount',
    'status',
    'date_of_creation',
    'date_of_modification',
    'date_of_satisfaction',
    'assets_under_charge',
    'charge_id',
  ],
  employment_history: EMPLOYMENT,
  other_employers: EMPLOYMENT,
  employee_details: EMPLOYMENT,
  goods: ['hsn_code', 'description'],
  services: ['hsn_code', 'description'],
  hsn_info: ['goods', 'services'],
  additional_places_of_business: ['address', 'nature_of_business', 'pincode'],
  contact_details: ['email', 'mobile', 'address'],
  address_details: [
    'building_name',
    'building_number',
    'floor',
    'street',
    'location',
    'city',
    'district',
    'state',
    'pincode',
  ],
};

/** The curated order of a section's top level. */
export function sectionOrder(section: RecordSection | string): readonly string[] {
  return SECTIONS[section] ?? PERSON;
}

/** The curated order inside a nested object or list held under `key` ('directors', 'filing_status'). */
export function nestedOrder(key: string): readonly string[] {
  return NESTED[key] ?? PERSON;
}

/**
 * Sorts keys: those in `order` first, in its order; the rest alphabetically (by code unit, so the
 * result is the same on every machine). Duplicates are kept once.
 */
export function orderKeys(keys: Iterable<string>, order: readonly string[]): string[] {
  const rank = new Map(order.map((key, index) => [key, index]));
  const unique = [...new Set(keys)];
  return unique.sort((a, b) => {
    const ra = rank.get(a);
    const rb = rank.get(b);
    if (ra !== undefined && rb !== undefined) return ra - rb;
    if (ra !== undefined) return -1;
    if (rb !== undefined) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
