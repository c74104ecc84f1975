/**
 * Corporate Intelligence sources (spec §2.7): GSTIN details (basic and advanced), company master data
 * by CIN, EPFO employment history by UAN, UAN by mobile, UAN by PAN, and the credit report. Each
 * returns the KYC vendor envelope; 'no record' is the vendor's 422 envelope.
 *
 * The shapes mix what a results page must handle: nested objects, arrays of scalars, arrays of
 * objects (and arrays of arrays), the vendors' '1800-01-01' for an unknown date, and 'N/A' / '-'.
 */
import type { KycEnvelope } from '@footprint/domain';
import { createRng, indianDay, isoDay, type Rng, SANDBOX_NOW, yearsBefore } from '../random.ts';
import { BANKS, type City } from '../words.ts';
import { kycNotFound, kycOk, titleCase } from './common.ts';
import { richDemoPersona } from './demo.ts';
import {
  CIN_PATTERN,
  cityOfState,
  companyName,
  DEMO_COMPANY,
  DEMO_LLP,
  GSTIN_PATTERN,
  INTEL_DEMO,
  PAN_SHAPE,
  personOf,
  registryLacks,
} from './intel-common.ts';
import { bureauAddress, formatAddress, type Persona, personaFor } from './persona.ts';

type Params = Readonly<Record<string, string | boolean>>;
type Envelope = KycEnvelope<Record<string, unknown>>;

const str = (params: Params, key: string): string => {
  const value = params[key];
  return typeof value === 'string' ? value : '';
};
const flag = (params: Params, key: string): boolean => params[key] === true;

const UNKNOWN_DATE = '1800-01-01';

// ---------- GSTIN ----------

const CONSTITUTIONS: Record<string, string> = {
  C: 'Private Limited Company',
  F: 'Limited Liability Partnership',
  P: 'Proprietorship',
  H: 'Hindu Undivided Family',
  A: 'Association of Persons',
  T: 'Trust',
};

const CORE_ACTIVITIES: Record<string, [code: string, description: string][]> = {
  service: [['SPO', 'Service Provider and Others']],
  goods: [
    ['TRD', 'Trader'],
    ['MFT', 'Manufacturer'],
  ],
};

// biome-ignore format: compact code list
const HSN_GOODS = [
  ['84713010', 'PERSONAL COMPUTER'], ['85176290', 'OTHER COMMUNICATION APPARATUS'], ['52083190', 'DYED COTTON FABRIC'],
  ['19053100', 'SWEET BISCUITS'], ['73089090', 'STRUCTURES OF IRON OR STEEL'], ['85414300', 'PHOTOVOLTAIC CELLS ASSEMBLED IN MODULES'],
] as const;
// biome-ignore format: compact code list
const HSN_SERVICES = [
  ['998314', 'INFORMATION TECHNOLOGY (IT) DESIGN AND DEVELOPMENT SERVICES'], ['998313', 'INFORMATION TECHNOLOGY (IT) CONSULTING AND SUPPORT SERVICES'],
  ['996511', 'ROAD TRANSPORT SERVICES OF GOODS'], ['998361', 'ADVERTISING SERVICES'], ['999293', 'COMMERCIAL TRAINING AND COACHING SERVICES'],
] as const;

const MONTHS = [
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
  'January',
  'February',
  'March',
];

interface GstEntity {
  gstin: string;
  pan: string;
  legalName: string;
  tradeName: string;
  constitution: string;
  registered: string;
  cancelled: string | null;
  city: City;
  address: Record<string, string>;
  services: boolean;
  proprietor?: Persona;
}

function splitAddressOf(rng: Rng, city: City): Record<string, string> {
  return {
    building_name: rng.pick([
      'Silver Arcade',
      'Om Chambers',
      'Shreeji Complex',
      'Kalpataru Plaza',
      'Laxmi Industrial Estate',
    ]),
    building_number: `${rng.pick(['Office', 'Shop', 'Gala', 'Unit'])} No. ${rng.int(1, 420)}`,
    floor: rng.pick(['Ground Floor', '1st Floor', '2nd Floor', '4th Floor', '-']),
    street: `${rng.pick(['Station', 'Market', 'Mill', 'Ring', 'MG'])} Road`,
    location: rng.pick(city.localities),
    district: city.district,
    city: city.city,
    state: city.state,
    pincode: `${city.pinPrefix}0${String(rng.int(1, 99)).padStart(2, '0')}`,
  };
}

