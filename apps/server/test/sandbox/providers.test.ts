import {
  type AccountProfileData,
  type AllCallerData,
  type AvatarServiceData,
  type BankLookupData,
  type Breach,
  type CallerIdData,
  type ChallanData,
  EMAIL_SOURCES,
  type EmailSource,
  type HlrData,
  type KycEnvelope,
  type LinkedPersonData,
  type LinkedPhoneData,
  type OsintData,
  PHONE_SOURCES,
  type PhoneSource,
  type PrefillData,
  type RcDetails,
  type RcLookupData,
  type RegisteredSitesData,
  type SocialMediaData,
  type SocialScanData,
  type TelegramData,
  UPI_PATTERN,
  type UpiDetails,
  type UpiLookupData,
  type WhatsAppData,
} from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { type ProviderQuery, SourceFailedError, SourceNotFoundError } from '../../src/providers/types.ts';
import {
  challanDetails,
  createSandboxProviders,
  DEMO,
  DEMO_IDENTITIES,
  isReservedDomain,
  parseSandboxSpec,
  phonePersona,
  rcDetails,
  SandboxSpecError,
  sandboxPayload,
  upiDetails,
} from '../../src/sandbox/index.ts';

// ---------- helpers ----------

/** A small LCG so the sample of numbers is the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}

function samplePhones(count: number, seed = 7): string[] {
  const next = lcg(seed);
  return Array.from({ length: count }, () => {
    const first = String(6 + Math.floor(next() * 4));
    const rest = String(Math.floor(next() * 1e9)).padStart(9, '0');
    return `91${first}${rest}`;
  });
}

const LOCALS = ['priya.sharma', 'rahul_verma', 'kavya', 'user', 'test.account', 'arjunkapoor', 'x'];
const DOMAINS = ['example.com', 'example.org', 'mail.example.test', 'example.net'];

function sampleEmails(count: number, seed = 11): string[] {
  const next = lcg(seed);
  return Array.from({ length: count }, (_, i) => {
    const local = LOCALS[Math.floor(next() * LOCALS.length)] ?? 'user';
    const domain = DOMAINS[Math.floor(next() * DOMAINS.length)] ?? 'example.com';
    return `${local}${i}@${domain}`;
  });
}

type Outcome = { payload: unknown; notFoundError: boolean };

function outcome(source: string, query: ProviderQuery): Outcome {
  try {
    return { payload: sandboxPayload(source, query), notFoundError: false };
  } catch (error) {
    if (error instanceof SourceNotFoundError) return { payload: undefined, notFoundError: true };
    throw error;
  }
}

const tel = (value: string): ProviderQuery => ({ kind: 'tel', value });
const email = (value: string): ProviderQuery => ({ kind: 'email', value });

function parseHlr(payload: unknown): HlrData {
  return typeof payload === 'string' ? (JSON.parse(payload) as HlrData) : (payload as HlrData);
}

/** The documented not-found convention of each source (see phone.ts / email.ts headers). */
function isNotFound(source: string, o: Outcome): boolean {
  if (o.notFoundError) return true;
  const p = o.payload;
  switch (source) {
    case 'wpData':
      return (p as WhatsAppData).isUser === false;
    case 'hlrData':
      return parseHlr(p).connectivity_status === 'INVALID';
    case 'osintData':
      return (p as OsintData).data?.length === 0;
    case 'sKData':
    case 'suData':
    case 'sbData':
    case 'srData':
      return (p as KycEnvelope<unknown>).status_code === 422;
    case 'telData':
      return (p as TelegramData).found === false;
    case 'emailData':
      return (p as AccountProfileData).success === false;
    case 'hibpData':
      return (p as Breach[]).length === 0;
    case 'holeheData':
      return (p as RegisteredSitesData).used?.length === 0;
    case 'zehefData':
      return !(p as AvatarServiceData).data?.some((d) => d?.status === 'found');
    case 'socialScanData':
      return (p as SocialScanData).data?.every((d) => d?.available === true) ?? true;
    default:
      return false;
  }
}

const KYC_NOT_FOUND = {
  data: null,
  status_code: 422,
  success: false,
  message: 'No records found',
  message_code: 'not_found',
};

function expectKycOk(env: KycEnvelope<unknown>): void {
  expect(env.status_code).toBe(200);
  expect(env.success).toBe(true);
  expect(env.message).toBe('');
  expect(env.message_code).toBe('success');
  expect(typeof (env.data as { client_id?: unknown }).client_id).toBe('string');
}

