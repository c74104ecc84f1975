/**
 * Identity Verification sources (spec §2.8): PAN, driving licence, voter ID, passport, bank account
 * (penny drop, name at bank), IFSC (branch details), vehicle RC and employment. Each returns the KYC
 * vendor envelope; 'no record' is the vendor's 422 envelope.
 *
 * Ids of the demo persona (INTEL_DEMO) answer with the rich demo person; any other well-formed id
 * answers a persona seeded by the id, and about one in ten is unknown to the registry.
 */
import type { KycEnvelope } from '@footprint/domain';
import { createRng, isoDay, type Rng, SANDBOX_NOW, yearsBefore } from '../random.ts';
import { BANKS, CITIES, type City } from '../words.ts';
import { kycNotFound, kycOk } from './common.ts';
import { employmentRecords, panPersona, uanOf } from './corporate.ts';
import { phonePersona, richDemoPersona } from './demo.ts';
import { normalizeRc, rcDetails } from './details.ts';
import { cityOfState, INTEL_DEMO, PAN_SHAPE, registryLacks } from './intel-common.ts';
import { type Address, bureauAddress, type Persona, personaFor } from './persona.ts';

type Params = Readonly<Record<string, string | boolean>>;
type Envelope = KycEnvelope<Record<string, unknown>>;

const str = (params: Params, key: string): string => {
  const value = params[key];
  return typeof value === 'string' ? value : '';
};
const UNKNOWN_DATE = '1800-01-01';

/** Upper-case without spaces and dashes, as registries compare ids. */
const compact = (value: string): string => value.toUpperCase().replace(/[\s-]/g, '');

/**
 * How well a name someone typed matches the registry's: 'Rohan Deshmukh' against 'ROHAN SURESH
 * DESHMUKH' is a match (every typed word appears), with a score from the share of words covered.
 */
export function nameMatch(
  typed: string,
  registered: string,
): { name_match: boolean; name_match_score: number } {
  const words = (s: string) =>
    s
      .toUpperCase()
      .split(/[^A-Z]+/)
      .filter(Boolean);
  const typedWords = words(typed);
  const known = new Set(words(registered));
  const hits = typedWords.filter((w) => known.has(w)).length;
  const score =
    typedWords.length === 0 ? 0 : Math.round((hits / Math.max(typedWords.length, known.size)) * 100);
  return { name_match: typedWords.length > 0 && hits === typedWords.length, name_match_score: score };
}

const withNameMatch = (params: Params, registered: string) => {
  const typed = str(params, 'name');
  return typed ? { input_name: typed, ...nameMatch(typed, registered) } : {};
};

const genderLetter = (p: Persona): string => (p.gender === 'Male' ? 'M' : 'F');

function splitAddress(a: Address) {
  return {
    line_1: a.line.split(', ').slice(0, -1).join(', ') || a.line,
    line_2: a.locality,
    street_name: a.locality,
    zip: a.pincode,
    city: a.city.city,
    state: a.city.state,
    country: 'INDIA',
    full: `${bureauAddress(a)} ${a.city.state.toUpperCase()} ${a.pincode}`,
  };
}

// ---------- PAN ----------

export function panComprehensive(params: Params): Envelope {
  const pan = str(params, 'pan');
  const m = PAN_SHAPE.exec(pan);
  if (!m || pan === INTEL_DEMO.panUnknown || (pan !== INTEL_DEMO.pan && registryLacks('pan', pan, 0.1))) {
    return kycNotFound();
  }
  const rng = createRng(`pan:${pan}`);
  const p = panPersona(pan);
  const permanent = p.addresses.find((a) => a.type === 'permanent') ?? p.addresses[0]!;
  const demo = pan === INTEL_DEMO.pan;
  return kycOk(rng, 'pan_comprehensive', {
    pan_number: pan,
    full_name: p.legalName,
    full_name_split: [p.firstName.toUpperCase(), p.middleName.toUpperCase(), p.lastName.toUpperCase()],
    masked_aadhaar: demo || rng.chance(0.85) ? `XXXXXXXX${p.aadhaar.slice(-4)}` : null,
    address: splitAddress(permanent),
    email: demo || rng.chance(0.5) ? p.emails[0]! : null,
    phone_number: demo || rng.chance(0.6) ? p.mobile : null,
    gender: genderLetter(p),
    dob: p.dob,
    input_dob: null,
    aadhaar_linked: demo || rng.chance(0.85),
    dob_verified: false,
    dob_check: false,
    category: 'person',
    status: 'valid',
    less_info: false,
    ...withNameMatch(params, p.legalName),
  });
}