const joinAddress = (a: Record<string, string>): string =>
  [a.building_number, a.building_name, a.floor, a.street, a.location, a.city, a.district, a.state, a.pincode]
    .filter((part) => part && part !== '-')
    .join(', ');

function gstEntity(gstin: string): GstEntity | null {
  const m = GSTIN_PATTERN.exec(gstin);
  if (!m) return null;
  const [, stateCode, pan] = m as unknown as [string, string, string];
  if (gstin === INTEL_DEMO.gstin) {
    return {
      gstin,
      pan: DEMO_COMPANY.pan,
      legalName: DEMO_COMPANY.name,
      tradeName: DEMO_COMPANY.tradeName,
      constitution: CONSTITUTIONS.C!,
      registered: '2017-07-01',
      cancelled: null,
      city: cityOfState(createRng('pune'), 'MH'),
      address: { ...DEMO_COMPANY.address },
      services: true,
    };
  }
  if (gstin === INTEL_DEMO.gstinCancelled) {
    const rng = createRng(`gstin:${gstin}`);
    const city = cityOfState(rng, 'MH');
    return {
      gstin,
      pan: DEMO_LLP.pan,
      legalName: DEMO_LLP.name,
      tradeName: 'SAFFRONLEAF ANALYTICS',
      constitution: CONSTITUTIONS.F!,
      registered: '2017-07-01',
      cancelled: DEMO_LLP.cancelled,
      city,
      address: splitAddressOf(rng, city),
      services: true,
    };
  }
  if (gstin === INTEL_DEMO.gstinUnknown || registryLacks('gstin', gstin, 0.1)) return null;
  const rng = createRng(`gstin:${gstin}`);
  const holder = pan[3]!;
  const city = cityOfState(rng, stateCode);
  const registered = isoDay(rng.date(new Date('2017-07-01'), yearsBefore(1)));
  const services = rng.chance(0.5);
  let legalName: string;
  let tradeName: string;
  let proprietor: Persona | undefined;
  if (holder === 'P') {
    proprietor = personaFor(`gstin-owner:${pan}`);
    legalName = proprietor.legalName;
    tradeName = `${proprietor.lastName.toUpperCase()} ${rng.pick(['ENTERPRISES', 'TRADERS', 'AGENCIES', 'STORES', 'SERVICES'])}`;
  } else {
    const { name } = companyName(rng, pan[4]);
    const suffix = holder === 'F' ? ' LLP' : holder === 'C' ? ' PRIVATE LIMITED' : '';
    legalName = `${name.toUpperCase()}${suffix}`;
    tradeName = name.toUpperCase();
  }
  return {
    gstin,
    pan,
    legalName,
    tradeName,
    constitution: CONSTITUTIONS[holder] ?? 'Others',
    registered,
    cancelled: rng.chance(0.08) ? isoDay(rng.date(new Date(registered), SANDBOX_NOW)) : null,
    city,
    address: splitAddressOf(rng, city),
    services,
    ...(proprietor ? { proprietor } : {}),
  };
}

/** The financial year '2024' → '2024-2025'. */
const fyOf = (year: string): string => `${year}-${Number(year) + 1}`;

/** GSTR-1 and GSTR-3B per month of the financial year, as the vendor nests them: [[...]]. */
function filingStatus(rng: Rng, e: GstEntity, year: string, quarterly: boolean): Record<string, string>[][] {
  const start = Number(year);
  const rows: Record<string, string>[] = [];
  MONTHS.forEach((month, i) => {
    const calendarYear = i < 9 ? start : start + 1;
    const due = new Date(Date.UTC(calendarYear, ((i + 3) % 12) + 1, 11));
    if (due > SANDBOX_NOW) return;
    if (e.cancelled && due > new Date(e.cancelled)) return;
    if (quarterly && i % 3 !== 2) return;
    for (const rtntype of ['GSTR1', 'GSTR3B']) {
      const late = rng.chance(e.gstin === INTEL_DEMO.gstin ? 0.1 : 0.25);
      const filed = new Date(due.getTime() + (late ? rng.int(3, 40) : -rng.int(0, 8)) * 86_400_000);
      const missing = rng.chance(0.04) && e.gstin !== INTEL_DEMO.gstin;
      rows.push({
        fy: fyOf(year),
        taxp: month,
        mof: rng.pick(['ONLINE', 'ONLINE', 'OFFLINE']),
        dof: missing ? '-' : indianDay(filed),
        rtntype,
        arn: missing
          ? 'N/A'
          : `AA${e.gstin.slice(0, 2)}${String(calendarYear).slice(2)}${rng.digits(9)}${rng.letters(1)}`,
        status: missing ? 'Not Filed' : 'Filed',
      });
    }
  });
  return rows.length > 0 ? [rows] : [];
}

