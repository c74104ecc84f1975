/**
 * Synthetic personas. A persona is everything the sandbox "knows" about one fictional person; each
 * source generator shows a part of it, in that source's own words, with its own gaps and errors.
 *
 * A phone query's persona is seeded by the number's last 10 digits, an e-mail query's by the address.
 * Names are drawn at random from common given names and surnames, identity numbers are random values
 * in the right format, addresses are invented buildings in real localities, and every e-mail address
 * is on a reserved domain. Phone numbers the persona is "linked" to (other than the one queried) are
 * in the unallocated 5-series (5xxxxxxxxx), so they cannot be a real subscriber's number.
 */

import { createRng, hashFraction, isoDay, type Rng, SANDBOX_NOW, yearsBefore } from '../random.ts';
import {
  BANKS,
  BUILDINGS,
  CARRIERS,
  type CarrierKey,
  CITIES,
  type City,
  COLLEGES,
  DEGREES,
  EMPLOYERS,
  FEMALE_FIRST,
  INCOME_BANDS,
  LAST,
  MALE_FIRST,
  MIDDLE,
  OCCUPATIONS,
  SCHOOLS,
  type Sector,
  SKILLS,
  TITLES,
  UPI_HANDLES,
} from '../words.ts';
import { avatarDataUrl } from './images.ts';

export type Gender = 'Male' | 'Female';

export interface Address {
  type: 'permanent' | 'correspondence';
  /** House / flat, building and locality. */
  line: string;
  locality: string;
  city: City;
  pincode: string;
  /** When a KYC bureau last saw this address (YYYY-MM-DD). */
  reportedDate: string;
  /** An address the persona has since moved from. */
  old: boolean;
}

export interface Education {
  school: string;
  url?: string;
  degree: string;
  field: string;
  startYear: number;
  endYear: number;
}

export interface Position {
  title: string;
  company: string;
  url: string;
  startYear: number;
  /** Absent for the current position. */
  endYear?: number;
}

export const IDENTITY_KINDS = [
  'pan_number',
  'aadhaar_number',
  'voter_id',
  'driving_license',
  'passport_number',
  'ration_card',
] as const;
export type IdentityKindKey = (typeof IDENTITY_KINDS)[number];

export interface Persona {
  seed: string;
  firstName: string;
  middleName: string;
  lastName: string;
  /** 'First Last', as people write it themselves. */
  fullName: string;
  /** 'FIRST MIDDLE LAST', as on government documents. */
  legalName: string;
  /** What friends save the number as. */
  alias: string;
  gender: Gender;
  dob: string;
  age: number;
  city: City;
  hometown: City;
  addresses: Address[];
  sector: Sector;
  occupation: string;
  employer: string;
  jobTitle: string;
  incomeBand: string;
  /** The persona's own 10-digit mobile (the queried one for phone personas). */
  mobile: string;
  /** Other numbers linked to the persona: unallocated 5-series only. */
  otherMobiles: string[];
  emails: string[];
  usernames: string[];
  /** Identity documents the persona has on file (values below exist for every kind regardless). */
  idKinds: IdentityKindKey[];
  pan: string;
  aadhaar: string;
  aadhaarMasked: string;
  voterId: string;
  drivingLicence: string;
  passport: string;
  rationCard: string;
  bank: { name: string; accountNo: string; ifsc: string; branch: string; micr: string };
  upiIds: string[];
  rcNumbers: string[];
  carrier: { original: CarrierKey; current: CarrierKey; ported: boolean };
  education: Education[];
  positions: Position[];
  skills: string[];
  avatar: string;
  /** 0–1: how much of a trace this person leaves. Shifts every source's chance of "not found". */
  footprint: number;
}

export interface PersonaHints {
  firstName?: string;
  lastName?: string;
}

const cap = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1).toLowerCase() : s);

/** A 5-series (unallocated in India) 10-digit number: safe to show as a "linked" number. */
export function syntheticMobile(rng: Rng): string {
  return `5${rng.digits(9)}`;
}

function pickCarrier(rng: Rng): CarrierKey {
  return rng.weighted<CarrierKey>([
    ['jio', 40],
    ['airtel', 33],
    ['vi', 19],
    ['bsnl', 8],
  ]);
}

