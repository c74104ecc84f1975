/**
 * Synthetic leak records for the sandbox: 7 invented breach sources with their own column sets, people
 * who show up in 1–3 of them (formatted differently in each, as real dumps do), a few very common
 * names so that name searches page deep, and the fixed demo identity of the lookup sandbox.
 *
 * Deterministic: record n of seed s is the same on every run, and a smaller count is a prefix of a
 * larger one. Only reserved e-mail domains, 5-series phone numbers (the demo's 9876543210 aside) and
 * documentation IP ranges. No password, hash or other credential column is ever generated.
 */

import type { LeakColumnMapping } from '../../modules/leaks/import/record.ts';
import { createRng, type Rng } from '../random.ts';
import {
  DOCUMENTATION_IP_PREFIXES,
  FEMALE_FIRST,
  INTL_CITIES,
  INTL_FEMALE_FIRST,
  INTL_LAST,
  INTL_MALE_FIRST,
  LAST,
  LEAK_CITIES,
  LEAK_EMAIL_DOMAINS,
  LEAK_HOUSE_FORMATS,
  LEAK_MALE_FIRST,
  LEAK_SOCIETIES,
  type LeakCity,
  MIDDLE,
  NEWSLETTER_LISTS,
} from '../words.ts';

// ---------------------------------------------------------------- people

interface Persona {
  indian: boolean;
  gender: 'male' | 'female';
  first: string;
  middle: string | null;
  last: string;
  dob: { y: number; m: number; d: number };
  /** 10 digits, 5-series. */
  phone: string;
  email: string;
  altEmail: string;
  username: string;
  city: LeakCity | null;
  intlCity: { city: string; country: string } | null;
  houseLine: string;
  locality: string;
  pincode: string;
}

/** Names common enough that a name search pages deep (share of people, in order tried). */
const COMMON_NAMES: readonly {
  share: number;
  first: string;
  last: string;
  gender: 'male' | 'female';
  indian: boolean;
}[] = [
  { share: 0.04, first: 'Priya', last: 'Sharma', gender: 'female', indian: true },
  { share: 0.015, first: 'Rahul', last: 'Kumar', gender: 'male', indian: true },
  { share: 0.01, first: 'Amit', last: 'Patel', gender: 'male', indian: true },
  { share: 0.005, first: 'José', last: 'García', gender: 'male', indian: false },
];

/** Demo values no generated person may take (they belong to the demo identity). */
const RESERVED = new Set([
  'rich.demo@example.test',
  'rohan.deshmukh90@example.com',
  'rohand90',
  'the_rohan17',
  '9876543210',
]);