function hsnInfo(rng: Rng, e: GstEntity) {
  const goods = e.services
    ? rng.chance(0.3)
      ? rng.sample(HSN_GOODS, 1)
      : []
    : rng.sample(HSN_GOODS, rng.int(1, 3));
  const services = e.services ? rng.sample(HSN_SERVICES, rng.int(1, 3)) : [];
  if (e.gstin === INTEL_DEMO.gstin) {
    return {
      goods: [{ hsn_code: HSN_GOODS[0][0], description: HSN_GOODS[0][1] }],
      services: HSN_SERVICES.slice(0, 2).map(([hsn_code, description]) => ({ hsn_code, description })),
    };
  }
  return {
    goods: goods.map(([hsn_code, description]) => ({ hsn_code, description })),
    services: services.map(([hsn_code, description]) => ({ hsn_code, description })),
  };
}

function filingFrequency(rng: Rng, year: string, quarterly: boolean) {
  return ['Q1', 'Q2', 'Q3', 'Q4'].map((quarter) => ({
    fy: fyOf(year),
    quarter,
    preference: quarterly && !(quarter === 'Q1' && rng.chance(0.2)) ? 'QUARTERLY' : 'MONTHLY',
  }));
}

function gstBase(rng: Rng, e: GstEntity) {
  const [coreCode, coreDescription] = rng.pick(CORE_ACTIVITIES[e.services ? 'service' : 'goods']!);
  const ward = `${e.city.city.toUpperCase()} ${rng.pick(['I', 'II', 'III', 'IV'])}`;
  return {
    gstin: e.gstin,
    pan_number: e.pan,
    business_name: e.tradeName,
    legal_name: e.legalName,
    center_jurisdiction: `Commissionerate - ${e.city.city.toUpperCase()},Division - DIVISION ${rng.pick(['I', 'II', 'III', 'IV', 'V'])},Range - RANGE-${rng.int(1, 9)}`,
    state_jurisdiction: `State - ${e.city.state},Zone - ${ward},Ward - ${ward}_${rng.int(100, 799)}`,
    date_of_registration: e.registered,
    constitution_of_business: e.constitution,
    taxpayer_type:
      e.gstin === INTEL_DEMO.gstin
        ? 'Regular'
        : rng.weighted([
            ['Regular', 88],
            ['Composition', 12],
          ] as const),
    gstin_status: e.cancelled ? 'Cancelled' : 'Active',
    date_of_cancellation: e.cancelled ?? UNKNOWN_DATE,
    field_visit_conducted: rng.pick(['No', 'No', 'Yes']),
    nature_bus_activities: e.services
      ? [
          'Supplier of Services',
          'Office / Sale Office',
          ...(rng.chance(0.4) ? ['Recipient of Goods or Services'] : []),
        ]
      : [
          'Retail Business',
          'Wholesale Business',
          'Warehouse / Depot',
          ...(rng.chance(0.3) ? ['Factory / Manufacturing'] : []),
        ],
    nature_of_core_business_activity_code: coreCode,
    nature_of_core_business_activity_description: coreDescription,
    aadhaar_validation: e.proprietor ? 'Yes' : 'N/A',
    aadhaar_validation_date: e.proprietor
      ? isoDay(rng.date(new Date(e.registered), SANDBOX_NOW))
      : UNKNOWN_DATE,
    promoters: e.proprietor
      ? [e.proprietor.legalName]
      : [0, 1].map((i) =>
          e.gstin === INTEL_DEMO.gstin ? demoDirectors()[i]!.name : personOf(e.pan, i).legalName,
        ),
    annual_aggregate_turnover: rng.pick([
      'Slab: Rs. 1.5 Cr. to 5 Cr.',
      'Slab: Rs. 5 Cr. to 25 Cr.',
      'Slab: Rs. 25 Cr. to 100 Cr.',
      'NA',
    ]),
    gross_total_income: 'N/A',
    address: joinAddress(e.address),
  };
}

