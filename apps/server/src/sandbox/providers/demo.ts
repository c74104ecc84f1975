/**
 * Fixed demo identities for tests, screenshots and walkthroughs, and the persona look-ups every
 * generator uses (which route the demo values to their fixed personas). The rich phone and the rich
 * e-mail are the same fictional person, so a demo can hop from one to the other.
 */
import { CITIES, type City } from '../words.ts';
import { avatarDataUrl } from './images.ts';
import { IDENTITY_KINDS, maskAadhaar, namesFromLocalPart, type Persona, personaFor } from './persona.ts';

export const DEMO = {
  richPhone: '919876543210',
  sparsePhone: '919123456780',
  richEmail: 'rich.demo@example.test',
  emptyEmail: 'nobody@example.test',
  /** The rich persona's vehicle with three challans (two pending). */
  rcWithChallans: 'MH12FP1234',
  /** The rich persona's vehicle with a clean record. */
  rcClean: 'MH14FP5678',
  /** An RC the registry does not know: RC details answer 'No records found'. */
  rcUnknown: 'KA01FP0000',
  /** The rich persona's name-based UPI id. */
  upi: 'rohan.deshmukh@oksbi',
  /** The rich persona's mobile-number UPI id. */
  upiMobile: '9876543210@ybl',
  /** A UPI id with no account behind it. */
  upiMissing: 'nobody@ybl',
} as const;

export interface DemoIdentity {
  kind: 'tel' | 'email' | 'rc' | 'upi' | 'challan';
  /** The normalized query value (what the providers receive). */
  value: string;
  /** What to type in the search box. */
  input: string;
  description: string;
}

export const DEMO_IDENTITIES: readonly DemoIdentity[] = [
  {
    kind: 'tel',
    value: DEMO.richPhone,
    input: '+91 9876543210',
    description:
      'Rich phone (Rohan Suresh Deshmukh, Pune): every phone source answers. Marked as spam, WhatsApp Business, ' +
      'number ported Airtel → Jio, 4 OSINT records (one with an old Mumbai address), identity proofs of all six ' +
      'kinds (PAN, Aadhaar, Voter ID, Passport, Driving Licence, Ration Card), bank account, 2 UPI ids, 2 RC numbers.',
  },
  {
    kind: 'tel',
    value: DEMO.sparsePhone,
    input: '+91 9123456780',
    description:
      'Sparse phone: only the ISP/HLR source (sent as a JSON string) and WhatsApp (no name, no photo) answer; every ' +
      'other source reports not found.',
  },
  {
    kind: 'email',
    value: DEMO.richEmail,
    input: DEMO.richEmail,
    description:
      'Rich e-mail (same person as the rich phone): account-provider profile with photo and 4 located map reviews, ' +
      '12 breaches (one sensitive, two unverified), 11 registered sites, avatar-service hits, a LinkedIn-style ' +
      'profile with education, 3 positions and skills, social-scan hits, 3 OSINT records, linked phone +91 9876543210.',
  },
  {
    kind: 'email',
    value: DEMO.emptyEmail,
    input: DEMO.emptyEmail,
    description:
      'Empty e-mail: every source answers not found or empty (profile success:false, 0 breaches, no registered ' +
      'sites, no avatars, no person, every social platform available, 0 OSINT records, no linked phone).',
  },
  {
    kind: 'rc',
    value: DEMO.rcWithChallans,
    input: DEMO.rcWithChallans,
    description:
      'RC details of the rich persona’s car (financed; some fields empty/NA); 3 challans, 2 pending.',
  },
  {
    kind: 'rc',
    value: DEMO.rcClean,
    input: DEMO.rcClean,
    description: 'RC details of the rich persona’s scooter; 0 challans (challan modal hides "Download pdf").',
  },
  {
    kind: 'rc',
    value: DEMO.rcUnknown,
    input: DEMO.rcUnknown,
    description: 'RC unknown to the registry: RC details envelope 422 "No records found"; 0 challans.',
  },
  {
    kind: 'upi',
    value: DEMO.upi,
    input: DEMO.upi,
    description: 'UPI details: account exists, ROHAN SURESH DESHMUKH (also: 9876543210@ybl).',
  },
  {
    kind: 'upi',
    value: DEMO.upiMissing,
    input: DEMO.upiMissing,
    description: 'UPI details: account_exists false.',
  },
];

const city = (name: string): City => {
  const found = CITIES.find((c) => c.city === name);
  if (!found) throw new Error(`No city ${name} in the catalogue`);
  return found;
};

let richPersona: Persona | undefined;