const PAN = /^[A-Z]{3}P[A-Z]\d{4}[A-Z]$/;
const AADHAAR_MASKED = /^XXXX XXXX \d{4}$/;
const VOTER = /^[A-Z]{3}\d{7}$/;
const DL = /^[A-Z]{2}\d{13}$/;
const PASSPORT = /^[A-Z]\d{7}$/;
const RATION = /^\d{12}$/;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const RC = /^[A-Z]{2}[0-9A-Z]{2}[A-Z]{1,2}\d{4}$/;
const SVG_DATA = /^data:image\/svg\+xml,/;
const ID_FORMATS: Record<string, RegExp> = {
  pan_number: PAN,
  aadhaar_number: AADHAAR_MASKED,
  voter_id: VOTER,
  driving_license: DL,
  passport_number: PASSPORT,
  ration_card: RATION,
};

/** Every string inside a value (HLR JSON strings are opened). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    out.push(value);
    if (value.startsWith('{')) {
      try {
        strings(JSON.parse(value), out);
      } catch {
        // not JSON
      }
    }
  } else if (Array.isArray(value)) {
    for (const v of value) strings(v, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  }
  return out;
}

// ---------- tests ----------

describe('sandbox providers: shape of the provider list', () => {
  it('has one provider per source with stable ids, kinds and the sandbox flag', () => {
    const providers = createSandboxProviders();
    const ids = providers.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of providers) {
      expect(p.id).toBe(`sandbox:${p.source}`);
      expect(p.sandbox).toBe(true);
      expect(p.kinds.length).toBeGreaterThan(0);
    }
    const bySource = new Map(providers.map((p) => [p.source, p]));
    for (const s of PHONE_SOURCES) expect(bySource.get(s)?.kinds).toContain('tel');
    for (const s of EMAIL_SOURCES) expect(bySource.get(s)?.kinds).toContain('email');
    expect(bySource.get('osintData')?.kinds).toEqual(['tel', 'email']);
    expect(bySource.get('wpData')?.kinds).toEqual(['tel']);
    expect(bySource.get('hibpData')?.kinds).toEqual(['email']);
    expect(bySource.get('rc')?.kinds).toEqual(['rc']);
    expect(bySource.get('upi')?.kinds).toEqual(['upi']);
    expect(bySource.get('challan')?.kinds).toEqual(['challan']);
  });

  it('refuses a query kind the source does not take', async () => {
    const wp = createSandboxProviders().find((p) => p.source === 'wpData');
    await expect(
      wp?.fetch({ kind: 'email', value: 'a@example.com' }, new AbortController().signal),
    ).rejects.toThrow(SourceFailedError);
  });
});

describe('sandbox: determinism', () => {
  const providers = createSandboxProviders();
  const signal = new AbortController().signal;

  it('answers the same query with a deep-equal payload, for every source', async () => {
    const queries: Record<string, string> = { tel: '919812345678', email: 'priya.sharma@example.com' };
    for (const provider of providers) {
      for (const kind of provider.kinds) {
        const value =
          kind === 'rc' || kind === 'challan'
            ? DEMO.rcWithChallans
            : kind === 'upi'
              ? DEMO.upi
              : queries[kind];
        const run = async (): Promise<unknown> => {
          try {
            return await provider.fetch({ kind, value: value ?? '' }, signal);
          } catch (error) {
            return { threw: (error as Error).name };
          }
        };
        expect(await run(), `${provider.id} ${kind}`).toEqual(await run());
      }
    }
  });

  it('gives different numbers different personas and answers', () => {
    const a = sandboxPayload('sKData', tel('919812345678')) as PrefillData;
    const b = sandboxPayload('sKData', tel('919812345679')) as PrefillData;
    expect(a).not.toEqual(b);
    const names = new Set(
      samplePhones(50).map((v) => {
        const sm = outcome('smData', tel(v));
        const wp = sandboxPayload('wpData', tel(v));
        return JSON.stringify([sm.payload, wp]);
      }),
    );
    expect(names.size).toBe(50);
  });

  it('seeds a phone persona by its last 10 digits', () => {
    // Whether each source has a record differs by full number; who the person is does not.
    expect(phonePersona('19812345678')).toEqual(phonePersona('919812345678'));
    expect(phonePersona('919812345679')).not.toEqual(phonePersona('919812345678'));
  });
});

describe('sandbox: phone payload shapes over 200 numbers', () => {
  const phones = samplePhones(200);

  it('wpData, hlrData, tcData, allData, smData, telData', () => {
    let hlrStrings = 0;
    for (const v of phones) {
      const wp = sandboxPayload('wpData', tel(v)) as WhatsAppData;
      expect(wp.number).toBe(v);
      expect(typeof wp.isUser).toBe('boolean');
      expect(typeof wp.isBusiness).toBe('boolean');
      expect(wp.countryCode).toBe('91');
      if (wp.pushname !== null) expect(typeof wp.pushname).toBe('string');
      if (wp.profilePic !== null) expect(wp.profilePic).toMatch(SVG_DATA);

      const rawHlr = sandboxPayload('hlrData', tel(v));
      if (typeof rawHlr === 'string') hlrStrings++;
      const hlr = parseHlr(rawHlr);
      expect(hlr.msisdn).toBe(v);
      expect(['CONNECTED', 'ABSENT', 'INVALID']).toContain(hlr.connectivity_status);
      expect(hlr.original_country_code).toBe('IN');
      expect(typeof hlr.ported).toBe('boolean');
      if (hlr.connectivity_status === 'CONNECTED') {
        expect(Number.isNaN(Date.parse(String(hlr.timestamp)))).toBe(false);
        expect(hlr.imsi).toMatch(/^\d{15}$/);
        expect(hlr.imsi?.startsWith(String(hlr.mccmnc))).toBe(true);
      } else {
        expect(hlr.timestamp).toBeNull();
      }
      if (hlr.ported) {
        expect(typeof hlr.ported_network_name).toBe('string');
        expect(hlr.ported_network_name).not.toBe(hlr.original_network_name);
      }

      const tc = outcome('tcData', tel(v));
      if (!tc.notFoundError) {
        const data = (tc.payload as CallerIdData).data;
        expect(data?.basicInfo?.name?.fullName).toEqual(expect.any(String));
        expect(data?.phoneInfo?.number).toBe(`+${v}`);
        expect(data?.addressInfo?.countryCode).toBe('IN');
      }

      const all = outcome('allData', tel(v));
      if (!all.notFoundError) {
        const p = all.payload as AllCallerData;
        expect(Array.isArray(p.viewcaller)).toBe(true);
        expect(typeof p.tcData?.provieder).toBe('string');
        expect(Boolean(p.callapp?.name || p.viewcaller?.length || p.eyecon)).toBe(true);
      }

      const sm = outcome('smData', tel(v));
      if (!sm.notFoundError) {
        const r = (sm.payload as SocialMediaData).response;
        expect(r?.name).toEqual(expect.any(String));
        expect(typeof r?.is_spam).toBe('boolean');
        expect(r?.fb).toMatch(/^https:\/\/www\.facebook\.example\.test\//);
      }

      const tg = sandboxPayload('telData', tel(v)) as TelegramData;
      expect(typeof tg.found).toBe('boolean');
      if (tg.found) expect(tg.first_name).toEqual(expect.any(String));
      else expect(tg).toEqual({ found: false });
    }
    // About one in three HLR answers arrives as a JSON string.
    expect(hlrStrings).toBeGreaterThan(40);
    expect(hlrStrings).toBeLessThan(95);
  });

  it('osintData: 0–4 records with the fixed fields and extra fields', () => {
    let records = 0;
    for (const v of phones) {
      const data = (sandboxPayload('osintData', tel(v)) as OsintData).data ?? [];
      expect(data.length).toBeLessThanOrEqual(4);
      for (const r of data) {
        records++;
        expect(r.source).toEqual(expect.any(String));
        expect(r.phone).toEqual(expect.any(String));
        expect(r.source_db).toEqual(expect.any(String));
        expect(r.last_seen).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(r.city).toEqual(expect.any(String));
      }
    }
    expect(records).toBeGreaterThan(200);
  });

  it('KYC sources: the vendor envelope, identity numbers in format, UPI and RC ids the detail lookups know', () => {
    for (const v of phones) {
      const sk = sandboxPayload('sKData', tel(v)) as PrefillData;
      if (sk.status_code === 422) expect(sk).toEqual(KYC_NOT_FOUND);
      else {
        expectKycOk(sk);
        const d = sk.data?.details;
        expect(sk.data?.mobile).toBe(v.slice(-10));
        expect(d?.name).toMatch(/^[A-Z]+ [A-Z]+ [A-Z]+$/);
        expect(d?.personal_info?.dob).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(d?.personal_info?.age).toEqual(expect.any(Number));
        expect(d?.phone_info?.[0]?.number).toBe(v.slice(-10));
        for (const [kind, list] of Object.entries(d?.identity_info ?? {})) {
          const format = ID_FORMATS[kind];
          expect(format, kind).toBeDefined();
          for (const id of list ?? []) expect(id?.id_number, kind).toMatch(format as RegExp);
        }
        // A PAN's fifth letter is the surname's initial.
        const pan = d?.identity_info?.pan_number?.[0]?.id_number;
        if (pan) expect(pan[4]).toBe(d?.name?.split(' ').at(-1)?.[0]);
        for (const a of d?.address_info ?? []) {
          expect(['Permanent', 'Correspondence']).toContain(a?.type);
          expect(a?.postal).toMatch(/^\d{6}$/);
        }
      }

      const su = sandboxPayload('suData', tel(v)) as UpiLookupData;
      if (su.status_code === 422) expect(su).toEqual(KYC_NOT_FOUND);
      else {
        expectKycOk(su);
        expect(su.data?.upi_id?.length).toBeGreaterThan(0);
        for (const id of su.data?.upi_id ?? []) {
          expect(id).toMatch(UPI_PATTERN);
          expect(upiDetails(id).data?.account_exists, id).toBe(true);
        }
      }

      const sb = sandboxPayload('sbData', tel(v)) as BankLookupData;
      if (sb.status_code === 422) expect(sb).toEqual(KYC_NOT_FOUND);
      else {
        expectKycOk(sb);
        expect(sb.data?.bank_ifsc).toMatch(IFSC);
        expect(sb.data?.bank_account_no).toMatch(/^\d{11,15}$/);
        expect(sb.data?.bank_details?.bank).toEqual(expect.any(String));
      }

      const sr = sandboxPayload('srData', tel(v)) as RcLookupData;
      if (sr.status_code === 422) expect(sr).toEqual(KYC_NOT_FOUND);
      else {
        expectKycOk(sr);
        const rcs = ([] as string[]).concat(sr.data?.rc_number ?? []);
        expect(rcs.length).toBeGreaterThan(0);
        for (const rc of rcs) {
          expect(rc).toMatch(RC);
          expect(rcDetails(rc).success, rc).toBe(true);
        }
      }
    }
  });
});

describe('sandbox: e-mail payload shapes over 200 addresses', () => {
  const emails = sampleEmails(200);

  it('every e-mail source answers its shape', () => {
    for (const v of emails) {
      const ed = sandboxPayload('emailData', email(v)) as AccountProfileData;
      if (ed.success === false) expect(ed).toEqual({ success: false, error: 'Profile not found' });
      else {
        const profile = ed.PROFILE_CONTAINER?.profile;
        expect(profile?.personId).toMatch(/^\d{21}$/);
        expect(profile?.emails?.[0]?.value).toBe(v);
        expect(profile?.names?.[0]?.fullname).toEqual(expect.any(String));
        expect(profile?.profilePhotos?.[0]?.url).toMatch(SVG_DATA);
        expect(Number.isNaN(Date.parse(String(profile?.sourceIds?.lastUpdated)))).toBe(false);
        for (const r of ed.maps_result?.reviews ?? []) {
          expect(r.latitude).toBeGreaterThan(8);
          expect(r.latitude).toBeLessThan(31);
          expect(r.longitude).toBeGreaterThan(72);
          expect(r.longitude).toBeLessThan(92);
          expect(r.rating).toBeGreaterThanOrEqual(1);
          expect(r.rating).toBeLessThanOrEqual(5);
        }
      }

      for (const b of sandboxPayload('hibpData', email(v)) as Breach[]) {
        expect(b.Name).toEqual(expect.any(String));
        expect(b.BreachDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(b.PwnCount).toBeGreaterThan(0);
        expect(b.LogoPath).toMatch(SVG_DATA);
        expect(b.DataClasses?.length).toBeGreaterThan(0);
        expect(typeof b.IsVerified).toBe('boolean');
        expect(isReservedDomain(String(b.Domain))).toBe(true);
      }

      const ho = sandboxPayload('holeheData', email(v)) as RegisteredSitesData;
      expect(ho.checked?.length).toBe(20);
      expect(ho.used).toEqual(ho.checked?.filter((c) => c.exists === true).map((c) => c.site));
      for (const c of ho.checked ?? []) if (c.rateLimit) expect(c.exists).toBeNull();

      for (const z of (sandboxPayload('zehefData', email(v)) as AvatarServiceData).data ?? []) {
        expect(['found', 'not found']).toContain(z?.status);
        if (z?.status === 'found') expect(z.avatar_url).toMatch(SVG_DATA);
      }

      const gu = outcome('getuserData', email(v));
      if (!gu.notFoundError) {
        const person = (gu.payload as LinkedPersonData).person;
        expect(person?.linkedInUrl).toMatch(/^https:\/\/www\.linkedin\.example\.test\/in\//);
        expect(person?.schools?.educationHistory?.length).toBeGreaterThan(0);
        expect(person?.positions?.positionHistory?.length).toBeGreaterThan(0);
        expect(person?.skills?.length).toBeGreaterThan(0);
      }

      const ss = sandboxPayload('socialScanData', email(v)) as SocialScanData;
      expect(ss.data?.length).toBe(12);

      const os = outcome('osData', email(v));
      if (!os.notFoundError) {
        const phone = (os.payload as LinkedPhoneData).data?.phone;
        for (const p of ([] as string[]).concat(phone ?? [])) expect(p).toMatch(/^\+915\d{9}$/);
      }
    }
  });

  it('names a persona after a first.last address', () => {
    const ed = sandboxPayload('emailData', email('meera.iyer@example.com'));
    const gu = outcome('getuserData', email('meera.iyer@example.com'));
    const named = [ed, gu.payload].some((p) => JSON.stringify(p ?? '').includes('Meera Iyer'));
    const os = sandboxPayload('osintData', email('meera.iyer@example.com'));
    expect(named || JSON.stringify(os).includes('Meera')).toBe(true);
  });
});

describe('sandbox: demo identities', () => {
  it('lists every demo with a description', () => {
    expect(DEMO_IDENTITIES.length).toBeGreaterThanOrEqual(4);
    for (const d of DEMO_IDENTITIES) expect(d.description.length).toBeGreaterThan(20);
    expect(DEMO_IDENTITIES.map((d) => d.value)).toEqual(
      expect.arrayContaining([DEMO.richPhone, DEMO.sparsePhone, DEMO.richEmail, DEMO.emptyEmail]),
    );
    expect(DEMO.richPhone).toBe('919876543210');
  });

  it('rich phone: every source answers richly', () => {
    const q = tel(DEMO.richPhone);
    for (const s of PHONE_SOURCES) expect(isNotFound(s, outcome(s, q)), s).toBe(false);
    expect((sandboxPayload('smData', q) as SocialMediaData).response?.is_spam).toBe(true);
    expect((sandboxPayload('wpData', q) as WhatsAppData).isBusiness).toBe(true);
    expect((sandboxPayload('osintData', q) as OsintData).data?.length).toBeGreaterThanOrEqual(3);
    const ids = (sandboxPayload('sKData', q) as PrefillData).data?.details?.identity_info ?? {};
    for (const kind of Object.keys(ID_FORMATS)) expect(ids[kind]?.length, kind).toBeGreaterThan(0);
    const rcs = (sandboxPayload('srData', q) as RcLookupData).data?.rc_number;
    expect(rcs).toEqual([DEMO.rcWithChallans, DEMO.rcClean]);
    const challans = (rc: string): number =>
      (challanDetails(rc).data as ChallanData).challan_details?.length ?? 0;
    expect(challans(DEMO.rcWithChallans)).toBeGreaterThan(0);
    expect(challans(DEMO.rcClean)).toBe(0);
    expect((sandboxPayload('suData', q) as UpiLookupData).data?.upi_id).toEqual([DEMO.upi, DEMO.upiMobile]);
    const hlr = parseHlr(sandboxPayload('hlrData', q));
    expect(hlr.ported).toBe(true);
    expect(hlr.timestamp).toEqual(expect.any(String));
  });

  it('sparse phone: only hlrData (as a JSON string) and wpData answer', () => {
    const q = tel(DEMO.sparsePhone);
    const answering = PHONE_SOURCES.filter((s) => !isNotFound(s, outcome(s, q)));
    expect(answering.sort()).toEqual(['hlrData', 'wpData']);
    expect(typeof sandboxPayload('hlrData', q)).toBe('string');
    expect(parseHlr(sandboxPayload('hlrData', q)).connectivity_status).toBe('CONNECTED');
  });

  it('states one age for one date of birth, in the phone and the e-mail lookups alike', () => {
    const ages = (data: OsintData) => (data.data ?? []).map((r) => r.age).filter((a) => a != null);
    const stated = [
      ...ages(sandboxPayload('osintData', tel(DEMO.richPhone)) as OsintData),
      ...ages(sandboxPayload('osintData', email(DEMO.richEmail)) as OsintData),
    ].map(Number);
    const kyc = (sandboxPayload('sKData', tel(DEMO.richPhone)) as PrefillData).data?.details?.personal_info;
    expect(kyc?.dob).toBe('1990-04-17');
    if (kyc?.age != null) stated.push(Number(kyc.age));
    // 17 April 1990 → 36 on the sandbox's day, 1 October 2026.
    expect(stated.length).toBeGreaterThan(0);
    expect(new Set(stated)).toEqual(new Set([36]));
    // And over many personas: every OSINT age of a number is one age.
    for (const v of samplePhones(100)) {
      const own = new Set(ages(sandboxPayload('osintData', tel(v)) as OsintData).map(Number));
      expect(own.size, v).toBeLessThanOrEqual(1);
    }
  });

  it('rich e-mail: every source answers richly, and it is the rich phone’s person', () => {
    const q = email(DEMO.richEmail);
    for (const s of EMAIL_SOURCES) expect(isNotFound(s, outcome(s, q)), s).toBe(false);
    expect((sandboxPayload('hibpData', q) as Breach[]).length).toBeGreaterThanOrEqual(10);
    const reviews = (sandboxPayload('emailData', q) as AccountProfileData).maps_result?.reviews ?? [];
    expect(reviews.length).toBeGreaterThanOrEqual(3);
    for (const r of reviews) expect([typeof r.latitude, typeof r.longitude]).toEqual(['number', 'number']);
    expect((sandboxPayload('holeheData', q) as RegisteredSitesData).used?.length).toBeGreaterThanOrEqual(8);
    const person = (sandboxPayload('getuserData', q) as LinkedPersonData).person;
    expect(person?.schools?.educationHistory?.length).toBeGreaterThan(0);
    expect(person?.positions?.positionHistory?.length).toBeGreaterThanOrEqual(2);
    expect((sandboxPayload('osData', q) as LinkedPhoneData).data?.phone).toBe(DEMO.richPhone);
    const phoneName = (sandboxPayload('smData', tel(DEMO.richPhone)) as SocialMediaData).response?.name;
    expect(person?.displayName).toBe(phoneName);
  });

  it('empty e-mail: every source is not found or empty', () => {
    const q = email(DEMO.emptyEmail);
    for (const s of EMAIL_SOURCES) expect(isNotFound(s, outcome(s, q)), s).toBe(true);
    expect(sandboxPayload('emailData', q)).toEqual({ success: false, error: 'Profile not found' });
    expect(sandboxPayload('hibpData', q)).toEqual([]);
    expect((sandboxPayload('holeheData', q) as RegisteredSitesData).used).toEqual([]);
  });

  it('demo RCs and UPI ids', () => {
    const rc = rcDetails(DEMO.rcWithChallans) as KycEnvelope<RcDetails>;
    expectKycOk(rc);
    expect(rc.data?.owner_name).toBe('ROHAN SURESH DESHMUKH');
    // Some fields empty / null / NA, so the modal's hiding is exercised.
    const values = Object.values(rc.data ?? {});
    expect(values).toContain('');
    expect(values).toContain(null);
    expect(values).toContain('NA');
    expect(rcDetails('mh-14 fp 5678').data?.rc_number).toBe(DEMO.rcClean);
    expect(rcDetails(DEMO.rcUnknown)).toEqual(KYC_NOT_FOUND);
    expect((challanDetails(DEMO.rcUnknown).data as ChallanData).challan_details).toEqual([]);
    const withChallans = (challanDetails(DEMO.rcWithChallans).data as ChallanData).challan_details ?? [];
    expect(withChallans.length).toBe(3);
    for (const c of withChallans) {
      expect(c.challan_number).toMatch(/^MH\d{17}$/);
      if (c.challan_status === 'Pending')
        expect(c.payment_url).toMatch(/^https:\/\/echallan\.example\.test\//);
    }

    const upi = upiDetails(DEMO.upi) as KycEnvelope<UpiDetails>;
    expectKycOk(upi);
    expect(upi.data).toMatchObject({
      account_exists: true,
      upi_id: DEMO.upi,
      full_name: 'ROHAN SURESH DESHMUKH',
    });
    expect(upiDetails(DEMO.upiMobile).data?.full_name).toBe('ROHAN SURESH DESHMUKH');
    expect(upiDetails(DEMO.upiMissing).data).toMatchObject({ account_exists: false, full_name: null });
  });

  it('a UPI id on a mobile number names that number’s persona', () => {
    const v = '919812345678';
    const sk = sandboxPayload('sKData', tel(v)) as PrefillData;
    const name = upiDetails('9812345678@paytm').data;
    if (name?.account_exists) expect(name.full_name).toBe(sk.data?.details?.name ?? name.full_name);
  });
});

describe('sandbox: not-found rates', () => {
  it('each phone source misses 10–40 % of 500 numbers', () => {
    const phones = samplePhones(500, 99);
    for (const s of PHONE_SOURCES) {
      const misses = phones.filter((v) => isNotFound(s, outcome(s, tel(v)))).length / phones.length;
      expect(misses, s).toBeGreaterThan(0.1);
      expect(misses, s).toBeLessThan(0.4);
    }
  });

  it('each e-mail source misses 10–45 % of 500 addresses', () => {
    const emails = sampleEmails(500, 5);
    for (const s of EMAIL_SOURCES) {
      const misses = emails.filter((v) => isNotFound(s, outcome(s, email(v)))).length / emails.length;
      expect(misses, s).toBeGreaterThan(0.1);
      expect(misses, s).toBeLessThan(0.45);
    }
  });

  it('misses are correlated: some numbers are missing from many sources at once', () => {
    const phones = samplePhones(300, 3);
    const missCounts = phones.map(
      (v) => PHONE_SOURCES.filter((s) => isNotFound(s, outcome(s, tel(v)))).length,
    );
    expect(Math.max(...missCounts)).toBeGreaterThanOrEqual(6);
    expect(Math.min(...missCounts)).toBe(0);
  });
});

describe('sandbox: latency, abort and failure injection', () => {
  const wpProvider = (options: Parameters<typeof createSandboxProviders>[0]) => {
    const p = createSandboxProviders(options).find((x) => x.source === 'wpData');
    if (!p) throw new Error('no wpData provider');
    return p;
  };

  it('waits a latency within the configured range', async () => {
    const p = wpProvider({ latencyMs: (s) => (s === 'wpData' ? [40, 60] : [0, 0]) });
    for (const v of samplePhones(3)) {
      const started = performance.now();
      await p.fetch(tel(v), new AbortController().signal);
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(38);
      // The upper bound only has to catch a wait far outside the range; it leaves room for a busy machine.
      expect(elapsed).toBeLessThan(1_500);
    }
  });

  it('rejects promptly with the signal’s reason when aborted mid-wait', async () => {
    const p = wpProvider({ latencyMs: () => [2_000, 2_000] });
    const controller = new AbortController();
    const reason = new Error('lookup timed out');
    const started = performance.now();
    const pending = p.fetch(tel(DEMO.richPhone), controller.signal);
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const p = wpProvider({});
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(p.fetch(tel(DEMO.richPhone), controller.signal)).rejects.toThrow('gone');
  });

  it('injects failures at roughly the configured rate, and never by default', async () => {
    const next = lcg(42);
    const p = wpProvider({ failureRate: (s) => (s === 'wpData' ? 0.3 : 0), random: next });
    const signal = new AbortController().signal;
    let failures = 0;
    for (let i = 0; i < 1000; i++) {
      try {
        await p.fetch(tel(DEMO.richPhone), signal);
      } catch (error) {
        expect(error).toBeInstanceOf(SourceFailedError);
        expect((error as Error).message).toBe('Sandbox failure injected');
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(250);
    expect(failures).toBeLessThan(350);

    const always = wpProvider({ failureRate: () => 1 });
    await expect(always.fetch(tel(DEMO.richPhone), signal)).rejects.toThrow('Sandbox failure injected');
    const never = wpProvider({ random: () => 0 });
    await expect(never.fetch(tel(DEMO.richPhone), signal)).resolves.toBeTruthy();
  });
});

describe('parseSandboxSpec', () => {
  it('parses latency ranges with a * default', () => {
    const latency = parseSandboxSpec('hlrData=100-800,*=0-50', 'latency');
    expect(latency('hlrData')).toEqual([100, 800]);
    expect(latency('wpData')).toEqual([0, 50]);
    expect(parseSandboxSpec(' tcData = 25 , ', 'latency')('tcData')).toEqual([25, 25]);
    expect(parseSandboxSpec('tcData=25', 'latency')('wpData')).toEqual([0, 0]);
    expect(parseSandboxSpec('', 'latency')('anything')).toEqual([0, 0]);
  });

  it('parses failure rates with a * default', () => {
    const failure = parseSandboxSpec('hlrData=0.5,*=0', 'failure');
    expect(failure('hlrData')).toBe(0.5);
    expect(failure('rc')).toBe(0);
    expect(parseSandboxSpec('*=1', 'failure')('upi')).toBe(1);
    expect(parseSandboxSpec('', 'failure')('upi')).toBe(0);
  });

  it('rejects bad input with an error naming the entry', () => {
    const bad: Array<[string, 'latency' | 'failure', RegExp]> = [
      ['hlrData', 'latency', /no '='/],
      ['hlrData=abc', 'latency', /hlrData=abc/],
      ['hlrData=800-100', 'latency', /minimum above its maximum/],
      ['hlrData=-5', 'latency', /hlrData=-5/],
      ['hlrData=1-2-3', 'latency', /hlrData=1-2-3/],
      ['hlrData=0-999999', 'latency', /exceeds/],
      ['hlrdata=1-2', 'latency', /unknown source "hlrdata"/],
      ['hlrData=1-2,hlrData=3-4', 'latency', /given twice/],
      ['hlrData=1.5', 'failure', /above 1/],
      ['hlrData=0.1-0.2', 'failure', /hlrData=0.1-0.2/],
      ['*=', 'failure', /\*=/],
    ];
    for (const [spec, kind, message] of bad) {
      expect(() => parseSandboxSpec(spec, kind), spec).toThrow(SandboxSpecError);
      expect(() => parseSandboxSpec(spec, kind), spec).toThrow(message);
    }
  });
});

describe('sandbox: synthetic data only', () => {
  const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
  const URL_IN_TEXT = /https?:\/\/([^/\s"'?#]+)/g;
  const IP_IN_TEXT = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;

  function scan(payload: unknown, query: string): void {
    for (const s of strings(payload)) {
      if (s.startsWith('data:image/svg+xml,')) continue;
      for (const m of s.matchAll(EMAIL_IN_TEXT)) {
        if (m[0].toLowerCase() === query) continue;
        const domain = m[0].split('@')[1] ?? '';
        expect(isReservedDomain(domain), `${m[0]} in ${s}`).toBe(true);
      }
      for (const m of s.matchAll(URL_IN_TEXT)) expect(isReservedDomain(m[1] ?? ''), m[0]).toBe(true);
      for (const m of s.matchAll(IP_IN_TEXT)) expect(m[0], s).toMatch(/^(192\.0\.2|198\.51\.100)\.\d{1,3}$/);
    }
  }

  it('uses reserved domains for every e-mail and URL, and documentation ranges for every IP', () => {
    for (const v of [...samplePhones(200, 1234), DEMO.richPhone, DEMO.sparsePhone]) {
      for (const s of PHONE_SOURCES) scan(outcome(s, tel(v)).payload, v);
      const sr = sandboxPayload('srData', tel(v)) as RcLookupData;
      for (const rc of ([] as string[]).concat(sr.data?.rc_number ?? [])) {
        scan(rcDetails(rc), rc);
        scan(challanDetails(rc), rc);
      }
      const su = sandboxPayload('suData', tel(v)) as UpiLookupData;
      for (const id of su.data?.upi_id ?? []) scan(upiDetails(id), id);
    }
    // A real-looking address as the query: only the query itself may be off the reserved domains.
    for (const v of [...sampleEmails(200, 77), 'someone.real@gmail.com', DEMO.richEmail, DEMO.emptyEmail]) {
      for (const s of EMAIL_SOURCES) scan(outcome(s as EmailSource, email(v)).payload, v);
    }
  });

  it('links only unallocated 5-series numbers besides the one queried', () => {
    for (const v of samplePhones(200, 555)) {
      const sk = sandboxPayload('sKData', tel(v)) as PrefillData;
      for (const p of sk.data?.details?.phone_info ?? []) {
        if (p?.number !== v.slice(-10)) expect(p?.number).toMatch(/^5\d{9}$/);
      }
      for (const r of (sandboxPayload('osintData', tel(v)) as OsintData).data ?? []) {
        if (r.phone_secondary) expect(r.phone_secondary).toMatch(/^\+915\d{9}$/);
      }
    }
  });

  it('never points an image at a real host', () => {
    const keys = new Set([
      'profilePic',
      'profile_photo',
      'image',
      'photoUrl',
      'avatar_url',
      'LogoPath',
      'url',
    ]);
    const check = (value: unknown): void => {
      if (Array.isArray(value)) for (const v of value) check(v);
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (keys.has(k) && typeof v === 'string') expect(v, k).toMatch(SVG_DATA);
          else check(v);
        }
      }
    };
    for (const v of samplePhones(50, 8))
      for (const s of PHONE_SOURCES) check(outcome(s as PhoneSource, tel(v)).payload);
    for (const v of sampleEmails(50, 8)) for (const s of EMAIL_SOURCES) check(outcome(s, email(v)).payload);
  });
});