export function gstinDetails(params: Params): Envelope {
  const gstin = str(params, 'id_number').toUpperCase();
  const e = gstEntity(gstin);
  if (!e) return kycNotFound();
  const rng = createRng(`gstin:${gstin}`);
  const year = str(params, 'year') || '2024';
  const quarterly = e.gstin !== INTEL_DEMO.gstin && rng.chance(0.4);
  const base = gstBase(rng, e);
  return kycOk(rng, 'corporate_gstin', {
    ...base,
    ...(flag(params, 'address') ? { address_details: e.address } : { address_details: {} }),
    filing_status: flag(params, 'filing_status') ? filingStatus(rng.fork(year), e, year, quarterly) : [],
    hsn_info: flag(params, 'hsn_info') ? hsnInfo(rng.fork('hsn'), e) : {},
    filing_frequency: flag(params, 'filing_frequency')
      ? filingFrequency(rng.fork(`freq${year}`), year, quarterly)
      : [],
  });
}

/** GST intelligence: the advanced GSTIN answer, for the current financial year, with contacts and branches. */
export function gstIntel(params: Params): Envelope {
  const gstin = str(params, 'id_number').toUpperCase();
  const e = gstEntity(gstin);
  if (!e) return kycNotFound();
  const rng = createRng(`gst-intel:${gstin}`);
  const year = '2024';
  const quarterly = e.gstin !== INTEL_DEMO.gstin && rng.chance(0.4);
  const branches =
    e.gstin === INTEL_DEMO.gstin
      ? 2
      : rng.weighted([
          [0, 60],
          [1, 25],
          [2, 15],
        ] as const);
  const branch = (i: number) => {
    const city = i === 0 ? e.city : cityOfState(rng, 'MH');
    const address = splitAddressOf(rng, city);
    return {
      address: joinAddress(address),
      nature_of_business: rng.pick(['Warehouse / Depot', 'Office / Sale Office', 'Supplier of Services']),
      pincode: address.pincode!,
    };
  };
  return kycOk(rng, 'gstin_advanced', {
    ...gstBase(rng, e),
    contact_details: {
      email:
        e.gstin === INTEL_DEMO.gstin
          ? DEMO_COMPANY.email
          : `accounts@${e.tradeName.split(' ')[0]!.toLowerCase()}.example.com`,
      mobile: `+91 5${rng.digits(4)}XXXXX`,
      address: joinAddress(e.address),
    },
    additional_places_of_business: Array.from({ length: branches }, (_, i) => branch(i)),
    einvoice_status: rng.pick(['Yes', 'No']),
    latest_return_filed: rng.pick(['GSTR3B', 'GSTR1']),
    filing_status: flag(params, 'filing_status') ? filingStatus(rng.fork(year), e, year, quarterly) : [],
    hsn_info: flag(params, 'hsn_info') ? hsnInfo(rng.fork('hsn'), e) : {},
    filing_frequency: flag(params, 'filing_frequency')
      ? filingFrequency(rng.fork('freq'), year, quarterly)
      : [],
  });
}

// ---------- CIN ----------

const CLASSES: Record<string, string> = {
  PTC: 'Private',
  PLC: 'Public',
  OPC: 'Private(One Person Company)',
  FTC: 'Private',
  NPL: 'Public',
};
const ROC: Record<string, string> = {
  MH: 'RoC-Pune',
  KA: 'RoC-Bangalore',
  DL: 'RoC-Delhi',
  TN: 'RoC-Chennai',
  TS: 'RoC-Hyderabad',
  WB: 'RoC-Kolkata',
  GJ: 'RoC-Ahmedabad',
  RJ: 'RoC-Jaipur',
  UP: 'RoC-Kanpur',
  KL: 'RoC-Ernakulam',
};

interface Director {
  din: string;
  name: string;
  designation: string;
  begin_date: string;
  end_date: string;
}

