/**
 * The merged profile (spec §2.5, §3): every lookup source's answer folded into the results page's
 * sections, each value labelled with the source that said it. Pure functions, no I/O.
 *
 * Upstream answers are untrusted JSON: any field may be missing, null or of the wrong
 * type. Every read goes through `at`, `list` and `text`, which turn whatever does not fit into
 * "nothing", so a malformed source loses its own values and never breaks the rest of the profile.
 */

import type { AnswerSource, EmailSource, PhoneSource, SourceLabel } from '../catalogue/sources.ts';
import { formatRecordDate } from '../records/format.ts';
import {
  type Experience,
  IDENTITY_PROOF_LABELS,
  type MergedProfile,
  type MergeOptions,
  type PhoneHighlights,
  type PlatformPresence,
  type ProfileEntry,
  type ProfileImage,
  type ProfileOrigin,
  type Qualification,
} from './profile-types.ts';
import type { EmailLookupData, OsintData, PhoneLookupResponse } from './sources.ts';

// ---------- reading untrusted input ----------

/**
 * A source's time as people read it ('2020-08-07T16:16:17.676Z' → '07 Aug 2020, 21:46 IST'), the
 * same on the results page, the reports and the exports; text that is not a date is kept as given.
 */
function readableTime(value: unknown): unknown {
  return typeof value === 'string' ? (formatRecordDate(value) ?? value) : value;
}

type Dict = Record<string, unknown>;

function dict(value: unknown): Dict | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Dict) : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Vendors send one value where a list is documented (and the reverse); both mean the same here. */
function listOrOne(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** Own properties only, so a key such as 'constructor' never reaches Object.prototype. */
function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    const container = dict(current);
    current = container && Object.hasOwn(container, key) ? container[key] : undefined;
  }
  return current;
}

const PLACEHOLDERS = new Set(['', 'n/a', '-', 'null', 'undefined']);

/** A displayable string, or undefined for anything empty, placeholder-like or not a string/number. */
function text(value: unknown): string | undefined {
  let raw: string | undefined;
  if (typeof value === 'string') raw = value;
  else if (typeof value === 'number' && Number.isFinite(value)) raw = String(value);
  if (raw === undefined) return undefined;
  const cleaned = raw.replace(/\s+/g, ' ').trim();
  return PLACEHOLDERS.has(cleaned.toLowerCase()) ? undefined : cleaned;
}