/** The rich demo persona: generated, then pinned field by field so catalogue edits do not move it. */
export function richDemoPersona(): Persona {
  if (richPersona) return richPersona;
  const base = personaFor('9876543210', { firstName: 'Rohan', lastName: 'Deshmukh' });
  const pune = city('Pune');
  const mumbai = city('Mumbai');
  const aadhaar = '734918264821';
  richPersona = {
    ...base,
    firstName: 'Rohan',
    middleName: 'Suresh',
    lastName: 'Deshmukh',
    fullName: 'Rohan Deshmukh',
    legalName: 'ROHAN SURESH DESHMUKH',
    alias: 'Rohan D',
    gender: 'Male',
    dob: '1990-04-17',
    age: 36,
    city: pune,
    hometown: pune,
    addresses: [
      {
        type: 'permanent',
        line: 'House No. 42, Lane 7, Kothrud',
        locality: 'Kothrud',
        city: pune,
        pincode: '411038',
        reportedDate: '2019-06-11',
        old: false,
      },
      {
        type: 'correspondence',
        line: 'Flat 1203, Silver Oak Residency, Baner',
        locality: 'Baner',
        city: pune,
        pincode: '411045',
        reportedDate: '2026-03-02',
        old: false,
      },
      {
        type: 'correspondence',
        line: 'Flat 504, Lotus Heights, Andheri West',
        locality: 'Andheri West',
        city: mumbai,
        pincode: '400053',
        reportedDate: '2017-09-24',
        old: true,
      },
    ],
    sector: 'tech',
    occupation: 'SALARIED',
    employer: 'Nimbuslane Technologies Pvt Ltd',
    jobTitle: 'Senior Software Engineer',
    incomeBand: '15 - 25 Lakh',
    mobile: '9876543210',
    otherMobiles: ['5712048863', '5590317742'],
    emails: ['rich.demo@example.test', 'rohan.deshmukh90@example.com', 'rohan.d@nimbuslane.example.com'],
    usernames: ['rohan_deshmukh', 'rohand90', 'the_rohan17'],
    idKinds: [...IDENTITY_KINDS],
    pan: 'BQZPD4821K',
    aadhaar,
    aadhaarMasked: maskAadhaar(aadhaar),
    voterId: 'KTW4821906',
    drivingLicence: 'MH1220110048219',
    passport: 'Z4821906',
    rationCard: '272048219067',
    bank: {
      name: 'Konkan Coastal Bank',
      accountNo: '50100482190612',
      ifsc: 'KCBX0PUN482',
      branch: 'Baner Branch',
      micr: '411482019',
    },
    upiIds: [DEMO.upi, DEMO.upiMobile],
    rcNumbers: [DEMO.rcWithChallans, DEMO.rcClean],
    carrier: { original: 'airtel', current: 'jio', ported: true },
    education: [
      {
        school: 'Narmada Valley College of Engineering',
        url: 'https://www.nvce.example.org',
        degree: 'B.Tech',
        field: 'Computer Science',
        startYear: 2008,
        endYear: 2012,
      },
      {
        school: 'Sunrise Public School, Pune',
        degree: 'Higher Secondary (XII)',
        field: 'Science',
        startYear: 2006,
        endYear: 2008,
      },
    ],
    positions: [
      {
        title: 'Senior Software Engineer',
        company: 'Nimbuslane Technologies Pvt Ltd',
        url: 'https://www.nimbuslane.example.com',
        startYear: 2021,
      },
      {
        title: 'Software Engineer',
        company: 'Saffronleaf Analytics LLP',
        url: 'https://www.saffronleaf.example.com',
        startYear: 2015,
        endYear: 2021,
      },
      {
        title: 'QA Analyst',
        company: 'Deccanbyte Fintech',
        url: 'https://www.deccanbyte.example.com',
        startYear: 2012,
        endYear: 2015,
      },
    ],
    skills: ['TypeScript', 'Node.js', 'SQL', 'AWS', 'React', 'Agile Methodologies'],
    avatar: avatarDataUrl('Rohan Deshmukh'),
    footprint: 1,
  };
  return richPersona;
}

export type DemoMode = 'rich' | 'sparse' | 'empty' | null;

/** A normalized query is digits only: the common case skips the clean-up. */
const DIGITS_ONLY = /^\d+$/;

export function nationalOf(telValue: string): string {
  return (DIGITS_ONLY.test(telValue) ? telValue : telValue.replace(/\D/g, '')).slice(-10);
}

/** The demo numbers' national parts, compared against on every phone answer. */
const RICH_NATIONAL = nationalOf(DEMO.richPhone);
const SPARSE_NATIONAL = nationalOf(DEMO.sparsePhone);

export function dialCodeOf(telValue: string): string {
  const digits = telValue.replace(/\D/g, '');
  return digits.length > 10 ? digits.slice(0, -10) : '91';
}

export function phoneDemoMode(telValue: string): DemoMode {
  const national = nationalOf(telValue);
  if (national === RICH_NATIONAL) return 'rich';
  if (national === SPARSE_NATIONAL) return 'sparse';
  return null;
}

export function emailDemoMode(address: string): DemoMode {
  const a = address.trim().toLowerCase();
  if (a === DEMO.richEmail) return 'rich';
  if (a === DEMO.emptyEmail) return 'empty';
  return null;
}

/** The persona behind a phone query: seeded by the number's last 10 digits. */
export function phonePersona(telValue: string): Persona {
  const national = nationalOf(telValue);
  return national === RICH_NATIONAL ? richDemoPersona() : personaFor(national);
}

/** The persona behind an e-mail query: seeded by the address; names follow 'first.last' local parts. */
export function emailPersona(address: string): Persona {
  const a = address.trim().toLowerCase();
  if (a === DEMO.richEmail) return richDemoPersona();
  return personaFor(a, namesFromLocalPart(a.split('@')[0] ?? ''));
}