function demoDirectors(): Director[] {
  const rohan = richDemoPersona();
  return [
    {
      din: '07214482',
      name: 'ANJALI MOHAN KULKARNI',
      designation: 'Managing Director',
      begin_date: '2015-06-23',
      end_date: '-',
    },
    {
      din: '07214483',
      name: 'KARAN VASANT MEHTA',
      designation: 'Director',
      begin_date: '2015-06-23',
      end_date: '-',
    },
    {
      din: '09126540',
      name: rohan.legalName,
      designation: 'Whole-time director',
      begin_date: '2021-04-01',
      end_date: '-',
    },
    {
      din: '07580219',
      name: 'SAMEER ASHOK BHAT',
      designation: 'Additional Director',
      begin_date: '2016-09-30',
      end_date: '2019-02-14',
    },
  ];
}

export function companyDetails(params: Params): Envelope {
  const cin = str(params, 'id_number').toUpperCase();
  const m = CIN_PATTERN.exec(cin);
  if (!m || cin === INTEL_DEMO.cinUnknown || (cin !== INTEL_DEMO.cin && registryLacks('cin', cin, 0.1))) {
    return kycNotFound();
  }
  const [, listing, nic, state, yearText, klass, regNo] = m as unknown as string[];
  const rng = createRng(`cin:${cin}`);
  const demo = cin === INTEL_DEMO.cin;
  const year = Math.min(Number(yearText), SANDBOX_NOW.getUTCFullYear() - 1);
  const incorporated = demo
    ? DEMO_COMPANY.incorporated
    : isoDay(rng.date(new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year, 11, 28))));
  const city = demo ? cityOfState(createRng('pune'), 'MH') : cityOfState(rng, state!);
  const name = demo
    ? DEMO_COMPANY.name
    : `${companyName(rng).name.toUpperCase()} ${klass === 'PLC' ? 'LIMITED' : 'PRIVATE LIMITED'}`;
  const lastAgm = rng.date(yearsBefore(1.5), yearsBefore(0.7));
  const authorised = demo ? 5_000_000 : rng.pick([100_000, 500_000, 1_000_000, 2_500_000, 10_000_000]);
  const directors: Director[] = demo
    ? demoDirectors()
    : Array.from({ length: rng.int(2, 4) }, (_, i) => {
        const p = personOf(cin, i);
        const resigned = i > 1 && rng.chance(0.5);
        const begin = rng.date(new Date(incorporated), yearsBefore(1));
        return {
          din: rng.digits(8, '0'),
          name: p.legalName,
          designation:
            i === 0
              ? rng.pick(['Managing Director', 'Director'])
              : rng.pick(['Director', 'Additional Director', 'Nominee Director']),
          begin_date: isoDay(begin),
          end_date: resigned ? isoDay(rng.date(begin, SANDBOX_NOW)) : '-',
        };
      });
  const chargeCount = demo
    ? 3
    : rng.weighted([
        [0, 50],
        [1, 30],
        [2, 20],
      ] as const);
  const charges = Array.from({ length: chargeCount }, (_, i) => {
    const created = rng.date(new Date(incorporated), yearsBefore(0.2));
    const satisfied = demo ? i === 2 : rng.chance(0.3);
    return {
      charge_id: String(rng.int(10_000_000, 99_999_999)),
      charge_holder: rng.pick(BANKS).name.toUpperCase(),
      amount: String(rng.pick([2_500_000, 5_000_000, 15_000_000, 40_000_000])),
      date_of_creation: isoDay(created),
      date_of_modification: rng.chance(0.3) ? isoDay(rng.date(created, SANDBOX_NOW)) : '-',
      date_of_satisfaction: satisfied ? isoDay(rng.date(created, SANDBOX_NOW)) : UNKNOWN_DATE,
      status: satisfied ? 'Closed' : 'Open',
      assets_under_charge: rng.pick([
        ['Book debts', 'Movable property'],
        ['Immovable property or any interest therein'],
        ['Plant and machinery', 'Current assets'],
      ]),
    };
  });
  const address = demo ? DEMO_COMPANY.address : null;
  return kycOk(rng, 'company_details', {
    company_id: cin,
    company_name: name,
    company_type: 'Company',
    roc_code: ROC[state!] ?? `RoC-${titleCase(city.city)}`,
    registration_number: String(Number(regNo)),
    company_category: 'Company limited by Shares',
    company_sub_category: klass === 'FTC' ? 'Subsidiary of Foreign Company' : 'Non-govt company',
    class_of_company: CLASSES[klass!] ?? 'Private',
    nic_code: nic,
    date_of_incorporation: incorporated,
    date_of_last_agm: isoDay(lastAgm),
    date_of_balance_sheet: `${lastAgm.getUTCFullYear() - (lastAgm.getUTCMonth() < 3 ? 1 : 0)}-03-31`,
    authorised_capital: String(authorised),
    paid_up_capital: String(demo ? 3_250_000 : Math.round(authorised * rng.pick([0.1, 0.5, 1]))),
    number_of_members: '-',
    company_status: demo
      ? 'Active'
      : rng.weighted([
          ['Active', 85],
          ['Strike Off', 8],
          ['Under Process of Striking Off', 4],
          ['Amalgamated', 3],
        ] as const),
    whether_listed: listing === 'L' ? 'Listed' : 'Unlisted',
    suspended_at_stock_exchange: '-',
    active_compliance: demo
      ? 'ACTIVE compliant'
      : rng.pick(['ACTIVE compliant', 'ACTIVE non-compliant', 'N/A']),
    registered_address: address
      ? joinAddress(address)
      : `${rng.pick(['Office', 'Flat', 'Unit'])} No. ${rng.int(1, 900)}, ${rng.pick(city.localities)}, ${city.city}, ${city.state}, India, ${city.pinPrefix}0${rng.int(10, 99)}`,
    address_other_than_ro: 'N/A',
    email_id: demo ? DEMO_COMPANY.email : `cs@${name.split(' ')[0]!.toLowerCase()}.example.com`,
    directors,
    charges,
  });
}