// ---------- driving licence ----------

const DL_SHAPE = /^([A-Z]{2})(\d{2})(\d{4})(\d{7})$/;

export function drivingLicence(params: Params): Envelope {
  const dl = compact(str(params, 'dl_number'));
  const dob = str(params, 'dob');
  const m = DL_SHAPE.exec(dl);
  const demo = dl === INTEL_DEMO.drivingLicence;
  if (!m || (demo && dob !== INTEL_DEMO.dob) || (!demo && registryLacks('dl', dl, 0.1))) return kycNotFound();
  const [, state, rto, yearText] = m as unknown as string[];
  const rng = createRng(`dl:${dl}`);
  const p = demo ? richDemoPersona() : personaFor(`dl:${dl}`);
  const city: City = demo ? p.hometown : cityOfState(rng, state!);
  const issued = Math.min(
    Math.max(Number(yearText), Number(dob.slice(0, 4)) + 18),
    SANDBOX_NOW.getUTCFullYear(),
  );
  const doi = rng.date(new Date(Date.UTC(issued, 0, 1)), new Date(Date.UTC(issued, 11, 28)));
  const transport = !demo && rng.chance(0.15);
  const permanent = p.addresses.find((a) => a.type === 'permanent') ?? p.addresses[0]!;
  const current = p.addresses.find((a) => !a.old && a.type === 'correspondence') ?? permanent;
  return kycOk(rng, 'driving_license', {
    license_number: dl,
    state: city.state,
    name: p.legalName,
    permanent_address: `${bureauAddress(permanent)} ${permanent.pincode}`,
    permanent_zip: permanent.pincode,
    temporary_address: current === permanent ? '-' : `${bureauAddress(current)} ${current.pincode}`,
    temporary_zip: current === permanent ? '-' : current.pincode,
    citizenship: 'IND',
    ola_name: `RTO,${city.city.toUpperCase()}`,
    ola_code: `${state}${rto}`,
    gender: genderLetter(p),
    father_or_husband_name: `${p.middleName} ${p.lastName}`.toUpperCase(),
    dob,
    doi: isoDay(doi),
    doe: isoDay(new Date(Date.UTC(doi.getUTCFullYear() + 20, doi.getUTCMonth(), doi.getUTCDate() - 1))),
    transport_doi: transport ? isoDay(rng.date(doi, SANDBOX_NOW)) : UNKNOWN_DATE,
    transport_doe: transport
      ? isoDay(rng.date(SANDBOX_NOW, new Date(Date.UTC(SANDBOX_NOW.getUTCFullYear() + 3, 0, 1))))
      : UNKNOWN_DATE,
    vehicle_classes: demo
      ? ['MCWG', 'LMV']
      : rng.sample(['MCWG', 'LMV', 'LMV-NT', 'MCWOG', 'TRANS'], rng.int(1, 3)),
    blood_group: demo ? 'B+' : rng.pick(['A+', 'B+', 'O+', 'AB+', 'O-', 'N/A', 'N/A']),
    has_image: false,
    profile_image: null,
    less_info: false,
  });
}

// ---------- voter ID ----------

export function voterId(params: Params): Envelope {
  const epic = compact(str(params, 'epic_number'));
  const demo = epic === INTEL_DEMO.voterId;
  if (!/^[A-Z]{3}\d{7}$/.test(epic) || (!demo && registryLacks('epic', epic, 0.1))) return kycNotFound();
  const rng = createRng(`epic:${epic}`);
  const p = demo ? richDemoPersona() : personaFor(`epic:${epic}`);
  const home = p.addresses.find((a) => a.type === 'permanent') ?? p.addresses[0]!;
  const ac = rng.int(1, 288);
  return kycOk(rng, 'voter_id', {
    epic_no: epic,
    name: p.legalName,
    name_in_regional_lang: null,
    relation_type: rng.pick(['F', 'F', 'H', 'M']),
    relation_name: `${p.middleName} ${p.lastName}`.toUpperCase(),
    gender: genderLetter(p),
    age: p.age,
    dob: '-',
    state: home.city.state,
    district: home.city.district.toUpperCase(),
    assembly_constituency: `${home.locality.toUpperCase()}`,
    assembly_constituency_number: String(ac),
    parliamentary_constituency: home.city.city.toUpperCase(),
    part_number: String(rng.int(1, 380)),
    part_name: `${home.locality}, ${rng.pick(['Ward', 'Sector', 'Division'])} ${rng.int(1, 40)}`,
    serial_number: String(rng.int(1, 1400)),
    polling_station: `${rng.pick(['Zilla Parishad School', 'Municipal Primary School', 'Community Hall', 'Government High School'])}, ${home.locality}`,
    house_no: home.line.split(',')[0] ?? '-',
    last_update: isoDay(rng.date(yearsBefore(3), yearsBefore(0.5))),
    ...withNameMatch(params, p.legalName),
  });
}