function year(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

function httpUrl(value: unknown): string | undefined {
  const candidate = text(value);
  if (!candidate) return undefined;
  try {
    const { protocol } = new URL(candidate);
    return protocol === 'http:' || protocol === 'https:' ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** Joins address-like parts, skipping a part the text already holds (addresses often repeat the state). */
function joinParts(parts: unknown[], separator = ', '): string | undefined {
  let joined = '';
  for (const part of parts.map(text)) {
    if (!part || joined.toLowerCase().includes(part.toLowerCase())) continue;
    joined = joined ? `${joined}${separator}${part}` : part;
  }
  return joined || undefined;
}

const ACRONYMS = new Set([
  'id',
  'ifsc',
  'micr',
  'upi',
  'imps',
  'neft',
  'rtgs',
  'swift',
  'pan',
  'dob',
  'url',
  'ip',
]);

/** 'ration_card' → 'Ration Card', 'lastSeen' → 'Last Seen', 'bank_ifsc' → 'Bank IFSC'. */
function humanize(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) =>
      ACRONYMS.has(word.toLowerCase())
        ? word.toUpperCase()
        : word[0]!.toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join(' ');
}

// ---------- images ----------

/** Spec §9: data URLs of image types, or http(s) URLs; anything else (javascript:, relative) is refused. */
export function isSafeImageUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  const value = url.trim();
  if (/^data:/i.test(value)) return /^data:image\/[a-z0-9.+-]+[;,]/i.test(value);
  return httpUrl(value) !== undefined;
}

const IMAGE_EXTENSION = /\.(jpe?g|gif|png|webp)$/i;

/**
 * Whether a value from arbitrary record fields should be drawn as an image (spec §9's extensions).
 * It also requires a safe URL, so a caller can trust it alone.
 */
export function looksLikeImage(url: unknown): boolean {
  if (typeof url !== 'string' || !isSafeImageUrl(url)) return false;
  const value = url.trim();
  if (/^data:image\//i.test(value)) return true;
  return IMAGE_EXTENSION.test(value.split(/[?#]/, 1)[0] ?? '');
}

// ---------- building a profile ----------

type EntrySection = {
  [K in keyof MergedProfile]: MergedProfile[K] extends ProfileEntry[] ? K : never;
}[keyof MergedProfile];

function emptyProfile(): MergedProfile {
  return {
    names: [],
    usernames: [],
    phones: [],
    emails: [],
    basicInfo: [],
    bankDetails: [],
    upiIds: [],
    identityProofs: [],
    verifiedAddresses: [],
    locations: [],
    countryCodes: [],
    carriers: [],
    jobProfiles: [],
    rcNumbers: [],
    lastUpdated: [],
    qualifications: [],
    experience: [],
    skills: [],
    internetPresence: [],
    images: [],
  };
}

/** What makes two values "the same": case and spacing never matter, and phones match on their last 10 digits. */
function sameness(section: EntrySection, value: string): string {
  if (section === 'phones' && /\d/.test(value)) return value.replace(/\D/g, '').slice(-10);
  return value.toLowerCase();
}

/**
 * Collects a profile. A repeat from the same source folds into the first; the same value from another
 * source is kept, so the investigator sees which sources corroborate each other.
 */
function profileBuilder(options: MergeOptions = {}) {
  const profile = emptyProfile();
  const seen = new Set<string>();
  const entries = new Map<string, ProfileEntry>();
  const firstTime = (...identity: unknown[]) => {
    const id = JSON.stringify(identity);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  };

  const writer = (source: SourceLabel, origin: ProfileOrigin) => ({
    /** The same source, for one record that names where it comes from (an OSINT record's breach). */
    named(name: unknown) {
      const clean = text(name);
      return writer(source, clean ? { key: origin.key, name: clean.slice(0, 120) } : origin);
    },
    entry(section: EntrySection, value: unknown, key?: string) {
      const clean = text(value);
      if (!clean) return;
      const id = JSON.stringify([section, source, key ?? '', sameness(section, clean)]);
      const existing = entries.get(id);
      if (existing) {
        // A repeat from the same source folds into the first, keeping where else it was said.
        const known = existing.origins?.some((o) => o.key === origin.key && o.name === origin.name);
        if (existing.origins && !known) existing.origins.push(origin);
        return;
      }
      const entry: ProfileEntry = key ? { value: clean, source, key } : { value: clean, source };
      if (options.origins) entry.origins = [origin];
      entries.set(id, entry);
      profile[section].push(entry);
    },
    image(url: unknown) {
      const clean = text(url);
      if (!clean || !isSafeImageUrl(clean) || !firstTime('images', source, clean)) return;
      profile.images.push({ url: clean, source } satisfies ProfileImage);
    },
    presence(platform: unknown, active: boolean, url?: unknown) {
      const name = text(platform);
      if (!name || !firstTime('internetPresence', source, name.toLowerCase())) return;
      const link = httpUrl(url);
      profile.internetPresence.push({
        platform: name,
        active,
        source,
        ...(link && { url: link }),
      } satisfies PlatformPresence);
    },
    qualification(item: unknown) {
      const found = readQualification(item);
      if (!found || !firstTime('qualifications', source, found.degree, found.field, found.school)) return;
      profile.qualifications.push({ ...found, source });
    },
    experience(item: unknown) {
      const found = readExperience(item);
      if (!found) return;
      const { title, company, startYear, endYear } = found;
      if (!firstTime('experience', source, title, company, startYear, endYear)) return;
      profile.experience.push({ ...found, source });
    },
  });

  /** The writer of one source label, for the values of one answer key. */
  const from = (source: SourceLabel, key: AnswerSource) => writer(source, { key });

  return { profile, from };
}

type From = ReturnType<typeof profileBuilder>['from'];
type Writer = ReturnType<From>;

/** Drops undefined fields so results compare and serialize cleanly. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function readQualification(item: unknown): Omit<Qualification, 'source'> | undefined {
  const found = defined({
    degree: text(at(item, 'degreeName')),
    field: text(at(item, 'fieldOfStudy')),
    school: text(at(item, 'schoolName')),
    url: httpUrl(at(item, 'schoolUrl')),
    startYear: year(at(item, 'startEndDate', 'start', 'year')),
    endYear: year(at(item, 'startEndDate', 'end', 'year')),
  });
  return found.degree || found.field || found.school ? found : undefined;
}

function readExperience(item: unknown): Omit<Experience, 'source'> | undefined {
  const found = defined({
    title: text(at(item, 'title')),
    company: text(at(item, 'companyName')),
    url: httpUrl(at(item, 'companyUrl')),
    startYear: year(at(item, 'startEndDate', 'start', 'year')),
    endYear: year(at(item, 'startEndDate', 'end', 'year')),
  });
  return found.title || found.company ? found : undefined;
}

// ---------- phone sources ----------

/** How one source's answer folds into the profile. */
type Fold = (answer: unknown, from: From) => void;

/**
 * The fold of every phone source, in the order the profile lists their values. A table over the
 * catalogue's phone sources, so a source added there does not compile until it is folded here.
 */
const PHONE_FOLDS: Record<PhoneSource, Fold> = {
  wpData: (r, from) => addWhatsApp(from('WhatsApp', 'wpData'), at(r, 'wpData')),
  hlrData: (r, from) => addIsp(from('ISP Response', 'hlrData'), parseHlr(at(r, 'hlrData'))),
  tcData: (r, from) => addCallerId(from('Caller ID', 'tcData'), at(r, 'tcData', 'data')),
  allData: (r, from) => addCallerApps(from('Caller Apps', 'allData'), at(r, 'allData')),
  smData: (r, from) => addSocialMedia(from('Social Media', 'smData'), at(r, 'smData', 'response')),
  osintData: (r, from) => addOsint(from('OSINT', 'osintData'), at(r, 'osintData')),
  sKData: (r, from) => addPrefill(from('Gov', 'sKData'), at(r, 'sKData', 'data')),
  suData: (r, from) => addUpi(from('Gov', 'suData'), at(r, 'suData', 'data')),
  sbData: (r, from) => addBank(from('Gov', 'sbData'), at(r, 'sbData', 'data')),
  srData: (r, from) => {
    const rcs = from('Gov', 'srData');
    for (const rc of listOrOne(at(r, 'srData', 'data', 'rc_number'))) rcs.entry('rcNumbers', rc);
  },
  telData: (r, from) => addTelegram(from('Telegram', 'telData'), at(r, 'telData')),
};

export function mergePhoneProfile(
  response: Partial<PhoneLookupResponse>,
  options: MergeOptions = {},
): MergedProfile {
  const { profile, from } = profileBuilder(options);
  for (const fold of Object.values(PHONE_FOLDS)) fold(response, from);
  return profile;
}

/** hlrData may arrive as a JSON string (spec §3); a string that does not parse is no answer. */
function parseHlr(value: unknown): Dict | undefined {
  if (typeof value !== 'string') return dict(value);
  try {
    return dict(JSON.parse(value));
  } catch {
    return undefined;
  }
}

function addWhatsApp(w: Writer, wp: unknown) {
  w.entry('names', at(wp, 'pushname'));
  w.entry('phones', at(wp, 'number'));
  w.entry('countryCodes', at(wp, 'countryCode'));
  w.image(at(wp, 'profilePic'));
  const isUser = at(wp, 'isUser');
  if (isUser === false) w.presence('WhatsApp', false);
  else if (isUser === true || text(at(wp, 'pushname'))) w.presence('WhatsApp', true);
}

function addIsp(w: Writer, hlr: Dict | undefined) {
  w.entry('phones', at(hlr, 'msisdn'));
  w.entry('locations', at(hlr, 'original_country_name'));
  w.entry('countryCodes', at(hlr, 'original_country_code'));
  const original = text(at(hlr, 'original_network_name'));
  const ported = text(at(hlr, 'ported_network_name'));
  w.entry('carriers', original);
  // HLR vendors repeat the original network as the "ported" one when nothing was ported.
  if (ported?.toLowerCase() !== original?.toLowerCase()) w.entry('carriers', ported, 'Ported');
  w.entry('lastUpdated', readableTime(at(hlr, 'timestamp')));
}

function addCallerId(w: Writer, data: unknown) {
  w.entry('names', at(data, 'basicInfo', 'name', 'fullName'));
  w.entry('names', at(data, 'basicInfo', 'name', 'altName'));
  w.entry('basicInfo', at(data, 'basicInfo', 'gender'), 'Gender');
  w.entry('basicInfo', at(data, 'basicInfo', 'callerType'), 'Caller Type');
  w.entry('jobProfiles', at(data, 'basicInfo', 'jobTitle'));
  w.entry('locations', at(data, 'addressInfo', 'address'));
  w.entry('countryCodes', at(data, 'addressInfo', 'countryCode'));
  w.entry('phones', at(data, 'phoneInfo', 'number'));
  w.entry('carriers', at(data, 'phoneInfo', 'carrier'));
}

function addCallerApps(w: Writer, all: unknown) {
  w.entry('names', at(all, 'callapp', 'name'));
  for (const viewer of list(at(all, 'viewcaller'))) w.entry('names', at(viewer, 'name'));
  w.entry('names', at(all, 'eyecon'));
  w.entry('phones', at(all, 'tcData', 'number'));
  w.entry('carriers', at(all, 'tcData', 'provieder'));
}

function addSocialMedia(w: Writer, social: unknown) {
  w.entry('names', at(social, 'name'));
  const fb = at(social, 'fb');
  if (text(fb)) w.presence('Facebook', true, fb);
}

const OSINT_BASIC_INFO = [
  ['age', 'Age'],
  ['gender', 'Gender'],
  ['dob', 'Date of Birth'],
] as const;

function addOsint(osint: Writer, data: unknown) {
  for (const record of list(at(data, 'data'))) {
    // Each record names the leak or directory it comes from.
    const w = osint.named(at(record, 'source'));
    w.entry('names', at(record, 'name'));
    w.entry('usernames', at(record, 'username'));
    w.entry('phones', at(record, 'phone'));
    w.entry('phones', at(record, 'phone_secondary'));
    w.entry('emails', at(record, 'email'));
    w.entry('emails', at(record, 'email_secondary'));
    w.entry('locations', at(record, 'address'));
    for (const [field, label] of OSINT_BASIC_INFO) w.entry('basicInfo', at(record, field), label);
    w.image(at(record, 'image'));
  }
}

const PERSONAL_INFO = [
  ['dob', 'Date of Birth'],
  ['age', 'Age'],
  ['gender', 'Gender'],
  ['total_income', 'Income'],
  ['occupation', 'Occupation'],
] as const;

function addPrefill(w: Writer, data: unknown) {
  const details = at(data, 'details');
  const personal = at(details, 'personal_info');
  w.entry('names', at(details, 'name'));
  w.entry('names', at(personal, 'full_name'));
  w.entry('phones', at(data, 'mobile'));
  for (const phone of list(at(details, 'phone_info'))) w.entry('phones', at(phone, 'number'));
  for (const email of list(at(details, 'email_info'))) w.entry('emails', at(email, 'email_address'));
  for (const [field, label] of PERSONAL_INFO) w.entry('basicInfo', at(personal, field), label);
  w.entry('jobProfiles', at(personal, 'occupation'));
  addIdentityProofs(w, at(details, 'identity_info'));
  for (const address of list(at(details, 'address_info'))) {
    const value = joinParts([at(address, 'address'), at(address, 'state'), at(address, 'postal')]);
    w.entry('verifiedAddresses', value, text(at(address, 'type')));
  }
}

export function identityProofLabel(kind: string): string {
  return Object.hasOwn(IDENTITY_PROOF_LABELS, kind) ? IDENTITY_PROOF_LABELS[kind]! : humanize(kind);
}

/** Each kind documents a list of `{id_number}`; a bare id or a single object is read the same way. */
function addIdentityProofs(w: Writer, info: unknown) {
  for (const [kind, ids] of Object.entries(dict(info) ?? {})) {
    const label = identityProofLabel(kind);
    if (!label) continue;
    for (const id of listOrOne(ids)) w.entry('identityProofs', dict(id) ? at(id, 'id_number') : id, label);
  }
}

function addUpi(w: Writer, data: unknown) {
  w.entry('names', at(data, 'name'));
  w.entry('phones', at(data, 'mobile_number'));
  for (const id of listOrOne(at(data, 'upi_id'))) w.entry('upiIds', id);
}

function addBank(w: Writer, data: unknown) {
  w.entry('names', at(data, 'name'));
  w.entry('bankDetails', at(data, 'bank_account_no'), 'Account Number');
  w.entry('bankDetails', at(data, 'bank_ifsc'), 'IFSC');
  for (const [field, value] of Object.entries(dict(at(data, 'bank_details')) ?? {})) {
    if (field !== 'client_id') w.entry('bankDetails', value, humanize(field));
  }
}

function addTelegram(w: Writer, tel: unknown) {
  const found = at(tel, 'found');
  if (found === false) {
    w.presence('Telegram', false);
    return;
  }
  const name = joinParts([at(tel, 'first_name'), at(tel, 'last_name')], ' ');
  const username = text(at(tel, 'username'))?.replace(/^@/, '');
  w.entry('names', name);
  w.entry('usernames', username);
  w.image(at(tel, 'profile_photo'));
  if (found === true || name || username) {
    const url = username && /^\w{3,32}$/.test(username) ? `https://t.me/${username}` : undefined;
    w.presence('Telegram', true, url);
  }
}

// ---------- e-mail sources ----------

/** The fold of every e-mail source, in the order the profile lists their values (see PHONE_FOLDS). */
const EMAIL_FOLDS: Record<EmailSource, Fold> = {
  emailData: (d, from) => addAccountProvider(from('Account Provider', 'emailData'), at(d, 'emailData')),
  getuserData: (d, from) => addLinkedPerson(from, at(d, 'getuserData', 'person')),
  zehefData: (d, from) => addAvatarService(from('Avatar Service', 'zehefData'), at(d, 'zehefData', 'data')),
  socialScanData: (d, from) =>
    addSocialScan(from('Social Scan', 'socialScanData'), at(d, 'socialScanData', 'data')),
  holeheData: (d, from) => addRegisteredSites(from('Registered Sites', 'holeheData'), at(d, 'holeheData')),
  osintData: (d, from) => addOsint(from('OSINT', 'osintData'), at(d, 'osintData')),
  osData: (d, from) => {
    const linked = from('OSINT', 'osData');
    for (const phone of listOrOne(at(d, 'osData', 'data', 'phone'))) linked.entry('phones', phone);
  },
  // Breaches are not values of the person: the results page and the reports list them apart.
  hibpData: () => {},
};

export function mergeEmailProfile(data: Partial<EmailLookupData>, options: MergeOptions = {}): MergedProfile {
  const { profile, from } = profileBuilder(options);
  for (const fold of Object.values(EMAIL_FOLDS)) fold(data, from);
  return profile;
}

function coordinate(value: unknown, limit: number): number | undefined {
  const n = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

function addAccountProvider(w: Writer, emailData: unknown) {
  const profile = at(emailData, 'PROFILE_CONTAINER', 'profile');
  for (const name of list(at(profile, 'names'))) {
    w.entry(
      'names',
      text(at(name, 'fullname')) ?? joinParts([at(name, 'firstName'), at(name, 'lastName')], ' '),
    );
  }
  for (const email of list(at(profile, 'emails'))) w.entry('emails', at(email, 'value'));
  // The provider's placeholder avatar says nothing about the person.
  for (const photo of list(at(profile, 'profilePhotos')))
    if (at(photo, 'isDefault') !== true) w.image(at(photo, 'url'));
  w.entry('lastUpdated', readableTime(at(profile, 'sourceIds', 'lastUpdated')));
  for (const review of list(at(emailData, 'maps_result', 'reviews'))) {
    const located =
      coordinate(at(review, 'latitude'), 90) !== undefined &&
      coordinate(at(review, 'longitude'), 180) !== undefined;
    if (located) w.entry('locations', joinParts([at(review, 'place_name'), at(review, 'address')]), 'Review');
  }
}

/** 'Analyst at Acme', or the title alone. */
function titleAt(title: unknown, company: unknown): string | undefined {
  const role = text(title);
  const employer = text(company);
  return role && employer ? `${role} at ${employer}` : role;
}

function jobTitle(position: unknown): string | undefined {
  return titleAt(at(position, 'title'), at(position, 'companyName'));
}

function addLinkedPerson(from: From, person: unknown) {
  const getUser = from('GetUser', 'getuserData');
  getUser.entry('names', at(person, 'displayName'));
  getUser.entry('locations', at(person, 'location'));
  for (const place of list(at(person, 'locationHistory'))) getUser.entry('locations', place);
  for (const phone of listOrOne(at(person, 'phoneNumbers'))) getUser.entry('phones', phone);
  getUser.image(at(person, 'photoUrl'));
  for (const account of list(at(person, 'profiles'))) {
    const network = text(at(account, 'network'));
    getUser.entry('usernames', at(account, 'username'));
    if (network) getUser.presence(humanize(network), true, at(account, 'url'));
  }

  const linkedIn = from('LinkedIn', 'getuserData');
  const url = httpUrl(at(person, 'linkedInUrl'));
  if (url) linkedIn.presence('LinkedIn', true, url);
  linkedIn.entry('jobProfiles', at(person, 'headline'));
  for (const school of list(at(person, 'schools', 'educationHistory'))) linkedIn.qualification(school);
  for (const position of list(at(person, 'positions', 'positionHistory'))) {
    linkedIn.experience(position);
    linkedIn.entry('jobProfiles', jobTitle(position));
  }
  for (const skill of list(at(person, 'skills')))
    linkedIn.entry('skills', dict(skill) ? at(skill, 'name') : skill);
}

function isFoundAvatar(item: unknown): boolean {
  return text(at(item, 'status'))?.toLowerCase() === 'found';
}

/** A profile service (Gravatar) also says who the person is: name, place, job and employer. */
function addAvatarService(avatars: Writer, items: unknown) {
  for (const item of list(items).filter(isFoundAvatar)) {
    const w = avatars.named(at(item, 'source'));
    w.entry('names', at(item, 'display_name'));
    w.entry('usernames', at(item, 'username'));
    w.entry('locations', at(item, 'location'));
    w.entry('jobProfiles', titleAt(at(item, 'job_title'), at(item, 'company')) ?? at(item, 'company'));
    w.image(at(item, 'avatar_url'));
    w.presence(at(item, 'source'), true, at(item, 'profile_url'));
  }
}

/** A platform where the address is not available is one where an account already uses it. */
function addSocialScan(w: Writer, items: unknown) {
  for (const item of list(items)) {
    const available = at(item, 'available');
    if (typeof available !== 'boolean' || at(item, 'valid') === false) continue;
    w.presence(at(item, 'platform'), !available);
  }
}

function addRegisteredSites(w: Writer, holehe: unknown) {
  for (const site of list(at(holehe, 'used'))) w.presence(site, true);
  for (const check of list(at(holehe, 'checked')))
    if (at(check, 'exists') === true) w.presence(at(check, 'site'), true);
}

// ---------- results page helpers ----------

export function phoneHighlights(response: Partial<PhoneLookupResponse>): PhoneHighlights {
  const social = at(response, 'smData', 'response');
  const hlr = parseHlr(at(response, 'hlrData'));
  const imsi = text(at(hlr, 'imsi'));
  const facebookUrl = httpUrl(at(social, 'fb'));
  const answered = {
    social: at(response, 'smData') != null,
    whatsapp: at(response, 'wpData') != null,
    isp: at(response, 'hlrData') != null,
  };
  return {
    markedAsSpam: at(social, 'is_spam') === true,
    whatsappBusiness: at(response, 'wpData', 'isBusiness') === true,
    ...(imsi && { imsi }),
    phoneStatus: !answered.isp ? 'Unknown' : text(at(hlr, 'timestamp')) ? 'Active' : 'Inactive',
    ...(facebookUrl && { facebookUrl }),
    answered,
  };
}

/** A platform listed as Inactive is a negative finding, not something found about the person. */
export function isProfileEmpty(profile: MergedProfile): boolean {
  const { internetPresence, ...sections } = profile;
  return (
    Object.values(sections).every((items) => items.length === 0) && !internetPresence.some((p) => p.active)
  );
}

/** Spec §4: empty if the merged profile has nothing and there is no osint data. */
export function isPhoneResultEmpty(response: Partial<PhoneLookupResponse>): boolean {
  return isProfileEmpty(mergePhoneProfile(response)) && cardsOf(at(response, 'osintData')).length === 0;
}

function hasContent(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  const object = dict(value);
  if (object) return Object.keys(object).length > 0;
  return typeof value === 'boolean' || text(value) !== undefined;
}

/**
 * Spec §4: empty if the e-mail-profile source failed or has no success, and there are no breaches, no
 * osint data, no found avatar or other sources, and no registered sites.
 */
export function isEmailResultEmpty(data: Partial<EmailLookupData>): boolean {
  const otherSources =
    list(at(data, 'zehefData', 'data')).some(isFoundAvatar) ||
    Object.values(dict(at(data, 'getuserData', 'person')) ?? {}).some(hasContent) ||
    list(at(data, 'socialScanData', 'data')).some((item) => at(item, 'available') === false) ||
    listOrOne(at(data, 'osData', 'data', 'phone')).some((phone) => text(phone) !== undefined);
  const foundSomething =
    at(data, 'emailData', 'success') === true ||
    list(at(data, 'hibpData')).some((breach) => dict(breach) !== undefined) ||
    cardsOf(at(data, 'osintData')).length > 0 ||
    otherSources ||
    list(at(data, 'holeheData', 'used')).some((site) => text(site) !== undefined);
  return !foundSomething;
}

/** One OSINT record as a results card; `additional` feeds the 'Additional Information' panel. */
export interface ExtraRecord {
  /** Undefined when the record has none; the card shows 'Unknown User'. */
  name?: string;
  phone?: string;
  email?: string;
  image?: string;
  additional: Array<[label: string, value: string]>;
}

function displayValue(value: unknown): string | undefined {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(displayValue).filter(Boolean).join(', ') || undefined;
  if (dict(value)) {
    if (Object.keys(value as Dict).length === 0) return undefined;
    try {
      return JSON.stringify(value);
    } catch {
      return undefined;
    }
  }
  return text(value);
}

const CARD_FIELDS = ['name', 'phone', 'email', 'image'] as const;

function toCard(record: Dict): ExtraRecord | undefined {
  const image = text(at(record, 'image'));
  const card: ExtraRecord = defined({
    name: text(at(record, 'name')),
    phone: text(at(record, 'phone')),
    email: text(at(record, 'email')),
    image: image && isSafeImageUrl(image) ? image : undefined,
    additional: [],
  });
  for (const [field, value] of Object.entries(record)) {
    // A card field that did not fit its slot (an object name, an unsafe image) is still shown, as text.
    if ((CARD_FIELDS as readonly string[]).includes(field) && card[field as (typeof CARD_FIELDS)[number]])
      continue;
    const shown = displayValue(value);
    if (shown) card.additional.push([humanize(field), shown]);
  }
  const empty = CARD_FIELDS.every((field) => !card[field]) && card.additional.length === 0;
  return empty ? undefined : card;
}

export function extraRecords(osint: OsintData | null | undefined): ExtraRecord[] {
  return cardsOf(osint);
}

function cardsOf(osint: unknown): ExtraRecord[] {
  return list(at(osint, 'data')).flatMap((item) => {
    const record = dict(item);
    const card = record && toCard(record);
    return card ? [card] : [];
  });
}
