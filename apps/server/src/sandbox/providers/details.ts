/**
 * Paid detail lookups: RC full details, UPI details and challans. Each returns the KYC vendor envelope
 * that the server passes through as `data`.
 *
 * Not-found conventions:
 *   rc       about 10 % of RC numbers (and the demo 'KA01FP0000') are unknown: envelope
 *            { data: null, status_code: 422, success: false, message: 'No records found', message_code: 'not_found' }.
 *            RC numbers a persona owns are always known.
 *   upi      about 15 % of UPI ids have no account: 200 envelope with data.account_exists false.
 *   challan  never "not found": an RC without challans (about 45 %, and every unknown RC) answers
 *            challan_details [].
 *
 * The owner of a demo RC is the rich demo persona; any other RC's owner is a persona seeded by the RC
 * number (registries often name a relative or an earlier owner, so disagreeing with the phone's
 * persona is realistic). A UPI id's holder follows its local part: a 10-digit mobile resolves to that
 * number's persona, 'first.last' to those names.
 */
import type {
  Challan,
  ChallanData,
  IntelKind,
  KindSource,
  KycEnvelope,
  RcDetails,
  UpiDetails,
} from '@footprint/domain';
import type { ProviderQuery } from '../../providers/types.ts';
import {
  createRng,
  daysAfter,
  indianDay,
  isoDateTime,
  isoDay,
  type Rng,
  SANDBOX_NOW,
  yearsBefore,
} from '../random.ts';
import { BANKS, CITIES, type City, COLOURS, INSURERS, OFFENCES, VEHICLES } from '../words.ts';
import { kycNotFound, kycOk } from './common.ts';
import { DEMO, phonePersona, richDemoPersona } from './demo.ts';
import {
  bureauAddress,
  namesFromLocalPart,
  type Persona,
  personaFor,
  rcIsKnown,
  upiExists,
} from './persona.ts';

