/**
 * Phone sources (spec §3, GET /api/tel). One generator per answer key; each takes the normalized
 * query ('919876543210') and returns that source's payload, or throws SourceNotFoundError.
 *
 * Not-found conventions (one per source, chosen to match what the real vendor does):
 *   wpData     payload { isUser: false, ... }            (WhatsApp checkers answer "not a user")
 *   hlrData    payload connectivity_status 'INVALID', no imsi / timestamp (HLRs always answer)
 *   tcData     SourceNotFoundError                       (caller-id directory 404)
 *   allData    SourceNotFoundError                       (no caller app knows the number)
 *   smData     SourceNotFoundError                       (social reverse lookup 404)
 *   osintData  payload { data: [] }
 *   sKData, suData, sbData, srData
 *              KYC envelope { data: null, status_code: 422, success: false,
 *                             message: 'No records found', message_code: 'not_found' }
 *   telData    payload { found: false }
 */
import type {
  AllCallerData,
  BankLookupData,
  CallerIdData,
  HlrData,
  OsintData,
  OsintRecord,
  PhoneSource,
  PrefillData,
  RcLookupData,
  SocialMediaData,
  TelegramData,
  UpiLookupData,
  WhatsAppData,
} from '@footprint/domain';
import { hashFraction, isoDateTime, isoDay, type Rng, SANDBOX_NOW, yearsBefore } from '../random.ts';
import { CARRIERS, OSINT_SOURCES } from '../words.ts';
import {
  callerIdName,
  context,
  documentationIp,
  formatMobile,
  type GenContext,
  isNotFound,
  kycNotFound,
  kycOk,
  misspell,
  noRecord,
} from './common.ts';
import { dialCodeOf, nationalOf, phoneDemoMode, phonePersona } from './demo.ts';
import { avatarDataUrl } from './images.ts';
import { bureauAddress, formatAddress, type IdentityKindKey, type Persona } from './persona.ts';

/** Roughly one number in ten is reported as spam; the rich demo always is. */
export function isSpamNumber(value: string): boolean {
  return phoneDemoMode(value) === 'rich' || hashFraction(`spam:${nationalOf(value)}`) < 0.1;
}

/** About one number in three gets its HLR answer as a JSON string (spec §3); the sparse demo always. */
export function hlrAsString(value: string): boolean {
  const demo = phoneDemoMode(value);
  if (demo === 'sparse') return true;
  if (demo === 'rich') return false;
  return hashFraction(`hlr-format:${nationalOf(value)}`) < 1 / 3;
}

const COUNTRIES: Record<string, [name: string, code: string]> = {
  '91': ['India', 'IN'],
  '1': ['United States', 'US'],
  '44': ['United Kingdom', 'GB'],
  '971': ['United Arab Emirates', 'AE'],
  '65': ['Singapore', 'SG'],
  '977': ['Nepal', 'NP'],
};

function wpData(ctx: GenContext): WhatsAppData {
  const { rng, persona: p, value } = ctx;
  const dial = dialCodeOf(value);
  if (isNotFound(ctx, 0.18)) {
    return {
      number: value,
      isUser: false,
      isBusiness: false,
      pushname: null,
      profilePic: null,
      countryCode: dial,
    };
  }
  if (ctx.demo === 'sparse') {
    return {
      number: value,
      isUser: true,
      isBusiness: false,
      pushname: null,
      profilePic: null,
      countryCode: dial,
    };
  }
  const isBusiness = ctx.demo === 'rich' || rng.chance(0.12);
  const pushname = isBusiness
    ? `${p.lastName} ${rng.pick(['Enterprises', 'Services', 'Consultancy', 'Traders'])}`
    : rng.weighted<string | null>([
        [p.alias, 3],
        [p.fullName, 3],
        [`${p.firstName} ${rng.pick(['🙂', '✨', '🙏', '🇮🇳'])}`, 2],
        [p.firstName.toLowerCase(), 1],
        [null, 2],
      ]);
  const profilePic = ctx.demo === 'rich' || rng.chance(0.6) ? avatarDataUrl(p.fullName, 1) : null;
  return { number: value, isUser: true, isBusiness, pushname, profilePic, countryCode: dial };
}