// ---------- passport ----------

export function passport(params: Params): Envelope {
  const file = compact(str(params, 'file_number'));
  const dob = str(params, 'dob');
  const demo = file === INTEL_DEMO.passportFile;
  if (
    !/^[A-Z]{2}\d{13}$/.test(file) ||
    (demo && dob !== INTEL_DEMO.dob) ||
    (!demo && registryLacks('passport', file, 0.12))
  ) {
    return kycNotFound();
  }
  const rng = createRng(`passport:${file}`);
  const p = demo ? richDemoPersona() : personaFor(`passport:${file}`);
  const received = rng.date(yearsBefore(8), yearsBefore(0.1));
  const pending = !demo && rng.chance(0.15);
  const issued = new Date(received.getTime() + rng.int(10, 45) * 86_400_000);
  return kycOk(rng, 'passport', {
    file_number: file,
    full_name: p.legalName,
    dob,
    application_type: rng.pick(['Normal', 'Normal', 'Tatkaal']),
    application_received_date: isoDay(received),
    status: pending ? 'Under Police Verification' : 'Passport Dispatched',
    passport_number: pending ? 'N/A' : p.passport,
    date_of_issue: pending ? UNKNOWN_DATE : isoDay(issued),
    date_of_expiry: pending
      ? UNKNOWN_DATE
      : isoDay(
          new Date(Date.UTC(issued.getUTCFullYear() + 10, issued.getUTCMonth(), issued.getUTCDate() - 1)),
        ),
    ...withNameMatch(params, p.legalName),
  });
}

// ---------- IFSC and bank accounts ----------

const IFSC_SHAPE = /^([A-Z]{4})0([A-Z0-9]{6})$/;

function branchCity(code: string, rng: Rng): City {
  const tag = code.slice(0, 3);
  return (
    CITIES.find((c) =>
      c.city
        .toUpperCase()
        .replace(/[^A-Z]/g, '')
        .startsWith(tag),
    ) ?? rng.pick(CITIES)
  );
}

/** Branch details of an IFSC of one of the sandbox's invented banks, or null. */
export function ifscRecord(ifsc: string): Record<string, unknown> | null {
  const m = IFSC_SHAPE.exec(ifsc);
  const bank = m ? BANKS.find((b) => b.code === m[1]) : undefined;
  if (!m || !bank || ifsc === INTEL_DEMO.ifscUnknown) return null;
  if (ifsc !== INTEL_DEMO.ifsc && registryLacks('ifsc', ifsc, 0.05)) return null;
  const rng = createRng(`ifsc:${ifsc}`);
  const city = branchCity(m[2]!, rng);
  const locality = ifsc === INTEL_DEMO.ifsc ? 'Baner' : rng.pick(city.localities);
  return {
    ifsc,
    bank: bank.name,
    bank_code: bank.code,
    branch: `${locality.toUpperCase()} BRANCH`,
    address: `${rng.pick(['Shop No.', 'Plot No.', 'Ground Floor,'])} ${rng.int(1, 90)}, ${locality}, ${city.city} ${city.pinPrefix}0${rng.int(10, 99)}`,
    city: city.city.toUpperCase(),
    district: city.district.toUpperCase(),
    state: city.state.toUpperCase(),
    centre: city.district.toUpperCase(),
    contact: rng.chance(0.6) ? `+91${city.pinPrefix === '411' ? '20' : '22'}${rng.digits(8)}` : '-',
    micr: rng.chance(0.8) ? `${city.pinPrefix}${rng.digits(6)}` : 'N/A',
    swift: 'N/A',
    iso3166: `IN-${city.stateCode}`,
    upi: true,
    imps: true,
    neft: true,
    rtgs: rng.chance(0.9),
  };
}

export function ifscDetails(params: Params): Envelope {
  const ifsc = compact(str(params, 'ifsc'));
  const record = ifscRecord(ifsc);
  return record ? kycOk(createRng(`ifsc-envelope:${ifsc}`), 'ifsc', record) : kycNotFound();
}