function addressIn(rng: Rng, city: City, type: Address['type'], reported: Date, old: boolean): Address {
  const locality = rng.pick(city.localities);
  const house = rng.chance(0.6)
    ? `Flat ${rng.int(1, 14)}0${rng.int(1, 8)}, ${rng.pick(BUILDINGS)}`
    : `House No. ${rng.int(2, 480)}, ${rng.pick(['Lane', 'Road', 'Gali', 'Street'])} ${rng.int(1, 22)}`;
  return {
    type,
    line: `${house}, ${locality}`,
    locality,
    city,
    pincode: `${city.pinPrefix}0${String(rng.int(1, 99)).padStart(2, '0')}`,
    reportedDate: isoDay(reported),
    old,
  };
}

/** The one-line form people and most sources use. */
export function formatAddress(a: Address): string {
  return `${a.line}, ${a.city.city}, ${a.city.state} - ${a.pincode}`;
}

/** Upper-case, comma-free, as KYC bureaus print it (state and PIN in their own fields). */
export function bureauAddress(a: Address): string {
  return `${a.line}, ${a.city.city}`.toUpperCase().replace(/[,.]/g, '').replace(/\s+/g, ' ');
}

/** 12 digits, first 2–9 (Aadhaar never starts with 0 or 1). */
function aadhaarNumber(rng: Rng): string {
  return rng.digits(12, '23456789');
}

export function maskAadhaar(aadhaar: string): string {
  return `XXXX XXXX ${aadhaar.slice(-4)}`;
}

/** RC numbers the detail lookup knows about: about 10 % of arbitrary RC numbers are "not found". */
export function rcIsKnown(rc: string): boolean {
  return hashFraction(`rc-known:${rc}`) >= 0.1;
}

/** UPI ids that resolve to an account: about 15 % of arbitrary ids do not. */
export function upiExists(upi: string): boolean {
  return hashFraction(`upi-exists:${upi.toLowerCase()}`) >= 0.15;
}

export function rcNumberFor(rng: Rng, city: City): string {
  for (;;) {
    const series = rng.chance(0.85) ? rng.letters(2) : rng.letters(1);
    const rc = `${city.stateCode}${rng.pick(city.rto)}${series}${rng.digits(4, '123456789')}`;
    // The persona's own vehicles are always on the registry.
    if (rcIsKnown(rc)) return rc;
  }
}