function hlrObject(ctx: GenContext): HlrData {
  const { rng, persona: p, value } = ctx;
  const dial = dialCodeOf(value);
  const [countryName, countryCode] = COUNTRIES[dial] ?? ['Unknown', ''];
  const india = dial === '91';
  const original = CARRIERS[p.carrier.original];
  const current = CARRIERS[p.carrier.current];
  if (isNotFound(ctx, 0.17)) {
    return {
      msisdn: value,
      imsi: null,
      mccmnc: null,
      connectivity_status: 'INVALID',
      timestamp: null,
      original_country_name: countryName,
      original_country_code: countryCode,
      original_network_name: india ? original.network : null,
      ported: false,
      ported_network_name: null,
      roaming: false,
    };
  }
  const absent = ctx.demo === null && rng.chance(0.1);
  const mccmnc = india ? rng.pick(current.mccmnc) : `${rng.digits(3, '23456')}${rng.digits(2)}`;
  const checkedAt = new Date(SANDBOX_NOW.getTime() - rng.int(5, 3_600) * 1000);
  return {
    msisdn: value,
    imsi: `${mccmnc}${rng.digits(15 - mccmnc.length)}`,
    mccmnc,
    connectivity_status: absent ? 'ABSENT' : 'CONNECTED',
    timestamp: absent ? null : checkedAt.toISOString(),
    original_country_name: countryName,
    original_country_code: countryCode,
    original_network_name: india ? original.network : 'Unknown',
    ported: india && p.carrier.ported,
    ported_network_name: india && p.carrier.ported ? current.network : null,
    roaming: !absent && rng.chance(0.04),
  };
}

function hlrData(ctx: GenContext): HlrData | string {
  const hlr = hlrObject(ctx);
  return hlrAsString(ctx.value) ? JSON.stringify(hlr) : hlr;
}

function tcData(ctx: GenContext): CallerIdData {
  const { rng, persona: p, value } = ctx;
  if (isNotFound(ctx, 0.2)) throw noRecord('Caller-id directory has no entry for this number.');
  const spam = isSpamNumber(value);
  const fullName = spam
    ? `${p.firstName} ${rng.pick(['Loan Agent', 'Credit Card', 'Insurance', 'Real Estate', 'Spam?'])}`
    : callerIdName(rng, p);
  const altName = ctx.demo === 'rich' || rng.chance(0.4) ? callerIdName(rng, p) : null;
  // The directory remembers the operator the number was first seen on; after a port it is stale.
  const carrier = CARRIERS[rng.chance(0.7) ? p.carrier.original : p.carrier.current].short;
  const place = rng.weighted<string | null>([
    [`${p.city.city}, ${p.city.state}`, 4],
    [p.city.city, 3],
    [`${p.hometown.city}, ${p.hometown.state}`, 2],
    [null, 1],
  ]);
  return {
    data: {
      basicInfo: {
        name: { fullName, altName: altName === fullName ? null : altName },
        gender: ctx.demo === 'rich' || rng.chance(0.7) ? p.gender.toUpperCase() : null,
        jobTitle: ctx.demo === 'rich' || rng.chance(0.25) ? p.jobTitle : null,
      },
      addressInfo: { address: place, countryCode: 'IN' },
      phoneInfo: { number: `+${dialCodeOf(value)}${nationalOf(value)}`, carrier },
    },
  };
}

function allData(ctx: GenContext): AllCallerData {
  const { rng, persona: p, value } = ctx;
  if (isNotFound(ctx, 0.22)) throw noRecord('No caller app knows this number.');
  const rich = ctx.demo === 'rich';
  const out: AllCallerData = {
    callapp: rich || rng.chance(0.7) ? { name: callerIdName(rng, p) } : null,
    viewcaller: Array.from({ length: rich ? 3 : rng.int(0, 3) }, () => ({ name: callerIdName(rng, p) })),
    eyecon:
      rich || rng.chance(0.6) ? rng.pick([p.fullName, callerIdName(rng, p), p.fullName.toUpperCase()]) : null,
    tcData: {
      number: formatMobile(rng, nationalOf(value), dialCodeOf(value)),
      provieder: CARRIERS[rng.chance(0.5) ? p.carrier.original : p.carrier.current].network,
    },
  };
  if (!out.callapp && out.viewcaller?.length === 0 && !out.eyecon) out.eyecon = p.alias;
  return out;
}

function smData(ctx: GenContext): SocialMediaData {
  const { rng, persona: p, value } = ctx;
  if (isNotFound(ctx, 0.25)) throw noRecord('No social profile linked to this number.');
  const fb = rng.chance(0.6)
    ? `https://www.facebook.example.test/${p.usernames[0] ?? p.firstName.toLowerCase()}`
    : `https://www.facebook.example.test/profile.php?id=1000${rng.digits(11)}`;
  return { response: { name: p.fullName, fb, is_spam: isSpamNumber(value) } };
}