// ---------- EPFO ----------

/** A UAN: 12 digits starting '10'. */
export function uanOf(p: Persona): string {
  return p === richDemoPersona() ? INTEL_DEMO.uan : `10${createRng(`uan:${p.seed}`).digits(10)}`;
}

/** The persona an EPFO record belongs to: the demo UAN is the rich persona. */
function uanPersona(uan: string): Persona {
  return uan === INTEL_DEMO.uan ? richDemoPersona() : personaFor(`uan:${uan}`);
}

const OFFICES = {
  MH: ['PUN', 'BND', 'THN'],
  KA: ['BNG', 'PNY'],
  DL: ['DLC', 'DSH'],
  TS: ['HYD'],
  TN: ['TBM', 'MDU'],
} as Record<string, string[]>;

function memberId(rng: Rng, city: City): string {
  const office = rng.pick(OFFICES[city.stateCode] ?? ['XXX']);
  return `${city.stateCode}${office}${rng.digits(7)}000${rng.digits(7)}`;
}

export function employmentRecords(p: Persona, rng: Rng) {
  const positions =
    p.positions.length > 0
      ? p.positions
      : [{ company: p.employer, startYear: SANDBOX_NOW.getUTCFullYear() - 2 }];
  return positions.map((position, i) => {
    const joined = rng.date(
      new Date(Date.UTC(position.startYear, 0, 1)),
      new Date(Date.UTC(position.startYear, 11, 28)),
    );
    const end = 'endYear' in position && position.endYear !== undefined ? position.endYear : undefined;
    const exited =
      end !== undefined ? rng.date(new Date(Date.UTC(end, 0, 1)), new Date(Date.UTC(end, 11, 28))) : null;
    return {
      name: p.legalName,
      guardian_name: `${p.middleName} ${p.lastName}`.toUpperCase(),
      establishment_name: position.company.toUpperCase().replace(/ PVT LTD$/, ' PRIVATE LIMITED'),
      member_id: memberId(rng, i === 0 ? p.city : p.hometown),
      date_of_joining: isoDay(joined),
      date_of_exit: exited ? isoDay(exited) : UNKNOWN_DATE,
    };
  });
}

export function employmentHistory(params: Params): Envelope {
  const uan = str(params, 'id_number');
  if (
    !/^\d{12}$/.test(uan) ||
    uan === INTEL_DEMO.uanUnknown ||
    (uan !== INTEL_DEMO.uan && registryLacks('uan', uan, 0.12))
  ) {
    return kycNotFound();
  }
  const rng = createRng(`employment-history:${uan}`);
  return kycOk(rng, 'employment_history_uan', {
    uan,
    employment_history: employmentRecords(uanPersona(uan), rng),
  });
}

