/**
 * The source catalogue: every source key of a lookup answer (spec §3) with the searches it answers,
 * the one name it goes by, and the profile labels of the values it gives. PHONE_SOURCES,
 * EMAIL_SOURCES, the source names of the results page's source panel and the reports, the analysis's source
 * names and reliabilities, the profile's `SourceLabel` and the sandbox's source list all follow from
 * these two tables; nothing else lists sources.
 */
import { LOOKUP_KINDS, type LookupKind, type ProviderKind, SEARCH_KINDS, type SearchKind } from './kinds.ts';

/**
 * The labels beside each value of the merged profile (spec §3 names the first seven; 'Account
 * Provider' is its web-account-provider label), each with how far it is trusted on its own (the
 * analysis's `reliability`, see lookup/analysis/confidence.ts) and the hue of its chip on the results page.
 */
export const PROFILE_LABELS = {
  socialMedia: { text: 'Social Media', reliability: 0.5, hue: 'blue' },
  whatsApp: { text: 'WhatsApp', reliability: 0.5, hue: 'green' },
  gov: { text: 'Gov', reliability: 0.8, hue: 'emerald' },
  isp: { text: 'ISP Response', reliability: 0.8, hue: 'sky' },
  accountProvider: { text: 'Account Provider', reliability: 0.65, hue: 'rose' },
  getUser: { text: 'GetUser', reliability: 0.65, hue: 'indigo' },
  linkedIn: { text: 'LinkedIn', reliability: 0.65, hue: 'blue' },
  callerId: { text: 'Caller ID', reliability: 0.5, hue: 'violet' },
  callerApps: { text: 'Caller Apps', reliability: 0.5, hue: 'violet' },
  osint: { text: 'OSINT', reliability: 0.3, hue: 'amber' },
  telegram: { text: 'Telegram', reliability: 0.5, hue: 'sky' },
  avatarService: { text: 'Avatar Service', reliability: 0.5, hue: 'pink' },
  socialScan: { text: 'Social Scan', reliability: 0.5, hue: 'teal' },
  breachData: { text: 'Breach Data', reliability: 0.3, hue: 'red' },
  registeredSites: { text: 'Registered Sites', reliability: 0.5, hue: 'slate' },
} as const satisfies Record<string, ProfileLabelEntry>;

export interface ProfileLabelEntry {
  text: string;
  /** In [0, 1]: the support one value from this source gives on its own. */
  reliability: number;
  /** The chip colour family (styles.css `.chip-<hue>`). */
  hue: string;
}

export type ProfileLabelKey = keyof typeof PROFILE_LABELS;
/** A source label shown beside a profile value ('Gov', 'WhatsApp', ...). */
export type SourceLabel = (typeof PROFILE_LABELS)[ProfileLabelKey]['text'];

export interface AnswerSourceEntry {
  /** The lookups whose answer carries this key. */
  kinds: readonly LookupKind[];
  /** Its one name wherever the key is shown: the results page's source panel, the reports. */
  label: string;
  /** A fuller name for documents read without the results page beside them (PDF and AI reports). */
  longLabel?: string;
  /** The profile labels its values are shown under. */
  profile: readonly ProfileLabelKey[];
}

/**
 * The source keys of the phone and e-mail answers, in the order the answers list them. 'osintData'
 * answers both.
 */
export const ANSWER_SOURCES = {
  wpData: { kinds: ['tel'], label: 'WhatsApp', profile: ['whatsApp'] },
  hlrData: { kinds: ['tel'], label: 'ISP Response', profile: ['isp'] },
  tcData: { kinds: ['tel'], label: 'Caller ID', profile: ['callerId'] },
  allData: { kinds: ['tel'], label: 'Caller Apps', profile: ['callerApps'] },
  smData: { kinds: ['tel'], label: 'Social Media', profile: ['socialMedia'] },
  osintData: { kinds: ['tel', 'email'], label: 'OSINT', profile: ['osint'] },
  sKData: { kinds: ['tel'], label: 'Gov identity records', profile: ['gov'] },
  suData: { kinds: ['tel'], label: 'Gov UPI records', profile: ['gov'] },
  sbData: { kinds: ['tel'], label: 'Gov bank records', profile: ['gov'] },
  srData: { kinds: ['tel'], label: 'Gov vehicle records', profile: ['gov'] },
  telData: { kinds: ['tel'], label: 'Telegram', profile: ['telegram'] },
  emailData: { kinds: ['email'], label: 'Account Provider', profile: ['accountProvider'] },
  hibpData: { kinds: ['email'], label: 'Breach Data', profile: ['breachData'] },
  holeheData: { kinds: ['email'], label: 'Registered Sites', profile: ['registeredSites'] },
  zehefData: { kinds: ['email'], label: 'Avatar Service', profile: ['avatarService'] },
  getuserData: {
    kinds: ['email'],
    label: 'GetUser',
    longLabel: 'GetUser / LinkedIn',
    profile: ['getUser', 'linkedIn'],
  },
  socialScanData: { kinds: ['email'], label: 'Social Scan', profile: ['socialScan'] },
  osData: { kinds: ['email'], label: 'Linked phone', longLabel: 'OSINT (linked phone)', profile: ['osint'] },
  sitesData: {
    kinds: ['username'],
    label: 'Site check',
    longLabel: 'Site check (public profile pages)',
    profile: ['registeredSites'],
  },
  pseudonymData: {
    kinds: ['username'],
    label: 'Account search',
    longLabel: 'Account search (vendor)',
    profile: ['registeredSites'],
  },
} as const satisfies Record<string, AnswerSourceEntry>;

