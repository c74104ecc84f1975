import { SEARCH_FAMILIES } from '../catalogue/kinds.ts';
import { SOURCE_LABELS } from '../catalogue/sources.ts';
import { corporateTypes, verificationTypes } from '../intel/fields.ts';
import { flattenIntelResult } from '../intel/flatten.ts';
import { declarationOf } from '../kinds/declarations.ts';
import { profileAttributes } from '../lookup/analysis/attributes.ts';
import type { AnalysisAttribute } from '../lookup/analysis/types.ts';
import { mergeEmailProfile, mergePhoneProfile } from '../lookup/profile.ts';
import { IDENTITY_PROOF_LABELS, type MergedProfile } from '../lookup/profile-types.ts';
import { isSiteCheckAnswer } from '../username/sites.ts';

/**
 * Typed entities: the identifiers a stored search result holds, read once so a case can link the
 * searches that found the same phone, e-mail, name, UPI id or vehicle. Pure: the server stores what
 * `entitiesOf` answers, the web shows it.
 */

export const ENTITY_TYPES = [
  'phone',
  'email',
  'name',
  'username',
  'upi',
  'bank_account',
  'ifsc',
  'pan',
  'vehicle_rc',
  'address',
  'employer',
  'domain',
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const ENTITY_LABELS: Record<EntityType, string> = {
  phone: 'Phone',
  email: 'E-mail',
  name: 'Name',
  username: 'Username',
  upi: 'UPI id',
  bank_account: 'Bank account',
  ifsc: 'IFSC',
  pan: 'PAN',
  vehicle_rc: 'Vehicle RC',
  address: 'Address',
  employer: 'Employer',
  domain: 'Domain',
};

/** One entity of one result: its type, its value as compared, and the sources that gave it. */
export interface ExtractedEntity {
  type: EntityType;
  value: string;
  sources: string[];
}

/** At most this many entities from one result (answers are untrusted input). */
export const MAX_ENTITIES_PER_RESULT = 2_000;
const MAX_VALUE_LENGTH = 300;

const PAN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const RC = /^[A-Z]{2}[0-9]{1,2}[A-Z]{0,3}[0-9]{1,4}$/;
const EMAIL = /^[^\s@]+@([^\s@]+\.[^\s@]+)$/;
const UPI = /^[a-z0-9._-]{2,}@[a-z][a-z0-9]{1,}$/;
const ACCOUNT = /^[0-9]{6,20}$/;

const squash = (value: string) => value.replace(/\s+/g, ' ').trim();
/** Words that fill a text field without naming anything ('No', 'N/A', 'null'), and bare numbers. */
const NOT_A_NAME = /^(?:yes|no|true|false|null|none|nil|na|n\/a|unknown|-+|\d+)$/i;

const intelLabels: ReadonlyMap<string, string> = new Map(
  [...corporateTypes, ...verificationTypes].map((type) => [`${type.area}:${type.type}`, type.label]),
);
/** The source a detail or intel answer is named by: its search type's label ('RC', 'PAN to UAN'). */
const kindSource = (kind: string): string =>
  intelLabels.get(kind) ?? (SEARCH_FAMILIES as Record<string, { label: string }>)[kind]?.label ?? kind;

/**
 * The value of an entity as it is compared across searches, or null when it is not one: phones as
 * `+` and their digits (a ten-digit number is an Indian one, +91), e-mails, UPI ids and domains lower
 * case, PAN, IFSC and RC upper case without spaces, the rest with their spaces folded.
 */
export function normalizeEntity(type: EntityType, raw: string): string | null {
  const value = squash(raw);
  if (value === '' || value.length > MAX_VALUE_LENGTH || /\p{Cc}/u.test(value)) return null;
  switch (type) {
    case 'phone': {
      const digits = value.replace(/\D/g, '');
      if (digits.length === 10) return `+91${digits}`;
      if (digits.length < 8 || digits.length > 15) return null;
      return `+${digits}`;
    }
    case 'email':
      return EMAIL.test(value) ? value.toLowerCase() : null;
    case 'domain': {
      const domain = value.toLowerCase().replace(/^www\./, '');
      return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? domain : null;
    }
    case 'upi': {
      const upi = value.toLowerCase();
      return UPI.test(upi) ? upi : null;
    }
    case 'pan': {
      const pan = value.toUpperCase().replace(/\s/g, '');
      return PAN.test(pan) ? pan : null;
    }
    case 'ifsc': {
      const ifsc = value.toUpperCase().replace(/\s/g, '');
      return IFSC.test(ifsc) ? ifsc : null;
    }
    case 'vehicle_rc': {
      const rc = value.toUpperCase().replace(/[\s-]/g, '');
      return RC.test(rc) ? rc : null;
    }
    case 'bank_account': {
      const account = value.replace(/[\s-]/g, '');
      return ACCOUNT.test(account) ? account : null;
    }
    default:
      return value.length >= 2 && !NOT_A_NAME.test(value) ? value : null;
  }
}

/** Collects entities, one per type and value, with every source that gave it. */
class Collector {
  private readonly found = new Map<string, ExtractedEntity>();

  add(type: EntityType, raw: unknown, source: string): void {
    if (typeof raw !== 'string' && typeof raw !== 'number') return;
    if (this.found.size >= MAX_ENTITIES_PER_RESULT) return;
    const value = normalizeEntity(type, String(raw));
    if (value === null) return;
    const key = `${type}\u0000${type === 'name' || type === 'address' || type === 'employer' || type === 'username' ? value.toLowerCase() : value}`;
    const entity = this.found.get(key);
    if (!entity) this.found.set(key, { type, value, sources: [source] });
    else if (!entity.sources.includes(source)) entity.sources.push(source);
    if (type === 'email') this.add('domain', value.split('@')[1] ?? '', source);
  }

  list(): ExtractedEntity[] {
    return [...this.found.values()];
  }
}

/** The analysis's attributes that name an entity, and the entity each one's values are. */
const ATTRIBUTE_ENTITIES: ReadonlyMap<string, EntityType> = new Map([
  ['Name', 'name'],
  ['Usernames', 'username'],
  ['Phone', 'phone'],
  ['E-mail', 'email'],
  ['UPI', 'upi'],
  ['Vehicles', 'vehicle_rc'],
  ['Address/Location', 'address'],
  [IDENTITY_PROOF_LABELS.pan_number ?? 'PAN Number', 'pan'],
]);

/** The entity an analysis attribute's values are ('Usernames': username), if they are one. */
export const attributeEntity = (attribute: string): EntityType | undefined =>
  ATTRIBUTE_ENTITIES.get(attribute);

/**
 * The entities of a phone or e-mail lookup: the merged values of its analysis (the values the results
 * page, the PDF and the exports show, with the same sources), and the employers of its work history,
 * which the analysis's occupation attribute names only inside job titles.
 */
export function analysisEntities(
  attributes: readonly AnalysisAttribute[],
  profile: MergedProfile,
): ExtractedEntity[] {
  const into = new Collector();
  for (const attribute of attributes) {
    const type = ATTRIBUTE_ENTITIES.get(attribute.attribute);
    for (const value of attribute.values) {
      if (type) for (const source of value.sources) into.add(type, value.value, source);
      else if (attribute.attribute === 'Bank account') {
        // '<account> (IFSC <code>, <bank>)': the account and its branch code are entities of their own.
        const account = value.value.split(' (')[0] ?? '';
        const ifsc = /IFSC ([A-Z0-9]+)/.exec(value.value)?.[1];
        for (const source of value.sources) {
          into.add('bank_account', account, source);
          if (ifsc) into.add('ifsc', ifsc, source);
        }
      }
    }
  }
  for (const job of profile.experience) into.add('employer', job.company, job.source);
  return into.list();
}

/** A flattened answer's key → the entity it holds, by the key's last segment. */
const FIELD_TYPES: Array<[RegExp, EntityType]> = [
  [/(^|_)(pan|pan_number|pan_no)$/, 'pan'],
  [/ifsc/, 'ifsc'],
  [/(^|_)(upi|upi_id|vpa)$/, 'upi'],
  [/(account_no|account_number|bank_account)/, 'bank_account'],
  [/(^|_)(rc_number|registration_number|reg_no|vehicle_number)$/, 'vehicle_rc'],
  [/(^|_)(email|email_id|email_address)$/, 'email'],
  [/(^|_)(mobile|mobile_number|phone|phone_number|contact_number)$/, 'phone'],
  [/(^|_)(employer|employer_name|establishment_name|company_name)$/, 'employer'],
  [/(^|_)(address|permanent_address|present_address|registered_address)$/, 'address'],
  [/(^|_)(name|full_name|owner_name|holder_name|account_holder_name|director_name)$/, 'name'],
  [/(^|_)(username|user_name)$/, 'username'],
  [/(^|_)(domain|website)$/, 'domain'],
];

function fromFlat(data: unknown, source: string, into: Collector): void {
  for (const line of flattenIntelResult(data)) {
    const key = (line.path.split('.').pop() ?? '').replace(/\[\d+\]$/, '').toLowerCase();
    const match = FIELD_TYPES.find(([pattern]) => pattern.test(key));
    if (match) into.add(match[1], line.value, source);
  }
}

const dict = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/**
 * The entities of one stored search result, by the search's kind: the merged profile of a phone or
 * e-mail lookup, the name of a username lookup (each site it was found on is a source), the records of a leak search (each record's breach is its source), the fields of a
 * detail, corporate or verification answer (the kind is the source). Unknown shapes give nothing.
 */
export function entitiesOf(kind: string, result: unknown): ExtractedEntity[] {
  const stored = dict(result);
  if (!stored) return [];
  const into = new Collector();
  const shape = declarationOf(kind)?.shape;
  if (shape === 'phone' || shape === 'email') {
    const payloads = dict(stored.payloads) ?? {};
    // The stored answer as the results page reads it: the payloads by source key, and their errors.
    const answer = { ...payloads, errors: dict(stored.errors) ?? {} } as never;
    const profile =
      shape === 'phone'
        ? mergePhoneProfile(answer, { origins: true })
        : mergeEmailProfile(answer, { origins: true });
    return analysisEntities(profileAttributes(profile), profile);
  } else if (shape === 'username') {
    // The name itself, with every site it was found on as a source; a name found nowhere is still
    // the case's entity, from the check that looked for it.
    for (const payload of Object.values(dict(stored.payloads) ?? {})) {
      if (!isSiteCheckAnswer(payload)) continue;
      const found = payload.sites.filter((site) => site.state === 'found');
      for (const site of found) into.add('username', payload.username, site.name);
      if (found.length === 0) into.add('username', payload.username, SOURCE_LABELS.sitesData ?? 'Site check');
    }
  } else if (shape === 'leak') {
    const records = Array.isArray(stored.data) ? stored.data : [];
    for (const item of records) {
      const record = dict(item);
      if (!record) continue;
      const source = String(dict(record.source)?.name ?? 'Leak');
      into.add('name', record.name, source);
      into.add('email', record.email, source);
      into.add('phone', record.phone, source);
      into.add('username', record.username, source);
      into.add('address', record.address, source);
    }
  } else {
    const payloads = dict(stored.payloads) ?? {};
    for (const [source, payload] of Object.entries(payloads)) fromFlat(payload, kindSource(source), into);
  }
  return into.list();
}