const FOLD: Record<string, string> = { ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', ı: 'i', ß: 'ss', æ: 'ae', Æ: 'AE' };

/** 'Ångström' → 'angstrom', "O'Brien" → 'obrien': for e-mail local parts and usernames. */
export function asciiHandle(value: string): string {
  return value
    .replace(/[øØłŁıßæÆ]/g, (c) => FOLD[c] as string)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function makePersona(rng: Rng): Persona {
  let indian = rng.chance(0.75);
  let gender: 'male' | 'female' = rng.chance(0.5) ? 'male' : 'female';
  let first: string;
  let last: string;
  const roll = rng.next();
  let acc = 0;
  const common = COMMON_NAMES.find((name) => {
    acc += name.share;
    return roll < acc;
  });
  if (common) {
    ({ first, last, gender, indian } = common);
  } else if (indian) {
    first = rng.pick(gender === 'male' ? LEAK_MALE_FIRST : FEMALE_FIRST);
    last = rng.pick(LAST);
  } else {
    first = rng.pick(gender === 'male' ? INTL_MALE_FIRST : INTL_FEMALE_FIRST);
    last = rng.pick(INTL_LAST);
  }
  const middle = indian && rng.chance(0.4) ? rng.pick(MIDDLE) : null;
  const dob = { y: rng.int(1965, 2004), m: rng.int(1, 12), d: rng.int(1, 28) };

  let phone = `5${rng.digits(9)}`;
  const f = asciiHandle(first);
  const l = asciiHandle(last);
  const n = String(rng.int(100, 9999));
  const local = rng.pick([`${f}.${l}${n}`, `${f}${l}${n}`, `${f[0]}${l}${n}`, `${f}_${n}`, `${l}.${f}${n}`]);
  let email = `${local}@${rng.pick(LEAK_EMAIL_DOMAINS)}`;
  let altEmail = `${rng.pick([`${f}${dob.y}`, `${f}.${l[0]}${n}`, `${l}${f}${n}`])}@${rng.pick(LEAK_EMAIL_DOMAINS)}`;
  let username = rng.pick([`${f}_${l}${n}`, `${f}${n}`, `the_${f}${n}`, `${f[0]}${l}${n}`, `${l}_${f}_${n}`]);
  while (RESERVED.has(phone)) phone = `5${rng.digits(9)}`;
  if (RESERVED.has(email)) email = `x.${email}`;
  if (RESERVED.has(altEmail)) altEmail = `x.${altEmail}`;
  if (RESERVED.has(username)) username = `x_${username}`;

  const city = indian ? rng.pick(LEAK_CITIES) : null;
  const houseNumber = String(rng.int(1, 20) * 100 + rng.int(1, 12));
  const houseLine = rng
    .pick(LEAK_HOUSE_FORMATS)
    .replace('{n}', houseNumber)
    .replace('{s}', String(rng.int(1, 240)));
  return {
    indian,
    gender,
    first,
    middle,
    last,
    dob,
    phone,
    email,
    altEmail,
    username,
    city,
    intlCity: indian ? null : rng.pick(INTL_CITIES),
    houseLine: `${houseLine}, ${rng.pick(LEAK_SOCIETIES)}`,
    locality: city ? rng.pick(city.localities) : '',
    pincode: city ? `${city.pinPrefix}${pad2(rng.int(1, 60)).padStart(3, '0')}` : '',
  };
}

// ---------------------------------------------------------------- sources

export interface SandboxLeakSource {
  name: string;
  breachDate: string;
  description: string;
  /** How the source's columns map onto record fields (as an operator would give it to the importer). */
  mapping: LeakColumnMapping;
}

interface SourceSpec extends SandboxLeakSource {
  /** Weight for Indian and for international people; 0 = never. */
  weights: { indian: number; intl: number };
  row(person: Persona, rng: Rng): Record<string, string>;
}

const fullName = (p: Persona) => (p.middle ? `${p.first} ${p.middle} ${p.last}` : `${p.first} ${p.last}`);
const isoDob = (p: Persona) => `${p.dob.y}-${pad2(p.dob.m)}-${pad2(p.dob.d)}`;
const ip = (rng: Rng) => `${rng.pick(DOCUMENTATION_IP_PREFIXES)}${rng.int(1, 254)}`;
const stamp = (rng: Rng, fromYear: number, toYear: number) =>
  `${rng.int(fromYear, toYear)}-${pad2(rng.int(1, 12))}-${pad2(rng.int(1, 28))} ${pad2(rng.int(0, 23))}:${pad2(
    rng.int(0, 59),
  )}:${pad2(rng.int(0, 59))}`;
const day = (rng: Rng, fromYear: number, toYear: number) =>
  `${rng.int(fromYear, toYear)}-${pad2(rng.int(1, 12))}-${pad2(rng.int(1, 28))}`;

/** Dumps disagree on case: some keep what the user typed. */
const typedEmail = (p: Persona, rng: Rng) =>
  rng.chance(0.15) ? p.email.replace(/^./, (c) => c.toUpperCase()).replace(/@ex/, '@Ex') : p.email;

const indianAddress = (p: Persona) =>
  p.city ? `${p.houseLine}, ${p.locality}, ${p.city.city}, ${p.city.state} ${p.pincode}` : '';

const SOURCES: readonly SourceSpec[] = [
  {
    name: 'Chatterbox Social',
    breachDate: '2019-08-14',
    description: 'Sandbox (synthetic): profile export of a fictional social network.',
    mapping: { username: 'username', email: 'email', full_name: 'name' },
    weights: { indian: 3, intl: 4 },
    row: (p, rng) => ({
      username: p.username,
      email: typedEmail(p, rng),
      full_name: `${p.first} ${p.last}`,
      gender: rng.chance(0.05) ? 'unspecified' : p.gender,
      dob: isoDob(p),
      signup_ip: ip(rng),
      last_login: stamp(rng, 2016, 2019),
    }),
  },
  {
    name: 'QuickKart Shopping',
    breachDate: '2021-03-04',
    description: 'Sandbox (synthetic): customer table of a fictional Indian e-commerce shop.',
    mapping: { customer_name: 'name', mobile: 'phone', email: 'email', address: 'address' },
    weights: { indian: 4, intl: 0 },
    row: (p, rng) => ({
      customer_name: fullName(p),
      mobile: rng.pick([
        `+91 ${p.phone.slice(0, 5)} ${p.phone.slice(5)}`,
        `+91-${p.phone}`,
        p.phone,
        `+91 ${p.phone.slice(0, 5)}-${p.phone.slice(5)}`,
      ]),
      email: p.email,
      address: `${p.houseLine}, ${p.locality}`,
      city: p.city?.city ?? '',
      pincode: p.pincode,
      account_type: rng.chance(0.2) ? 'Plus' : 'Regular',
    }),
  },
  {
    name: 'TiffinDash',
    breachDate: '2022-11-20',
    description: 'Sandbox (synthetic): orders database of a fictional food-delivery app.',
    mapping: { name: 'name', phone: 'phone', delivery_address: 'address' },
    weights: { indian: 3, intl: 0 },
    row: (p, rng) => ({
      name: rng.chance(0.2) ? `${p.first} ${p.last[0]}.` : `${p.first} ${p.last}`,
      phone: rng.pick([p.phone, `0${p.phone}`, `+91 ${p.phone}`]),
      delivery_address: indianAddress(p),
      city: p.city?.city ?? '',
      last_order: day(rng, 2021, 2022),
    }),
  },
  {
    name: 'Pixelforge Forums',
    breachDate: '2018-02-09',
    description: 'Sandbox (synthetic): member list of a fictional gaming forum.',
    mapping: { username: 'username', email: 'email' },
    weights: { indian: 2, intl: 3 },
    row: (p, rng) => ({
      username: rng.chance(0.3) ? `${p.username}_pf` : p.username,
      email: rng.chance(0.3) ? p.altEmail : p.email,
      signup_ip: ip(rng),
      last_login: stamp(rng, 2014, 2018),
      posts: String(rng.int(0, 4000)),
      account_type: rng.chance(0.03) ? 'moderator' : rng.chance(0.05) ? 'banned' : 'member',
    }),
  },
  {
    name: 'Brightmail Newsletter',
    breachDate: '2020-06-30',
    description: 'Sandbox (synthetic): subscriber list of a fictional newsletter service (e-mails only).',
    mapping: { email: 'email' },
    weights: { indian: 2, intl: 3 },
    row: (p, rng) => ({
      email: rng.chance(0.5) ? p.altEmail : p.email,
      subscribed_on: day(rng, 2012, 2020),
      list: rng.pick(NEWSLETTER_LISTS),
    }),
  },
  {
    name: 'Telenova Subscriber Export',
    breachDate: '2023-05-12',
    description: 'Sandbox (synthetic): subscriber export of a fictional Indian mobile operator.',
    mapping: { SUBSCRIBER_NAME: 'name', MSISDN: 'phone', ADDRESS: 'address' },
    weights: { indian: 4, intl: 0 },
    row: (p, rng) => ({
      SUBSCRIBER_NAME: fullName(p).toUpperCase(),
      MSISDN: `91${p.phone}`,
      ADDRESS: indianAddress(p).toUpperCase(),
      DOB: `${pad2(p.dob.d)}-${pad2(p.dob.m)}-${p.dob.y}`,
      GENDER: p.gender === 'male' ? 'M' : 'F',
      CIRCLE: p.city?.circle ?? '',
      PLAN: rng.chance(0.7) ? 'Prepaid' : 'Postpaid',
    }),
  },
  {
    name: 'Wanderly Travel',
    breachDate: '2017-10-03',
    description: 'Sandbox (synthetic): traveller profiles of a fictional booking site.',
    mapping: { first_name: 'name', last_name: 'name', email: 'email', phone: 'phone' },
    weights: { indian: 1, intl: 4 },
    row: (p, rng) => ({
      first_name: p.first,
      last_name: p.last,
      email: p.email,
      phone: p.indian
        ? `+91 ${p.phone}`
        : rng.pick([
            `+44 ${p.phone.slice(0, 4)} ${p.phone.slice(4)}`,
            `+1 (${p.phone.slice(0, 3)}) ${p.phone.slice(3, 6)}-${p.phone.slice(6)}`,
          ]),
      dob: isoDob(p),
      country: p.intlCity?.country ?? 'India',
      city: p.intlCity?.city ?? p.city?.city ?? '',
      account_type: rng.pick(['Basic', 'Basic', 'Silver', 'Gold']),
    }),
  },
];

/** The sandbox's breach sources (name, breach date, description, column mapping). */
export const SANDBOX_LEAK_SOURCES: readonly SandboxLeakSource[] = SOURCES.map(
  ({ name, breachDate, description, mapping }) => ({ name, breachDate, description, mapping }),
);

// ---------------------------------------------------------------- demo identity

/**
 * The lookup sandbox's rich demo person (Rohan Suresh Deshmukh, +91 98765 43210, rich.demo@example.test)
 * as six breaches saw him: the phone in 3 sources, rich.demo@example.test in 2, both usernames.
 */
export const SANDBOX_DEMO_ROWS: readonly SandboxLeakRow[] = [
  {
    source: 'Chatterbox Social',
    fields: {
      username: 'rohand90',
      email: 'rich.demo@example.test',
      full_name: 'Rohan Deshmukh',
      gender: 'male',
      dob: '1990-04-17',
      signup_ip: '203.0.113.42',
      last_login: '2019-07-30 21:14:09',
    },
  },
  {
    source: 'QuickKart Shopping',
    fields: {
      customer_name: 'Rohan Suresh Deshmukh',
      mobile: '+91 98765 43210',
      email: 'rohan.deshmukh90@example.com',
      address: 'Flat 1203, Silver Oak Residency, Baner',
      city: 'Pune',
      pincode: '411045',
      account_type: 'Plus',
    },
  },
  {
    source: 'TiffinDash',
    fields: {
      name: 'Rohan Deshmukh',
      phone: '9876543210',
      delivery_address: 'House No. 42, Lane 7, Kothrud, Pune, Maharashtra 411038',
      city: 'Pune',
      last_order: '2022-10-02',
    },
  },
  {
    source: 'Pixelforge Forums',
    fields: {
      username: 'the_rohan17',
      email: 'rich.demo@example.test',
      signup_ip: '198.51.100.17',
      last_login: '2018-01-21 23:02:45',
      posts: '318',
      account_type: 'member',
    },
  },
  {
    source: 'Telenova Subscriber Export',
    fields: {
      SUBSCRIBER_NAME: 'ROHAN SURESH DESHMUKH',
      MSISDN: '919876543210',
      ADDRESS: 'HOUSE NO. 42, LANE 7, KOTHRUD, PUNE, MAHARASHTRA 411038',
      DOB: '17-04-1990',
      GENDER: 'M',
      CIRCLE: 'Maharashtra & Goa',
      PLAN: 'Postpaid',
    },
  },
  {
    source: 'Brightmail Newsletter',
    fields: { email: 'rohan.deshmukh90@example.com', subscribed_on: '2016-05-09', list: 'deals-daily' },
  },
];

// ---------------------------------------------------------------- generator

export interface SandboxLeakRow {
  /** A SANDBOX_LEAK_SOURCES name. */
  source: string;
  /** The row as the source's dump has it (its own column names). */
  fields: Record<string, string>;
}

export interface GenerateSandboxLeaksOptions {
  count: number;
  seed?: string | undefined;
}

function pickSources(rng: Rng, person: Persona, count: number): SourceSpec[] {
  const pool = SOURCES.filter((s) => (person.indian ? s.weights.indian : s.weights.intl) > 0);
  const chosen: SourceSpec[] = [];
  while (chosen.length < count && pool.length > 0) {
    const total = pool.reduce((sum, s) => sum + (person.indian ? s.weights.indian : s.weights.intl), 0);
    let roll = rng.next() * total;
    let index = 0;
    for (; index < pool.length - 1; index++) {
      const source = pool[index] as SourceSpec;
      roll -= person.indian ? source.weights.indian : source.weights.intl;
      if (roll < 0) break;
    }
    chosen.push(...pool.splice(index, 1));
  }
  return chosen;
}

/** `count` synthetic leak rows: the demo identity's rows first, then people in 1–3 sources each. */
export function* generateSandboxLeaks(options: GenerateSandboxLeaksOptions): Generator<SandboxLeakRow> {
  const count = Math.max(0, Math.floor(options.count));
  const seed = options.seed ?? 'demo';
  let emitted = 0;
  for (const row of SANDBOX_DEMO_ROWS) {
    if (emitted >= count) return;
    yield { source: row.source, fields: { ...row.fields } };
    emitted++;
  }
  for (let i = 0; emitted < count; i++) {
    const rng = createRng(`${seed}:${i}`, 'leaks');
    const person = makePersona(rng);
    const roll = rng.next();
    const sources = pickSources(rng, person, roll < 0.55 ? 1 : roll < 0.87 ? 2 : 3);
    for (const source of sources) {
      if (emitted >= count) return;
      yield { source: source.name, fields: source.row(person, rng) };
      emitted++;
    }
  }
}