export type AnswerSource = keyof typeof ANSWER_SOURCES;
type AnswerOf<K extends LookupKind> = {
  [S in AnswerSource]: K extends (typeof ANSWER_SOURCES)[S]['kinds'][number] ? S : never;
}[AnswerSource];
export type PhoneSource = AnswerOf<'tel'>;
export type EmailSource = AnswerOf<'email'>;
export type UsernameSource = AnswerOf<'username'>;

const answersOf = <K extends LookupKind>(kind: K) =>
  (Object.keys(ANSWER_SOURCES) as AnswerSource[]).filter((key) =>
    (ANSWER_SOURCES[key].kinds as readonly LookupKind[]).includes(kind),
  ) as AnswerOf<K>[];

/** The source keys of a phone answer (GET /api/tel). */
export const PHONE_SOURCES: readonly PhoneSource[] = answersOf('tel');
/** The source keys of an e-mail answer (GET /api/email, under `data`). */
export const EMAIL_SOURCES: readonly EmailSource[] = answersOf('email');
/** The source keys of a username answer (GET /api/username). */
export const USERNAME_SOURCES: readonly UsernameSource[] = answersOf('username');

/** A search answered whole by one source, keyed by the kind itself. */
export type KindSource = Exclude<ProviderKind, LookupKind>;
const isKindSource = (kind: SearchKind): kind is KindSource =>
  kind !== 'leak' && !(LOOKUP_KINDS as readonly string[]).includes(kind);

/**
 * Sources that answer one search whole, keyed by the kind itself: the detail lookups ('rc', 'upi',
 * 'challan') and each corporate and verification search ('corporate:corporate_gstin', ...). Every
 * provider kind but the phone and e-mail lookups has one.
 */
export const KIND_SOURCES: readonly KindSource[] = SEARCH_KINDS.filter(isKindSource);

/** Every source key a provider may fill, answer sources first. */
export const SOURCE_KEYS: readonly string[] = [...Object.keys(ANSWER_SOURCES), ...KIND_SOURCES];

const isAnswerSource = (source: string): source is AnswerSource => Object.hasOwn(ANSWER_SOURCES, source);

/** The kinds a source answers; none for a key the catalogue does not hold. */
export function kindsOfSource(source: string): ProviderKind[] {
  if (isAnswerSource(source)) return [...ANSWER_SOURCES[source].kinds];
  return (KIND_SOURCES as readonly string[]).includes(source) ? [source as ProviderKind] : [];
}

const labels = (pick: (entry: AnswerSourceEntry) => string): Readonly<Record<string, string>> =>
  Object.fromEntries(Object.entries(ANSWER_SOURCES).map(([key, entry]) => [key, pick(entry)]));

/** Answer source key → its name ('sKData' → 'Gov identity records'). */
export const SOURCE_LABELS = labels((entry) => entry.label);
/** Answer source key → its name in a document ('getuserData' → 'GetUser / LinkedIn'). */
export const SOURCE_LONG_LABELS = labels((entry) => entry.longLabel ?? entry.label);

/** The reliability of the values a source gives (its profile labels' best). */
export function sourceKeyReliability(source: AnswerSource): number {
  return Math.max(...ANSWER_SOURCES[source].profile.map((label) => PROFILE_LABELS[label].reliability));
}

/** The kinds a provider answers, in catalogue order (every search kind but the leak search). */
export const PROVIDER_KINDS: readonly ProviderKind[] = SEARCH_KINDS.filter(
  (kind): kind is ProviderKind => kind !== 'leak',
);

/** The sources that answer a kind: a lookup's answer sources, or the kind's own source. */
export function sourcesOfKind(kind: ProviderKind): string[] {
  if ((LOOKUP_KINDS as readonly string[]).includes(kind)) return answersOf(kind as LookupKind);
  return [kind];
}

/**
 * What became of one source in one answer:
 * - `ok`: it answered with a payload; `not_found`: it answered that it has no record;
 * - `not_configured`: no vendor answers it in this deployment (and the sandbox is off);
 * - `rate_limited`: the vendor asked us to wait (429); `failed`: an error, a bad answer or refused
 *   credentials; `timed_out`: no answer within the time limit.
 */
export const SOURCE_STATES = [
  'ok',
  'not_found',
  'not_configured',
  'rate_limited',
  'failed',
  'timed_out',
] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

/** Who answered a source: a vendor's live API, the synthetic sandbox, or nobody. */
export const SOURCE_MODES = ['live', 'sandbox', 'not_configured'] as const;
export type SourceMode = (typeof SOURCE_MODES)[number];

/** One source's line in an answer's `source_status`. */
export interface SourceStatus {
  status: SourceState;
  mode: SourceMode;
  /** The vendor's name, for a live source. */
  vendor?: string;
  /** Why there is no payload, in words for the user. */
  message?: string;
}