export function findUan(params: Params): Envelope {
  const mobile = str(params, 'mobile_number').slice(-10);
  if (
    mobile === INTEL_DEMO.mobileUnknown ||
    (mobile !== INTEL_DEMO.mobile && registryLacks('find-uan', mobile, 0.2))
  ) {
    return kycNotFound();
  }
  const rng = createRng(`find-uan:${mobile}`);
  const p = mobile === INTEL_DEMO.mobile ? richDemoPersona() : personaFor(mobile);
  const uans = [uanOf(p)];
  // Some people were given a second UAN by a later employer and never merged them.
  if (p !== richDemoPersona() && rng.chance(0.15)) uans.push(`10${rng.digits(10)}`);
  return kycOk(rng, 'find_uan', { mobile_number: mobile, uan_list: uans });
}

export function panPersona(pan: string): Persona {
  if (pan === INTEL_DEMO.pan) return richDemoPersona();
  const initial = pan[4];
  const rng = createRng(`pan-surname:${pan}`);
  const surnames = [
    'Agarwal',
    'Bhat',
    'Chauhan',
    'Das',
    'Desai',
    'Gupta',
    'Iyer',
    'Jain',
    'Joshi',
    'Kapoor',
    'Khan',
    'Kulkarni',
    'Mishra',
    'Nair',
    'Patel',
    'Rao',
    'Reddy',
    'Shah',
    'Sharma',
    'Singh',
    'Thakur',
    'Verma',
    'Yadav',
  ];
  const matching = surnames.filter((s) => s[0] === initial);
  return personaFor(`pan:${pan}`, matching.length > 0 ? { lastName: rng.pick(matching) } : {});
}

export function panToUan(params: Params): Envelope {
  const pan = str(params, 'pan_number');
  if (
    !PAN_SHAPE.test(pan) ||
    pan === INTEL_DEMO.panUnknown ||
    (pan !== INTEL_DEMO.pan && registryLacks('pan-uan', pan, 0.25))
  ) {
    return kycNotFound();
  }
  const rng = createRng(`pan-to-uan:${pan}`);
  return kycOk(rng, 'pan_to_uan', { pan_number: pan, uan_number: uanOf(panPersona(pan)) });
}

// ---------- credit report ----------

const ACCOUNT_TYPES = [
  ['Credit Card', 50_000, 400_000],
  ['Personal Loan', 100_000, 1_200_000],
  ['Auto Loan (Personal)', 300_000, 1_400_000],
  ['Housing Loan', 2_000_000, 9_000_000],
  ['Consumer Loan', 20_000, 120_000],
  ['Two-wheeler Loan', 50_000, 150_000],
] as const;

function paymentHistory(rng: Rng, months: number, clean: boolean): string[] {
  return Array.from({ length: Math.min(months, 36) }, () =>
    clean || rng.chance(0.92) ? '000' : rng.pick(['030', '060', 'XXX', 'STD']),
  );
}