const osintExtras = (rng: Rng, p: Persona, source: string, city: string): Record<string, unknown> => {
  const extra: Record<string, unknown> = {
    source_db: `${source.toLowerCase().replace(/[^a-z0-9]+/g, '_')}.sql`,
    last_seen: isoDay(rng.date(yearsBefore(6), yearsBefore(0.2))),
    city,
  };
  if (rng.chance(0.6)) extra.ip_address = documentationIp(rng);
  if (rng.chance(0.3)) extra.device = rng.pick(['Android 11', 'Android 13', 'iPhone iOS 16', 'Android 9']);
  if (rng.chance(0.3)) extra.registered_on = isoDateTime(rng.date(yearsBefore(9), yearsBefore(1)));
  if (source === 'Loan-app scrape') {
    extra.employer = p.employer;
    extra.monthly_income = rng.pick(['25000', '40000', '65000', '1,10,000']);
  }
  if (rng.chance(0.2))
    extra.notes = rng.pick(['duplicate of an earlier row', 'alt number listed', 'partial record']);
  return extra;
};

/** OSINT records shared by the phone and e-mail sources: old leaks with old addresses and variants. */
export function osintRecords(
  ctx: GenContext,
  count: number,
  query: { phone?: string; email?: string },
): OsintRecord[] {
  const { rng, persona: p } = ctx;
  const sources = rng.sample(OSINT_SOURCES, count);
  const oldAddress = p.addresses.find((a) => a.old);
  return sources.map((source, i) => {
    // The first record of a persona that moved always carries the old address.
    const useOld = oldAddress !== undefined && (i === 0 || rng.chance(0.3));
    const address = useOld && oldAddress ? oldAddress : rng.pick(p.addresses.filter((a) => !a.old));
    const record: OsintRecord = {
      source,
      name: rng.pick([
        p.fullName,
        p.legalName,
        callerIdName(rng, p),
        `${p.firstName} ${misspell(rng, p.lastName)}`,
      ]),
      username: rng.chance(0.5) ? rng.pick(p.usernames) : null,
      address: useOld || rng.chance(0.8) ? formatAddress(address) : null,
      phone: query.phone ?? (rng.chance(0.5) ? `+91${p.mobile}` : null),
      phone_secondary: rng.chance(0.35) ? `+91${rng.pick(p.otherMobiles)}` : null,
      email: query.email ?? (rng.chance(0.6) ? rng.pick(p.emails) : null),
      email_secondary: rng.chance(0.25) ? rng.pick(p.emails) : null,
      // The age the persona's date of birth gives, as a number or as text; never an older one, so
      // every kind of lookup states one age for one date of birth. (The draws stay as they were, so
      // the rest of every persona's records is unchanged.)
      age: rng.chance(0.4)
        ? rng.pick([p.age, String(p.age - rng.int(1, 4))]) === p.age
          ? p.age
          : String(p.age)
        : null,
      gender: rng.chance(0.5) ? rng.pick([p.gender, p.gender[0] ?? '', p.gender.toLowerCase()]) : null,
      dob: rng.chance(0.3) ? rng.pick([p.dob, p.dob.split('-').reverse().join('/')]) : null,
      image: rng.chance(0.2) ? avatarDataUrl(p.fullName, 3 + i) : null,
      ...osintExtras(rng, p, source, address.city.city),
    };
    if (record.email_secondary === record.email) record.email_secondary = null;
    return record;
  });
}

function osintData(ctx: GenContext): OsintData {
  const { rng, value } = ctx;
  if (isNotFound(ctx, 0.22)) return { data: [] };
  const count =
    ctx.demo === 'rich'
      ? 4
      : rng.weighted([
          [1, 35],
          [2, 30],
          [3, 20],
          [4, 15],
        ] as const);
  return {
    data: osintRecords(ctx, count, { phone: formatMobile(rng, nationalOf(value), dialCodeOf(value)) }),
  };
}

const IDENTITY_VALUE: Record<IdentityKindKey, (p: Persona) => string> = {
  pan_number: (p) => p.pan,
  aadhaar_number: (p) => p.aadhaarMasked,
  voter_id: (p) => p.voterId,
  driving_license: (p) => p.drivingLicence,
  passport_number: (p) => p.passport,
  ration_card: (p) => p.rationCard,
};