export function bankAccount(params: Params): Envelope {
  const account = str(params, 'account_number').replace(/\s/g, '');
  const ifsc = compact(str(params, 'ifsc'));
  const branch = ifscRecord(ifsc);
  if (!/^\d{9,18}$/.test(account) || !branch) return kycNotFound();
  const rng = createRng(`bank:${account}:${ifsc}`);
  const demo = account === INTEL_DEMO.accountNumber && ifsc === INTEL_DEMO.ifsc;
  const exists = demo || !registryLacks('bank-account', `${account}:${ifsc}`, 0.15);
  const p = demo ? richDemoPersona() : personaFor(`bank:${account}`);
  const phone = str(params, 'phone');
  return kycOk(rng, 'bank_verification', {
    account_exists: exists,
    upi_id: null,
    full_name: exists ? p.legalName : null,
    remarks: exists ? '' : 'Account does not exist or is closed',
    imps_ref_no: exists ? rng.digits(12, '123456789') : '-',
    ifsc_details: branch,
    ...(exists ? withNameMatch(params, p.legalName) : {}),
    ...(phone
      ? {
          input_phone: phone,
          phone_linked: exists && (demo ? phone.slice(-10) === p.mobile : rng.chance(0.5)),
        }
      : {}),
  });
}

// ---------- vehicle RC ----------

export function vehicleRc(params: Params): Envelope {
  return rcDetails(normalizeRc(str(params, 'vehicle_number'))) as unknown as Envelope;
}

// ---------- employment ----------

export function employmentVerification(params: Params): Envelope {
  const phone = str(params, 'phone').slice(-10);
  const pan = str(params, 'pan');
  const uan = str(params, 'uan');
  const dob = str(params, 'dob');
  const employee = str(params, 'employee_name');
  const employer = str(params, 'employer_name');
  let p: Persona;
  let key: string;
  if (phone) [p, key] = [phonePersona(phone), `phone:${phone}`];
  else if (uan)
    [p, key] = [uan === INTEL_DEMO.uan ? richDemoPersona() : personaFor(`uan:${uan}`), `uan:${uan}`];
  else if (pan) [p, key] = [panPersona(pan), `pan:${pan}`];
  else {
    const [first, ...rest] = employee.split(/\s+/);
    const last = rest.at(-1);
    key = `name:${employee.toLowerCase()}:${dob}`;
    p = personaFor(key, { ...(first ? { firstName: first } : {}), ...(last ? { lastName: last } : {}) });
  }
  const demo = p === richDemoPersona();
  if (
    pan === INTEL_DEMO.panUnknown ||
    uan === INTEL_DEMO.uanUnknown ||
    (!demo && registryLacks('employment', key, 0.15))
  ) {
    return kycNotFound();
  }
  const rng = createRng(`employment:${key}`);
  const [current] = employmentRecords(p, rng.fork('records'));
  const establishment = current!.establishment_name;
  const typedWords = (s: string) =>
    s
      .toUpperCase()
      .split(/[^A-Z]+/)
      .filter((w) => w.length > 2);
  const employerMatch = employer
    ? typedWords(employer).some(
        (w) => establishment.includes(w) && !['PRIVATE', 'LIMITED', 'PVT', 'LTD'].includes(w),
      )
    : null;
  const city = p.city;
  return kycOk(rng, 'employment_verification', {
    input: Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '')),
    employee_details: {
      employee_name: p.legalName,
      uan: uanOf(p),
      member_id: current!.member_id,
      date_of_birth: p.dob,
      date_of_joining: current!.date_of_joining,
      date_of_exit: current!.date_of_exit,
      last_pf_submitted: isoDay(rng.date(yearsBefore(0.2), SANDBOX_NOW)),
      is_employed: current!.date_of_exit === UNKNOWN_DATE,
    },
    employer_details: {
      establishment_id: current!.member_id.slice(0, 12),
      establishment_name: establishment,
      setup_date: isoDay(rng.date(yearsBefore(30), yearsBefore(5))),
      ownership_type: rng.pick([
        'Private Limited Company',
        'Limited Liability Partnership',
        'Proprietorship',
      ]),
      address: `${rng.pick(city.localities)}, ${city.city}, ${city.state} ${city.pinPrefix}0${rng.int(10, 99)}`,
      exemption_status: 'N/A',
      employee_count: rng.pick(['20-99', '100-499', '500-999', '-']),
    },
    matches: {
      employee_name: employee ? nameMatch(employee, p.legalName).name_match : null,
      employer_name: employerMatch,
      dob: dob ? dob === p.dob : null,
      pan: pan ? key === `pan:${pan}` || pan === p.pan : null,
    },
    other_employers: employmentRecords(p, rng.fork('records'))
      .slice(1)
      .map((r) => r.establishment_name),
  });
}