export function creditReport(params: Params): Envelope {
  const pan = str(params, 'pan');
  if (
    !PAN_SHAPE.test(pan) ||
    pan === INTEL_DEMO.panUnknown ||
    (pan !== INTEL_DEMO.pan && registryLacks('credit', pan, 0.08))
  ) {
    return { ...kycNotFound(), message: 'No credit history found for the given details' };
  }
  const p = panPersona(pan);
  const demo = pan === INTEL_DEMO.pan;
  const rng = createRng(`credit-report:${pan}`);
  const name = str(params, 'name');
  const mobile = str(params, 'mobile');
  const count = demo ? 5 : rng.int(1, 6);
  const kinds = demo
    ? [ACCOUNT_TYPES[0], ACCOUNT_TYPES[0], ACCOUNT_TYPES[2], ACCOUNT_TYPES[1], ACCOUNT_TYPES[4]]
    : Array.from({ length: count }, () => rng.pick(ACCOUNT_TYPES));
  const accounts = kinds.map(([type, min, max], i) => {
    const opened = rng.date(yearsBefore(9), yearsBefore(0.3));
    const closed = (demo ? i === 4 : rng.chance(0.3)) ? rng.date(opened, SANDBOX_NOW) : null;
    const sanctioned = Math.round(rng.int(min, max) / 1000) * 1000;
    const balance = closed ? 0 : Math.round(sanctioned * rng.float(0.05, 0.9));
    const overdue = !closed && !demo && rng.chance(0.12) ? Math.round(balance * rng.float(0.02, 0.1)) : 0;
    const months = Math.max(
      1,
      Math.round(((closed ?? SANDBOX_NOW).getTime() - opened.getTime()) / (30.4 * 86_400_000)),
    );
    return {
      member_name: rng.pick(BANKS).name.toUpperCase(),
      account_type: type,
      ownership: rng.chance(0.9) ? 'Individual' : 'Joint',
      account_number: `XXXXXXXX${rng.digits(4)}`,
      date_opened: isoDay(opened),
      date_last_payment: isoDay(rng.date(yearsBefore(0.2), SANDBOX_NOW)),
      date_closed: closed ? isoDay(closed) : UNKNOWN_DATE,
      date_reported: isoDay(rng.date(yearsBefore(0.1), SANDBOX_NOW)),
      sanctioned_amount: sanctioned,
      current_balance: balance,
      amount_overdue: overdue,
      emi_amount: type === 'Credit Card' ? 'N/A' : Math.round(sanctioned / rng.int(24, 240)),
      credit_limit: type === 'Credit Card' ? sanctioned : '-',
      payment_history: paymentHistory(rng, months, demo || overdue === 0),
      account_status: closed ? 'Closed' : overdue > 0 ? 'Overdue' : 'Active',
    };
  });
  const enquiries = Array.from({ length: demo ? 3 : rng.int(0, 5) }, () => ({
    member_name: rng.pick(BANKS).name.toUpperCase(),
    enquiry_date: isoDay(rng.date(yearsBefore(2), SANDBOX_NOW)),
    enquiry_purpose: rng.pick(['Credit Card', 'Personal Loan', 'Auto Loan (Personal)', 'Housing Loan']),
    enquiry_amount: rng.pick([50_000, 200_000, 500_000, 1_500_000]),
  })).sort((a, b) => b.enquiry_date.localeCompare(a.enquiry_date));
  const overdueTotal = accounts.reduce((sum, a) => sum + a.amount_overdue, 0);
  const score = demo
    ? 781
    : Math.max(300, Math.min(900, Math.round(rng.int(640, 840) - (overdueTotal > 0 ? rng.int(60, 160) : 0))));
  const reportDate = isoDay(SANDBOX_NOW);
  const clientId = `credit_report_${rng.letters(20, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
  return {
    data: {
      client_id: clientId,
      mobile,
      pan,
      name,
      gender: str(params, 'gender'),
      credit_score: String(score),
      credit_report: {
        report_date: reportDate,
        control_number: rng.digits(10, '123456789'),
        name_on_report: p.legalName,
        date_of_birth: p.dob,
        score: {
          score_name: 'Bureau Score',
          score_version: '3.0',
          score,
          range: '300-900',
          reasons:
            overdueTotal > 0
              ? ['Recent delinquency on an account', 'High utilisation of revolving credit']
              : ['Length of credit history', 'Mix of secured and unsecured credit'],
        },
        summary: {
          total_accounts: accounts.length,
          active_accounts: accounts.filter((a) => a.account_status !== 'Closed').length,
          overdue_accounts: accounts.filter((a) => a.amount_overdue > 0).length,
          total_sanctioned: accounts.reduce((sum, a) => sum + a.sanctioned_amount, 0),
          total_balance: accounts.reduce((sum, a) => sum + a.current_balance, 0),
          total_overdue: overdueTotal,
          enquiries_last_12_months: enquiries.filter((e) => e.enquiry_date >= isoDay(yearsBefore(1))).length,
        },
        accounts,
        enquiries,
        addresses: p.addresses.map((a) => ({
          address: bureauAddress(a),
          state: a.city.state,
          pincode: a.pincode,
          category: a.type === 'permanent' ? 'Permanent Address' : 'Residence Address',
          reported_date: a.reportedDate,
        })),
        phones: [mobile || p.mobile, ...p.otherMobiles.slice(0, 1)],
        emails: p.emails.slice(0, 2),
        employment: {
          occupation: p.occupation,
          income: p.incomeBand,
          account_type: 'N/A',
          date_reported: '-',
        },
        formatted_address: formatAddress(p.addresses[0]!),
      },
      credit_report_link: `https://reports.kyc-sandbox.example.test/credit/${clientId}.pdf`,
    },
    status_code: 200,
    success: true,
    message: '',
    message_code: 'success',
  };
}