function sKData(ctx: GenContext): PrefillData {
  const { rng, persona: p } = ctx;
  if (isNotFound(ctx, 0.2)) return kycNotFound();
  const reported = (): string => isoDay(rng.date(yearsBefore(6), yearsBefore(0.1)));
  const identity: Record<string, Array<{ id_number: string }>> = {};
  for (const kind of Object.keys(IDENTITY_VALUE) as IdentityKindKey[]) {
    identity[kind] = p.idKinds.includes(kind) ? [{ id_number: IDENTITY_VALUE[kind](p) }] : [];
  }
  const bureauAddresses =
    ctx.demo === 'rich' ? p.addresses : p.addresses.filter((a) => !a.old || rng.chance(0.7));
  return kycOk(rng, 'prefill_by_mobile', {
    mobile: p.mobile,
    details: {
      name: p.legalName,
      personal_info: {
        full_name: p.legalName,
        dob: p.dob,
        age: p.age,
        gender: p.gender.toUpperCase(),
        total_income: ctx.demo === 'rich' || rng.chance(0.7) ? p.incomeBand : '',
        occupation: ctx.demo === 'rich' || rng.chance(0.8) ? p.occupation : null,
      },
      phone_info: [
        { number: p.mobile, type_code: 'M', reported_date: reported() },
        ...p.otherMobiles.map((number) => ({ number, type_code: 'M', reported_date: reported() })),
      ],
      email_info: p.emails.map((email_address) => ({ email_address, reported_date: reported() })),
      identity_info: identity,
      address_info: bureauAddresses.map((a) => ({
        address: bureauAddress(a),
        state: a.city.state.toUpperCase(),
        type: a.type === 'permanent' ? 'Permanent' : 'Correspondence',
        postal: a.pincode,
        reported_date: a.reportedDate,
      })),
    },
  });
}

function suData(ctx: GenContext): UpiLookupData {
  const { rng, persona: p } = ctx;
  if (isNotFound(ctx, 0.25)) return kycNotFound();
  return kycOk(rng, 'find_upi_id', {
    name: rng.pick([p.fullName.toUpperCase(), p.legalName]),
    mobile_number: p.mobile,
    upi_id: [...p.upiIds],
  });
}

function sbData(ctx: GenContext): BankLookupData {
  const { rng, persona: p } = ctx;
  if (isNotFound(ctx, 0.28)) return kycNotFound();
  return kycOk(rng, 'mobile_to_bank', {
    // Banks print initials for the middle name.
    name: `${p.firstName} ${p.middleName[0]} ${p.lastName}`.toUpperCase(),
    bank_account_no: p.bank.accountNo,
    bank_ifsc: p.bank.ifsc,
    bank_details: {
      bank: p.bank.name,
      branch: p.bank.branch,
      address: `${p.bank.branch.replace(/ Branch$/, '')}, ${p.city.city}`,
      city: p.city.city.toUpperCase(),
      district: p.city.district.toUpperCase(),
      state: p.city.state.toUpperCase(),
      micr: p.bank.micr,
      contact: null,
      upi: 'true',
      imps: 'true',
      neft: 'true',
      rtgs: rng.chance(0.8) ? 'true' : 'false',
    },
  });
}

function srData(ctx: GenContext): RcLookupData {
  const { rng, persona: p } = ctx;
  if (p.rcNumbers.length === 0 || (ctx.demo !== null && isNotFound(ctx, 0))) return kycNotFound();
  const [only] = p.rcNumbers;
  return kycOk(rng, 'mobile_to_rc', {
    rc_number: p.rcNumbers.length === 1 && only ? only : [...p.rcNumbers],
  });
}

function telData(ctx: GenContext): TelegramData {
  const { rng, persona: p } = ctx;
  if (isNotFound(ctx, 0.3)) return { found: false };
  return {
    found: true,
    first_name: rng.pick([p.firstName, p.alias, `${p.firstName} ✌️`]),
    last_name: rng.weighted<string | null>([
      [p.lastName, 5],
      ['', 2],
      [null, 1],
    ]),
    username: ctx.demo === 'rich' || rng.chance(0.6) ? rng.pick(p.usernames) : null,
    profile_photo: ctx.demo === 'rich' || rng.chance(0.5) ? avatarDataUrl(p.fullName, 2) : null,
  };
}

const GENERATORS: Record<PhoneSource, (ctx: GenContext) => unknown> = {
  wpData,
  hlrData,
  tcData,
  allData,
  smData,
  osintData,
  sKData,
  suData,
  sbData,
  srData,
  telData,
};

/** The sandbox payload of one phone source for a normalized tel query; may throw SourceNotFoundError. */
export function phoneSourcePayload(source: PhoneSource, value: string): unknown {
  const ctx = context(source, value, phonePersona(value), phoneDemoMode(value));
  return GENERATORS[source](ctx);
}