/** 'mh-12 fp 1234' → 'MH12FP1234'. */
export function normalizeRc(rc: string): string {
  return rc.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

function isDemoRc(rc: string): boolean {
  return rc === DEMO.rcWithChallans || rc === DEMO.rcClean;
}

function rcKnown(rc: string): boolean {
  return isDemoRc(rc) || (rc !== DEMO.rcUnknown && rcIsKnown(rc));
}

function rcOwner(rc: string): Persona {
  return isDemoRc(rc) ? richDemoPersona() : personaFor(`rc:${rc}`);
}

function rcCity(rc: string, owner: Persona): City {
  const state = rc.slice(0, 2);
  const rto = rc.slice(2, 4);
  return (
    CITIES.find((c) => c.stateCode === state && c.rto.includes(rto)) ??
    CITIES.find((c) => c.stateCode === state) ??
    owner.city
  );
}

function rcVehicle(rc: string): (typeof VEHICLES)[number] {
  if (rc === DEMO.rcWithChallans) return VEHICLES[1]!;
  if (rc === DEMO.rcClean) return VEHICLES[4]!;
  return createRng(`rc-vehicle:${rc}`).pick(VEHICLES);
}

/** A VIN-like chassis number with the tail masked, as RC answers print it. */
function chassis(rng: Rng): string {
  return `MA${rng.letters(1)}${rng.letters(3, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789')}${rng.digits(6)}XXXXX`;
}

export function rcDetails(rawRc: string): KycEnvelope<RcDetails> {
  const rc = normalizeRc(rawRc);
  if (!rcKnown(rc)) return kycNotFound();
  const rng = createRng(`rc:${rc}`);
  const owner = rcOwner(rc);
  const city = rcCity(rc, owner);
  const vehicle = rcVehicle(rc);
  const registered = rng.date(yearsBefore(13), yearsBefore(1));
  const regYear = registered.getUTCFullYear();
  const financed = rc === DEMO.rcWithChallans || (rc !== DEMO.rcClean && rng.chance(0.4));
  const insuranceUpto = daysAfter(rng.int(-120, 330));
  const insured = insuranceUpto > SANDBOX_NOW || rng.chance(0.5);
  const present = owner.addresses.find((a) => a.type === 'correspondence' && !a.old) ?? owner.addresses[0]!;
  const permanent = owner.addresses.find((a) => a.type === 'permanent') ?? present;
  const twoWheeler = vehicle.category === '2WN';

  return kycOk(rng, 'rc_full', {
    rc_number: rc,
    registration_date: isoDay(registered),
    owner_name: owner.legalName,
    father_name: `${owner.middleName} ${owner.lastName}`.toUpperCase(),
    present_address: `${bureauAddress(present)}, ${present.city.state.toUpperCase()}, ${present.pincode}`,
    permanent_address: `${bureauAddress(permanent)}, ${permanent.city.state.toUpperCase()}, ${permanent.pincode}`,
    mobile_number: null,
    vehicle_category: vehicle.category,
    vehicle_category_description: twoWheeler ? 'M-Cycle/Scooter(2WN)' : 'Motor Car(LMV)',
    vehicle_chasi_number: chassis(rng),
    vehicle_engine_number: `${rng.letters(2)}${rng.digits(5)}XXXXX`,
    maker_description: vehicle.maker,
    maker_model: vehicle.model,
    body_type: vehicle.body,
    fuel_type: vehicle.fuel,
    color: rng.pick(COLOURS),
    norms_type: regYear >= 2020 ? 'BHARAT STAGE VI' : 'BHARAT STAGE IV',
    fit_up_to: isoDay(
      new Date(Date.UTC(regYear + 15, registered.getUTCMonth(), registered.getUTCDate() - 1)),
    ),
    financer: financed ? `${rng.pick(BANKS).name.toUpperCase()}` : '',
    financed,
    insurance_company: insured ? rng.pick(INSURERS) : null,
    insurance_policy_number: insured
      ? `${rng.digits(4, '123456789')}/${rng.digits(8)}/${rng.letters(2)}/${regYear}`
      : '',
    insurance_upto: insured ? isoDay(insuranceUpto) : null,
    manufacturing_date: `${registered.getUTCMonth() + 1}/${regYear}`,
    manufacturing_date_formatted: `${regYear}-${String(registered.getUTCMonth() + 1).padStart(2, '0')}`,
    registered_at: `${city.city.toUpperCase()} RTO, ${city.stateCode}`,
    latest_by: isoDay(rng.date(yearsBefore(1), SANDBOX_NOW)),
    less_info: false,
    tax_upto: twoWheeler || rng.chance(0.7) ? 'LTT' : isoDay(daysAfter(rng.int(30, 900))),
    tax_paid_upto: 'LTT',
    cubic_capacity: vehicle.cc,
    vehicle_gross_weight: twoWheeler ? '270' : String(rng.int(1400, 2600)),
    no_cylinders: twoWheeler ? '1' : vehicle.fuel.startsWith('ELECTRIC') ? '0' : rng.pick(['3', '4']),
    seat_capacity: vehicle.seats,
    sleeper_capacity: twoWheeler ? null : '0',
    standing_capacity: '0',
    wheelbase: twoWheeler ? '1260' : String(rng.int(2380, 2750)),
    unladen_weight: twoWheeler ? '107' : String(rng.int(870, 1900)),
    vehicle_number: rc,
    pucc_number: rng.chance(0.7) ? `${city.stateCode}${rng.digits(2)}${rng.digits(10)}` : '',
    pucc_upto: rng.chance(0.7) ? isoDay(daysAfter(rng.int(-60, 360))) : null,
    permit_number: '',
    permit_issue_date: null,
    permit_valid_from: null,
    permit_valid_upto: null,
    permit_type: 'NA',
    national_permit_number: 'NA',
    national_permit_upto: null,
    national_permit_issued_by: '',
    non_use_status: null,
    non_use_from: null,
    non_use_to: null,
    blacklist_status: rng.chance(0.05) ? 'BLACKLISTED' : '',
    noc_details: 'NA',
    owner_number:
      rc === DEMO.rcWithChallans
        ? '1'
        : String(
            rng.weighted([
              [1, 80],
              [2, 17],
              [3, 3],
            ] as const),
          ),
    rc_status: rng.weighted([
      ['ACTIVE', 92],
      ['SUSPENDED', 3],
      ['NOT AVAILABLE', 5],
    ] as const),
    masked_name: false,
    challan_details: null,
    variant: null,
  });
}

function titleFromLocal(local: string): { first?: string; last?: string } {
  const hints = namesFromLocalPart(local);
  return { first: hints.firstName, last: hints.lastName };
}

export function upiDetails(rawUpi: string): KycEnvelope<UpiDetails> {
  const upi = rawUpi.trim();
  const key = upi.toLowerCase();
  const rng = createRng(`upi:${key}`);
  const demo = key === DEMO.upi || key === DEMO.upiMobile;
  const exists = demo || (key !== DEMO.upiMissing && upiExists(key));
  if (!exists) return kycOk(rng, 'upi_verification', { account_exists: false, upi_id: upi, full_name: null });

  const local = key.split('@')[0] ?? key;
  let holder: Persona;
  if (demo) holder = richDemoPersona();
  else if (/^\d{10}$/.test(local)) holder = phonePersona(local);
  else {
    const { first, last } = titleFromLocal(local);
    holder = personaFor(`upi:${key}`, { firstName: first, lastName: last });
  }
  // Mobile-number handles carry the bank's full registered name; name handles often just first + last.
  const fullName =
    demo || /^\d{10}$/.test(local) || rng.chance(0.5) ? holder.legalName : holder.fullName.toUpperCase();
  return kycOk(rng, 'upi_verification', {
    account_exists: true,
    upi_id: upi,
    full_name: fullName,
    ifsc: demo || rng.chance(0.6) ? holder.bank.ifsc : null,
    remarks: '',
  });
}

function challan(rng: Rng, rc: string, owner: Persona, city: City, pending: boolean): Challan {
  const number = `${city.stateCode}${rng.digits(17, '1234')}`;
  const when = rng.date(yearsBefore(4), yearsBefore(0.05));
  const twoWheeler = rcVehicle(rc).category === '2WN';
  const offence = rng.pick([...OFFENCES.any, ...(twoWheeler ? OFFENCES.twoWheeler : OFFENCES.car)]);
  const amount = rng.pick([500, 1000, 1500, 2000, 200]);
  return {
    challan_number: number,
    challan_date: isoDateTime(when),
    amount: rng.chance(0.5) ? amount : String(amount),
    offense_details: offence,
    challan_status: pending ? 'Pending' : rng.pick(['Disposed', 'Paid']),
    state: city.stateCode,
    payment_url: pending ? `https://echallan.example.test/pay/${number}` : null,
    accused_name: owner.legalName,
    rc_number: rc,
    rto_name: `${city.city.toUpperCase()} RTO`,
    court_challan: pending && rng.chance(0.3),
    payment_date: pending ? null : indianDay(new Date(when.getTime() + rng.int(2, 60) * 86_400_000)),
    payment_source: pending ? '' : rng.pick(['Online', 'Paytm', 'Court']),
  };
}

export function challanDetails(rawRc: string): KycEnvelope<ChallanData> {
  const rc = normalizeRc(rawRc);
  const rng = createRng(`challan:${rc}`);
  let count: number;
  let pendingCount: number;
  if (rc === DEMO.rcWithChallans) [count, pendingCount] = [3, 2];
  else if (rc === DEMO.rcClean || !rcKnown(rc)) [count, pendingCount] = [0, 0];
  else {
    count = rng.weighted([
      [0, 45],
      [1, 25],
      [2, 15],
      [3, 10],
      [4, 5],
    ] as const);
    pendingCount = rng.int(0, count);
  }
  const owner = rcOwner(rc);
  const city = rcCity(rc, owner);
  const challans = Array.from({ length: count }, (_, i) =>
    challan(rng, rc, owner, city, i < pendingCount),
  ).sort((a, b) => String(b.challan_date).localeCompare(String(a.challan_date)));
  return kycOk(rng, 'challan', { rc_number: rc, challan_details: challans, total_challans: count });
}

/**
 * The synthetic answer of every search answered whole by one source, other than corporate and
 * verification (intel.ts): keyed by the kind, so a new paid kind's generator goes here and the
 * compiler asks for it (`KindSource` grows with the domain's kind table).
 */
export const KIND_ANSWERS: Record<Exclude<KindSource, IntelKind>, (query: ProviderQuery) => unknown> = {
  rc: (query) => rcDetails(query.value),
  upi: (query) => upiDetails(query.value),
  challan: (query) => challanDetails(query.value),
};