function upiIdsFor(rng: Rng, first: string, last: string, mobile: string): string[] {
  const ids: string[] = [];
  const nameHandle = (): string => {
    for (;;) {
      const local = rng.pick([
        `${first}.${last}`,
        `${first}${last}${rng.int(1, 99)}`,
        `${first}.${last[0]}${rng.int(10, 99)}`,
        `${first}${rng.int(1980, 2005)}`,
      ]);
      const id = `${local.toLowerCase()}@${rng.pick(UPI_HANDLES)}`;
      if (upiExists(id)) return id;
    }
  };
  const mobileHandle = (): string => {
    // Try the handles in a random order until one is "registered"; a mobile UPI id rarely misses all.
    for (const handle of rng.shuffle(['ybl', 'paytm', 'ibl', 'axl'])) {
      const id = `${mobile}@${handle}`;
      if (upiExists(id)) return id;
    }
    return `${mobile}@ybl`;
  };
  const count = rng.weighted([
    [1, 50],
    [2, 35],
    [3, 15],
  ]);
  ids.push(rng.chance(0.55) ? mobileHandle() : nameHandle());
  while (ids.length < count) {
    const id = nameHandle();
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Splits 'priya.sharma', 'priya_sharma92' or 'priyasharma' (when the first name is known) into names. */
export function namesFromLocalPart(local: string): PersonaHints {
  const m = /^([a-z]{2,})[._-]([a-z]{2,})\d*$/i.exec(local);
  if (m) return { firstName: cap(m[1]!), lastName: cap(m[2]!) };
  const lower = local.toLowerCase().replace(/\d+$/, '');
  for (const first of [...MALE_FIRST, ...FEMALE_FIRST]) {
    if (lower.startsWith(first.toLowerCase())) {
      const rest = lower.slice(first.length);
      const last = LAST.find((l) => l.toLowerCase() === rest);
      return last ? { firstName: first, lastName: last } : { firstName: first };
    }
  }
  return {};
}

/**
 * Every source of one lookup asks for the same persona; a small cache keeps that to one build per
 * query. Personas are plain data derived from the seed, so sharing one is safe as long as nobody
 * mutates it (generators copy what they change).
 */
const personaCache = new Map<string, Persona>();
const PERSONA_CACHE_SIZE = 512;

export function personaFor(seed: string, hints: PersonaHints = {}): Persona {
  const key = `${seed}\u0000${hints.firstName ?? ''}\u0000${hints.lastName ?? ''}`;
  const cached = personaCache.get(key);
  if (cached) return cached;
  const persona = buildPersona(seed, hints);
  if (personaCache.size >= PERSONA_CACHE_SIZE) personaCache.delete(personaCache.keys().next().value!);
  personaCache.set(key, persona);
  return persona;
}

function buildPersona(seed: string, hints: PersonaHints): Persona {
  const rng = createRng(`persona:${seed}`);

  const hintedFirst = hints.firstName;
  let gender: Gender;
  if (hintedFirst && (MALE_FIRST as readonly string[]).includes(hintedFirst)) gender = 'Male';
  else if (hintedFirst && (FEMALE_FIRST as readonly string[]).includes(hintedFirst)) gender = 'Female';
  else gender = rng.chance(0.55) ? 'Male' : 'Female';

  const firstName = hintedFirst ?? rng.pick(gender === 'Male' ? MALE_FIRST : FEMALE_FIRST);
  const lastName = hints.lastName ?? rng.pick(LAST);
  const middleName = rng.pick(MIDDLE);
  const fullName = `${firstName} ${lastName}`;
  const legalName = `${firstName} ${middleName} ${lastName}`.toUpperCase();

  const birth = rng.date(yearsBefore(62), yearsBefore(19));
  const dob = isoDay(birth);
  const age = Math.floor((SANDBOX_NOW.getTime() - birth.getTime()) / (365.25 * 86_400_000));

  const hometown = rng.pick(CITIES);
  const city = rng.chance(0.55) ? hometown : rng.pick(CITIES);
  const addresses: Address[] = [
    addressIn(rng, hometown, 'permanent', rng.date(yearsBefore(9), yearsBefore(3)), false),
    addressIn(rng, city, 'correspondence', rng.date(yearsBefore(2), yearsBefore(0.1)), false),
  ];
  if (rng.chance(0.6)) {
    // A previous rented place: bureaus and old leaks still carry it.
    const previous = rng.chance(0.5) ? city : rng.pick(CITIES);
    addresses.push(
      addressIn(rng, previous, 'correspondence', rng.date(yearsBefore(8), yearsBefore(3)), true),
    );
  }

  const employer = rng.pick(EMPLOYERS);
  const sector = employer.sector;
  const jobTitle = rng.pick(TITLES[sector]);
  const incomeBand = rng.pick(INCOME_BANDS.slice(age < 26 ? 0 : 1, age < 26 ? 3 : INCOME_BANDS.length));

  const mobile = seed.match(/^\d{10}$/) ? seed : syntheticMobile(rng);
  const otherMobiles = Array.from({ length: rng.int(1, 2) }, () => syntheticMobile(rng));

  const f = firstName.toLowerCase();
  const l = lastName.toLowerCase();
  const yy = String(birth.getUTCFullYear()).slice(2);
  const emails = rng
    .sample(
      [
        `${f}.${l}${yy}@example.test`,
        `${f}${l[0]}${rng.int(10, 999)}@example.com`,
        `${l}.${f}@example.org`,
        `${f}_${l}@example.net`,
        `${f}${yy}@example.test`,
      ],
      rng.int(1, 3),
    )
    .concat(rng.chance(0.4) ? [`${f}.${l}@${employer.slug}.example.com`] : []);
  const usernames = rng.sample(
    [
      `${f}_${l}`,
      `${f}${l}${yy}`,
      `${f}.${l[0]}`,
      `the_${f}${rng.int(1, 99)}`,
      `${f}${l.slice(0, 3)}${rng.int(1, 9)}`,
    ],
    rng.int(2, 3),
  );

  const idKinds = IDENTITY_KINDS.filter((kind) => {
    const p = {
      pan_number: 0.9,
      aadhaar_number: 0.75,
      voter_id: 0.45,
      driving_license: 0.4,
      passport_number: 0.2,
      ration_card: 0.15,
    }[kind];
    return rng.chance(p);
  });
  const pan = `${rng.letters(3)}P${lastName[0]!.toUpperCase()}${rng.digits(4)}${rng.letters(1)}`;
  const aadhaar = aadhaarNumber(rng);
  const voterId = `${rng.letters(3)}${rng.digits(7)}`;
  const licenceYear = Math.min(birth.getUTCFullYear() + rng.int(18, 30), SANDBOX_NOW.getUTCFullYear());
  const drivingLicence = `${hometown.stateCode}${rng.pick(hometown.rto).replace(/\D/g, '0').padStart(2, '0')}${licenceYear}${rng.digits(7)}`;
  const passport = `${rng.letters(1, 'ABCGHJKLMNPRSTUVWZ')}${rng.digits(7, '123456789')}`;
  const rationCard = rng.digits(12, '123456789');

  const bankDef = rng.pick(BANKS);
  const bank = {
    name: bankDef.name,
    accountNo: rng.digits(rng.pick([11, 12, 14, 15]), '123456789'),
    ifsc: `${bankDef.code}0${rng.letters(3)}${rng.digits(3)}`,
    branch: `${rng.pick(city.localities)} Branch`,
    micr: `${city.pinPrefix}${rng.digits(6)}`,
  };

  const upiIds = upiIdsFor(rng, f, l, mobile);
  const rcNumbers = Array.from(
    {
      length: rng.weighted([
        [0, 30],
        [1, 50],
        [2, 20],
      ] as const),
    },
    () => rcNumberFor(rng, rng.chance(0.8) ? city : hometown),
  );

  const original = pickCarrier(rng);
  const ported = rng.chance(0.25);
  const current = ported
    ? rng.pick((Object.keys(CARRIERS) as CarrierKey[]).filter((k) => k !== original))
    : original;

  const gradYear = birth.getUTCFullYear() + rng.int(21, 23);
  const [degree, field] = rng.pick(DEGREES[sector]);
  const college = rng.pick(COLLEGES);
  const education: Education[] = [
    {
      school: college.name,
      url: `https://www.${college.slug}.example.org`,
      degree,
      field,
      startYear: gradYear - (degree.startsWith('M') ? 2 : 4),
      endYear: gradYear,
    },
  ];
  if (rng.chance(0.5)) {
    const school = rng.pick(SCHOOLS);
    education.push({
      school: `${school}, ${hometown.city}`,
      degree: 'Higher Secondary (XII)',
      field: rng.pick(['Science', 'Commerce', 'Arts']),
      startYear: gradYear - 6,
      endYear: gradYear - 4,
    });
  }

  const positions: Position[] = [];
  let year = SANDBOX_NOW.getUTCFullYear();
  const jobs = Math.max(1, Math.min(rng.int(1, 4), year - gradYear));
  for (let i = 0; i < jobs; i++) {
    const company =
      i === 0 ? employer : rng.pick(EMPLOYERS.filter((e) => e.sector === sector || rng.chance(0.2)));
    const start = Math.max(gradYear, year - rng.int(1, 5));
    positions.push({
      title: i === 0 ? jobTitle : rng.pick(TITLES[company.sector]),
      company: company.name,
      url: `https://www.${company.slug}.example.com`,
      startYear: start,
      ...(i === 0 ? {} : { endYear: year }),
    });
    year = start;
    if (year <= gradYear) break;
  }

  return {
    seed,
    firstName,
    middleName,
    lastName,
    fullName,
    legalName,
    alias: rng.chance(0.5) ? firstName : `${firstName} ${lastName[0]}`,
    gender,
    dob,
    age,
    city,
    hometown,
    addresses,
    sector,
    occupation: OCCUPATIONS[sector],
    employer: employer.name,
    jobTitle,
    incomeBand,
    mobile,
    otherMobiles,
    emails,
    usernames,
    idKinds,
    pan,
    aadhaar,
    aadhaarMasked: maskAadhaar(aadhaar),
    voterId,
    drivingLicence,
    passport,
    rationCard,
    bank,
    upiIds,
    rcNumbers,
    carrier: { original, current, ported },
    education,
    positions,
    skills: rng.sample(SKILLS[sector], rng.int(3, 6)),
    avatar: avatarDataUrl(fullName),
    footprint: rng.next(),
  };
}
