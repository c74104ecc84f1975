/**
 * The AI report's analysis (docs/architecture.md, Reports), used by the reports alone: what a phone or e-mail lookup says about its subject, weighed.
 * Built on the merged profile (profile.ts), it groups each attribute's values into clusters of "the same
 * value", scores each cluster by the sources that gave it, marks the attribute corroborated, conflicting
 * or single-source, and adds an exposure summary, a timeline and suggested next steps. Pure, no I/O,
 * deterministic: the same answer always gives the same analysis.
 *
 * Upstream answers are untrusted: every read tolerates missing or wrongly typed fields,
 * lists and strings are capped, and nothing here throws on junk input.
 *
 * Confidence of a value (a cluster of equivalent values):
 *
 *     confidence = min(0.97, 1 − Π over distinct sources s of (1 − reliability(s) × match(s)))
 *
 * rounded to 2 decimals: a noisy-OR, treating each distinct source label as one independent witness.
 * reliability (the source catalogue's): Gov, ISP Response 0.8; LinkedIn, GetUser, Account Provider
 * 0.65; Caller ID, Caller Apps, Social Media, WhatsApp, Telegram, Avatar Service, Social Scan,
 * Registered Sites 0.5; OSINT, Breach Data and anything unknown 0.3. match is 1, except for a name that agrees with the cluster on a single
 * word only ('Rohan' beside 'Rohan Suresh Deshmukh'), which counts half. Several records from one
 * source count once, with their best match. So Gov alone gives 0.8, Gov and OSINT 0.86, two caller
 * apps 0.75, OSINT alone 0.3; nothing reaches certainty.
 *
 * Status of an attribute: 'corroborated' when its top value has ≥ 2 sources and, for single-valued
 * attributes (name, date of birth, gender, each identity document), no rival value reaches 80 % of the
 * top value's confidence; 'conflicting' when a single-valued attribute has ≥ 2 distinct values and is
 * not corroborated; 'single-source' otherwise. Multi-valued attributes (phones, e-mails, addresses…)
 * are never conflicting: a person may have several.
 */

import {
  EMAIL_SOURCES,
  type EmailLookupData,
  IDENTITY_PROOF_LABELS,
  type MergedProfile,
  mergeEmailProfile,
  mergePhoneProfile,
  PHONE_SOURCES,
  type PhoneLookupResponse,
  PROFILE_LABELS,
  phoneHighlights,
  SOURCE_LONG_LABELS,
  type SourceLabel,
} from '@footprint/domain';

export interface ProfileAnalysis {
  attributes: Array<{
    attribute: string;
    values: Array<{ value: string; sources: string[]; confidence: number }>;
    status: 'corroborated' | 'conflicting' | 'single-source';
  }>;
  exposure: {
    breaches: number;
    breachNames: string[];
    sensitiveBreaches: number;
    registeredSites: number;
    publicProfiles: Array<{ platform: string; url?: string }>;
    dataClasses: string[];
  };
  timeline: Array<{ date: string; event: string; source: string }>;
  nextSteps: string[];
}

export type AnalysisAttribute = ProfileAnalysis['attributes'][number];
export type AnalysisValue = AnalysisAttribute['values'][number];
export type AttributeStatus = AnalysisAttribute['status'];
export type ExposureSummary = ProfileAnalysis['exposure'];
export type TimelineEvent = ProfileAnalysis['timeline'][number];

/** How far one source label is trusted on its own (see the formula above). */
export const SOURCE_RELIABILITY = Object.fromEntries(
  Object.values(PROFILE_LABELS).map(({ text, reliability }) => [text, reliability]),
) as Readonly<Record<SourceLabel, number>>;

export const MAX_CONFIDENCE = 0.97;
export const MAX_NEXT_STEPS = 10;
/** A rival value at or above this share of the top value's confidence keeps an attribute from being corroborated. */
export const COMPARABLE_SHARE = 0.8;

const DEFAULT_RELIABILITY = 0.3;
const MAX_LIST = 500;
const MAX_VALUE_CHARS = 300;
const MAX_VALUES_PER_ATTRIBUTE = 25;

export function sourceReliability(source: string): number {
  return Object.hasOwn(SOURCE_RELIABILITY, source)
    ? SOURCE_RELIABILITY[source as SourceLabel]
    : DEFAULT_RELIABILITY;
}

/**
 * The confidence of a value given by these sources, each with an optional match weight in (0, 1]
 * (default 1). Repeated sources count once, at their best weight.
 */
export function confidenceFor(sources: ReadonlyArray<string | { source: string; weight?: number }>): number {
  const best = new Map<string, number>();
  for (const item of sources) {
    const source = typeof item === 'string' ? item : item.source;
    const weight = typeof item === 'string' ? 1 : Math.min(1, Math.max(0, item.weight ?? 1));
    const support = sourceReliability(source) * weight;
    best.set(source, Math.max(best.get(source) ?? 0, support));
  }
  if (best.size === 0) return 0;
  let doubt = 1;
  for (const support of best.values()) doubt *= 1 - support;
  return Math.round(Math.min(MAX_CONFIDENCE, 1 - doubt) * 100) / 100;
}

// ---------- reading untrusted input ----------

type Dict = Record<string, unknown>;

function dict(value: unknown): Dict | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Dict) : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value.slice(0, MAX_LIST) : [];
}

function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    const container = dict(current);
    current = container && Object.hasOwn(container, key) ? container[key] : undefined;
  }
  return current;
}

const PLACEHOLDERS = new Set(['', 'n/a', 'na', '-', 'null', 'undefined', 'none']);

function text(value: unknown): string | undefined {
  let raw: string | undefined;
  if (typeof value === 'string') raw = value;
  else if (typeof value === 'number' && Number.isFinite(value)) raw = String(value);
  if (raw === undefined) return undefined;
  // Control characters never belong in a report line.
  const cleaned = raw
    .slice(0, MAX_VALUE_CHARS * 4)
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (PLACEHOLDERS.has(cleaned.toLowerCase())) return undefined;
  return cleaned.length > MAX_VALUE_CHARS ? `${cleaned.slice(0, MAX_VALUE_CHARS - 1)}…` : cleaned;
}

function parseHlr(value: unknown): Dict | undefined {
  if (typeof value !== 'string') return dict(value);
  try {
    return dict(JSON.parse(value));
  } catch {
    return undefined;
  }
}

/** 'YYYY-MM-DD' from ISO dates/timestamps, 'DD/MM/YYYY' or 'DD-MM-YYYY'; 'YYYY' from a bare year. */
export function isoDay(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? validYear(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (/^\d{4}$/.test(s)) return validYear(Number(s));
  const isoForm = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(s);
  const dayFirst = isoForm ? undefined : /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (!isoForm && !dayFirst) return undefined;
  const [y, m, d] = isoForm
    ? [Number(isoForm[1]), Number(isoForm[2]), Number(isoForm[3])]
    : [Number(dayFirst![3]), Number(dayFirst![2]), Number(dayFirst![1])];
  if (!validYear(y) || m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function validYear(y: number): string | undefined {
  // 1800-01-01 is a vendor sentinel for "no date" (spec §9).
  return y >= 1900 && y <= 2100 ? String(y) : undefined;
}

// ---------- clustering values ----------

/** One value one source gave for an attribute. */
interface Observation {
  value: string;
  source: string;
  /** Overrides how the value is shown (e.g. a carrier marked as the ported-to network). */
  display?: string;
  /** Overrides the normalized identity of the value (exact-mode attributes). */
  norm?: string;
}

type Mode = 'exact' | 'name' | 'tokens' | 'phone' | 'date' | 'gender' | 'handle';

interface AttributeSpec {
  attribute: string;
  mode: Mode;
  /** One true value per person: distinct values conflict. */
  single: boolean;
}

interface Cluster {
  tokens: string[];
  norm: string;
  members: Array<{ obs: Observation; weight: number; index: number }>;
}

const alnum = (value: string) => value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Caller-id decorations and business labels that say nothing about who the person is. */
const NAME_NOISE = new Set([
  'ji',
  'jee',
  'bhai',
  'bhaiya',
  'bro',
  'sir',
  'madam',
  'mam',
  'maam',
  'office',
  'home',
  'work',
  'new',
  'old',
  'jio',
  'airtel',
  'vodafone',
  'bsnl',
  'personal',
  'mobile',
  'mr',
  'mrs',
  'ms',
  'dr',
  'shri',
  'smt',
  'enterprises',
  'enterprise',
  'services',
  'service',
  'consultancy',
  'consultants',
  'traders',
  'trading',
  'real',
  'estate',
  'loan',
  'loans',
  'agent',
  'credit',
  'card',
  'insurance',
  'spam',
  'fraud',
]);

const TOKEN_NOISE = new Set([
  'at',
  'the',
  'of',
  'and',
  'in',
  'pvt',
  'ltd',
  'limited',
  'private',
  'llp',
  'inc',
]);

function tokensOf(value: string, mode: Mode): string[] {
  const words = value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const noise = mode === 'name' ? NAME_NOISE : TOKEN_NOISE;
  return words.filter((w) => !noise.has(w)).slice(0, 12);
}

function normalize(obs: Observation, mode: Mode): string | undefined {
  if (obs.norm !== undefined) return obs.norm || undefined;
  switch (mode) {
    case 'phone': {
      const digits = obs.value.replace(/\D/g, '');
      return digits.length >= 6 ? digits.slice(-10) : alnum(obs.value) || undefined;
    }
    case 'date':
      return isoDay(obs.value) ?? (alnum(obs.value) || undefined);
    case 'gender':
      return genderOf(obs.value) ?? (alnum(obs.value) || undefined);
    case 'handle':
      return alnum(obs.value.replace(/^@/, '')) || undefined;
    default:
      return alnum(obs.value) || undefined;
  }
}

function genderOf(value: string): string | undefined {
  const v = alnum(value);
  if (v === 'm' || v === 'male' || v === 'man') return 'Male';
  if (v === 'f' || v === 'female' || v === 'woman') return 'Female';
  return undefined;
}

function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return false;
    previous = current;
  }
  return previous[b.length]! <= max;
}

/** Same word, an initial of it, or (for names) a likely misspelling ('Deshmuk' for 'Deshmukh'). */
function tokenMatches(a: string, b: string, mode: Mode): boolean {
  if (a === b) return true;
  if (mode !== 'name') return false;
  if ((a.length === 1 && b.startsWith(a)) || (b.length === 1 && a.startsWith(b))) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter >= 8) return editDistanceAtMost(a, b, 2);
  if (shorter >= 5) return editDistanceAtMost(a, b, 1);
  return false;
}

/** How many of `small`'s tokens each match a distinct token of `big`; -1 when one does not. */
function subsetMatch(small: string[], big: string[], mode: Mode): number {
  const used = new Set<number>();
  const pending: string[] = [];
  // Exact words first, so an initial or a misspelling never takes a word another token matches exactly.
  for (const token of small) {
    const i = big.findIndex((word, index) => !used.has(index) && word === token);
    if (i >= 0) used.add(i);
    else pending.push(token);
  }
  for (const token of pending) {
    const i = big.findIndex((word, index) => !used.has(index) && tokenMatches(token, word, mode));
    if (i < 0) return -1;
    used.add(i);
  }
  return used.size;
}

const informative = (tokens: string[]) => tokens.filter((t) => t.length > 1).length;

function clusterObservations(observations: Observation[], mode: Mode): Cluster[] {
  const clusters: Cluster[] = [];
  if (mode === 'name' || mode === 'tokens') {
    const items = observations
      .map((obs, index) => ({ obs, index, tokens: tokensOf(obs.value, mode) }))
      .filter((item) => item.tokens.length > 0);
    // Fullest forms first, so shorter forms join the person they abbreviate.
    items.sort(
      (a, b) =>
        informative(b.tokens) - informative(a.tokens) ||
        b.tokens.length - a.tokens.length ||
        sourceReliability(b.obs.source) - sourceReliability(a.obs.source) ||
        b.tokens.join('').length - a.tokens.join('').length ||
        a.index - b.index,
    );
    for (const item of items) {
      let best: Cluster | undefined;
      let bestSlack = Number.POSITIVE_INFINITY;
      for (const cluster of clusters) {
        const matched = subsetMatch(item.tokens, cluster.tokens, mode);
        if (matched < 0) continue;
        const slack = cluster.tokens.length - matched;
        if (slack < bestSlack) [best, bestSlack] = [cluster, slack];
      }
      if (!best) {
        clusters.push({ tokens: item.tokens, norm: item.tokens.join(' '), members: [] });
        best = clusters[clusters.length - 1]!;
      }
      // A name that agrees on a single word only ('Rohan') is weak evidence for 'Rohan Suresh Deshmukh'.
      const partial = mode === 'name' && informative(item.tokens) < 2 && informative(best.tokens) >= 2;
      best.members.push({ obs: item.obs, weight: partial ? 0.5 : 1, index: item.index });
    }
    return clusters;
  }
  const byNorm = new Map<string, Cluster>();
  observations.forEach((obs, index) => {
    const norm = normalize(obs, mode);
    if (!norm) return;
    let cluster = byNorm.get(norm);
    if (!cluster) {
      cluster = { tokens: [], norm, members: [] };
      byNorm.set(norm, cluster);
      clusters.push(cluster);
    }
    cluster.members.push({ obs, weight: 1, index });
  });
  return clusters;
}

function displayOf(cluster: Cluster, mode: Mode): string {
  const members = cluster.members;
  if (mode === 'date') return isoDay(members[0]!.obs.value) ?? members[0]!.obs.value;
  if (mode === 'gender') return genderOf(members[0]!.obs.value) ?? members[0]!.obs.value;
  if (mode === 'phone') {
    // The fullest form, without a trunk prefix: '+919876543210' rather than '09876543210'.
    const digits = members
      .map((m) => m.obs.value.replace(/\D/g, '').replace(/^0+/, ''))
      .sort((a, b) => b.length - a.length)[0];
    if (digits && digits.length >= 6) return digits.length > 10 ? `+${digits}` : digits;
  }
  // Name/token clusters: members arrive fullest first. Exact clusters: the most reliable source's form.
  const chosen =
    mode === 'name' || mode === 'tokens'
      ? members[0]!
      : [...members].sort(
          (a, b) => sourceReliability(b.obs.source) - sourceReliability(a.obs.source) || a.index - b.index,
        )[0]!;
  return chosen.obs.display ?? chosen.obs.value;
}

/** Values go into a report: control characters out, length capped. */
function cleanObservation(obs: Observation): Observation[] {
  const value = text(obs.value);
  if (!value) return [];
  const display = obs.display === undefined ? undefined : text(obs.display);
  return [{ ...obs, value, ...(display !== undefined && { display }) }];
}

function analyzeAttribute(spec: AttributeSpec, raw: Observation[]): AnalysisAttribute | undefined {
  const observations = raw.slice(0, MAX_LIST).flatMap(cleanObservation);
  const clusters = clusterObservations(observations, spec.mode);
  if (clusters.length === 0) return undefined;
  const values = clusters
    .map((cluster) => {
      // Most reliable first; among equals, in the order the sources answered.
      const firstSeen = new Map<string, number>();
      for (const m of cluster.members)
        firstSeen.set(m.obs.source, Math.min(firstSeen.get(m.obs.source) ?? m.index, m.index));
      const sources = [...firstSeen.keys()].sort(
        (a, b) => sourceReliability(b) - sourceReliability(a) || firstSeen.get(a)! - firstSeen.get(b)!,
      );
      const confidence = confidenceFor(
        cluster.members.map((m) => ({ source: m.obs.source, weight: m.weight })),
      );
      const first = Math.min(...cluster.members.map((m) => m.index));
      return { value: displayOf(cluster, spec.mode), sources, confidence, first };
    })
    .sort((a, b) => b.confidence - a.confidence || b.sources.length - a.sources.length || a.first - b.first)
    .slice(0, MAX_VALUES_PER_ATTRIBUTE)
    .map(({ value, sources, confidence }) => ({ value, sources, confidence }));
  const [top, ...rivals] = values;
  if (!top) return undefined;
  const rivalComparable = rivals.some((v) => v.confidence >= top.confidence * COMPARABLE_SHARE);
  let status: AttributeStatus = 'single-source';
  if (top.sources.length >= 2 && !(spec.single && rivalComparable)) status = 'corroborated';
  else if (spec.single && rivals.length > 0) status = 'conflicting';
  return { attribute: spec.attribute, values, status };
}

// ---------- attributes from the merged profile ----------

const entries = (items: MergedProfile['names'], keys?: string[]): Observation[] =>
  items
    .filter((e) => !keys || (e.key !== undefined && keys.includes(e.key)))
    .map((e) => ({ value: e.value, source: e.source }));

function bankObservations(profile: MergedProfile): Observation[] {
  const bySource = new Map<string, { account?: string; ifsc?: string; bank?: string }>();
  for (const entry of profile.bankDetails) {
    const found = bySource.get(entry.source) ?? {};
    if (entry.key === 'Account Number') found.account ??= entry.value;
    else if (entry.key === 'IFSC') found.ifsc ??= entry.value;
    else if (entry.key === 'Bank') found.bank ??= entry.value;
    bySource.set(entry.source, found);
  }
  const out: Observation[] = [];
  for (const [source, { account, ifsc, bank }] of bySource) {
    if (!account) continue;
    const details = [ifsc && `IFSC ${ifsc}`, bank].filter(Boolean).join(', ');
    out.push({ value: details ? `${account} (${details})` : account, source, norm: alnum(account) });
  }
  return out;
}

function carrierObservations(profile: MergedProfile): Observation[] {
  return profile.carriers.map((e) =>
    e.key === 'Ported'
      ? { value: e.value, source: e.source, display: `${e.value} (ported to; current network)` }
      : { value: e.value, source: e.source },
  );
}

const OTHER_ID = 'Identity document';

function identityKinds(profile: MergedProfile): string[] {
  const known = Object.values(IDENTITY_PROOF_LABELS);
  const seen = [...new Set(profile.identityProofs.map((e) => e.key ?? OTHER_ID))];
  return [
    ...known.filter((label) => seen.includes(label)),
    ...seen.filter((label) => !known.includes(label)),
  ];
}

function profileAttributes(profile: MergedProfile): AnalysisAttribute[] {
  const specs: Array<[AttributeSpec, Observation[]]> = [
    [{ attribute: 'Name', mode: 'name', single: true }, entries(profile.names)],
    [{ attribute: 'Phone', mode: 'phone', single: false }, entries(profile.phones)],
    [{ attribute: 'E-mail', mode: 'exact', single: false }, entries(profile.emails)],
    [{ attribute: 'Usernames', mode: 'handle', single: false }, entries(profile.usernames)],
    [
      { attribute: 'Address/Location', mode: 'exact', single: false },
      [
        ...entries(profile.verifiedAddresses),
        // Places the subject reviewed are not where they live; the timeline carries them.
        ...entries(profile.locations.filter((e) => e.key !== 'Review')),
      ],
    ],
    [
      { attribute: 'Date of birth', mode: 'date', single: true },
      entries(profile.basicInfo, ['Date of Birth']),
    ],
    [{ attribute: 'Gender', mode: 'gender', single: true }, entries(profile.basicInfo, ['Gender'])],
    [
      { attribute: 'Occupation/Employer', mode: 'tokens', single: false },
      [...entries(profile.jobProfiles), ...entries(profile.basicInfo, ['Occupation'])],
    ],
    ...identityKinds(profile).map((label): [AttributeSpec, Observation[]] => [
      { attribute: label, mode: 'exact', single: true },
      entries(profile.identityProofs.filter((e) => (e.key ?? OTHER_ID) === label)),
    ]),
    [{ attribute: 'Bank account', mode: 'exact', single: false }, bankObservations(profile)],
    [{ attribute: 'UPI', mode: 'handle', single: false }, entries(profile.upiIds)],
    [{ attribute: 'Vehicles', mode: 'exact', single: false }, entries(profile.rcNumbers)],
    [{ attribute: 'Carrier', mode: 'tokens', single: false }, carrierObservations(profile)],
  ];
  return specs.flatMap(([spec, observations]) => analyzeAttribute(spec, observations) ?? []);
}

// ---------- exposure ----------

function publicProfiles(profile: MergedProfile): ExposureSummary['publicProfiles'] {
  const seen = new Set<string>();
  const out: ExposureSummary['publicProfiles'] = [];
  for (const presence of profile.internetPresence) {
    // Registration checks say an account exists, not that a profile is public: they count as sites.
    if (!presence.active || presence.source === 'Registered Sites' || presence.source === 'Social Scan')
      continue;
    const key = presence.platform.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      presence.url ? { platform: presence.platform, url: presence.url } : { platform: presence.platform },
    );
  }
  return out;
}

interface BreachFacts {
  name: string;
  date?: string;
  sensitive: boolean;
  dataClasses: string[];
}

function breachesOf(hibp: unknown): BreachFacts[] {
  const seen = new Set<string>();
  const out: BreachFacts[] = [];
  for (const item of list(hibp)) {
    const name = text(at(item, 'Name')) ?? text(at(item, 'Title'));
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const date = isoDay(at(item, 'BreachDate'));
    out.push({
      name,
      ...(date && { date }),
      sensitive: at(item, 'IsSensitive') === true,
      dataClasses: list(at(item, 'DataClasses')).flatMap((c) => text(c) ?? []),
    });
  }
  return out;
}

function registeredSites(holehe: unknown): number {
  const sites = new Set<string>();
  for (const site of list(at(holehe, 'used'))) {
    const name = text(site);
    if (name) sites.add(name.toLowerCase());
  }
  for (const check of list(at(holehe, 'checked'))) {
    const name = text(at(check, 'site'));
    if (name && at(check, 'exists') === true) sites.add(name.toLowerCase());
  }
  return sites.size;
}

function exposureOf(profile: MergedProfile, breaches: BreachFacts[], sites: number): ExposureSummary {
  const classes = new Map<string, string>();
  for (const breach of breaches)
    for (const c of breach.dataClasses) if (!classes.has(c.toLowerCase())) classes.set(c.toLowerCase(), c);
  return {
    breaches: breaches.length,
    breachNames: breaches.map((b) => b.name),
    sensitiveBreaches: breaches.filter((b) => b.sensitive).length,
    registeredSites: sites,
    publicProfiles: publicProfiles(profile),
    dataClasses: [...classes.values()].sort((a, b) => a.localeCompare(b, 'en')),
  };
}

// ---------- timeline ----------

function sortTimeline(events: TimelineEvent[]): TimelineEvent[] {
  const seen = new Set<string>();
  return events
    .filter((e) => {
      const id = `${e.date}|${e.event}|${e.source}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => compare(a.date, b.date) || compare(a.event, b.event) || compare(a.source, b.source))
    .slice(0, 200);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function educationEvents(profile: MergedProfile): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  for (const q of profile.qualifications) {
    const what = [q.degree, q.field].filter(Boolean).join(', ');
    const where = q.school ? ` at ${q.school}` : '';
    const subject = what ? `${what}${where}` : `studies${where}`;
    const start = q.startYear !== undefined ? validYear(q.startYear) : undefined;
    const end = q.endYear !== undefined ? validYear(q.endYear) : undefined;
    if (start) events.push({ date: start, event: `Started ${subject}`, source: q.source });
    if (end) events.push({ date: end, event: `Finished ${subject}`, source: q.source });
  }
  for (const x of profile.experience) {
    const role = x.title && x.company ? `${x.title} at ${x.company}` : (x.title ?? x.company ?? '');
    const start = x.startYear !== undefined ? validYear(x.startYear) : undefined;
    const end = x.endYear !== undefined ? validYear(x.endYear) : undefined;
    if (start) events.push({ date: start, event: `Started as ${role}`, source: x.source });
    if (end) events.push({ date: end, event: `Left ${role}`, source: x.source });
  }
  return events;
}

// ---------- next steps ----------

class Steps {
  private readonly items: Array<{ priority: number; text: string; order: number }> = [];
  add(priority: number, step: string | undefined) {
    if (step) this.items.push({ priority, text: step, order: this.items.length });
  }
  /** At most MAX_NEXT_STEPS, most important first; never empty. */
  list(): string[] {
    this.add(
      99,
      this.items.length === 0
        ? 'Corroborate these findings with an independent source before relying on them'
        : undefined,
    );
    const seen = new Set<string>();
    return [...this.items]
      .sort((a, b) => a.priority - b.priority || a.order - b.order)
      .filter(({ text: t }) => {
        const key = t.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, MAX_NEXT_STEPS)
      .map(({ text: t }) => t);
  }
}

/** 'A', 'A and B', 'A, B and C', 'A, B, C and 2 more'. */
function listOf(items: string[], max = 4): string {
  const shown = items.slice(0, max);
  const more = items.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const plural = (items: unknown[]) => (items.length === 1 ? '' : 's');

const find = (attributes: AnalysisAttribute[], name: string) => attributes.find((a) => a.attribute === name);

function conflictSteps(steps: Steps, attributes: AnalysisAttribute[]) {
  for (const attribute of attributes) {
    if (attribute.status !== 'conflicting') continue;
    const [a, b] = attribute.values;
    if (!a || !b) continue;
    const between =
      listOf(a.sources) === listOf(b.sources)
        ? `within ${listOf(a.sources)} records`
        : `between ${listOf(a.sources, 2)} and ${listOf(b.sources, 2)} records`;
    const pair = `(${a.value} vs ${b.value})`;
    switch (attribute.attribute) {
      case 'Name':
        steps.add(
          1,
          `Names conflict ${between} ${pair}: confirm identity in person before attributing the data`,
        );
        break;
      case 'Date of birth':
        steps.add(1, `Dates of birth conflict ${between} ${pair}: check against an identity document`);
        break;
      case 'Gender':
        steps.add(
          1,
          `Gender conflicts ${between} ${pair}: confirm identity in person before relying on either`,
        );
        break;
      default:
        steps.add(
          1,
          `Two different ${attribute.attribute} values ${pair} were reported: verify both through an official channel`,
        );
    }
  }
}

function identitySteps(steps: Steps, attributes: AnalysisAttribute[]) {
  const pan = find(attributes, IDENTITY_PROOF_LABELS.pan_number!);
  if (pan?.values[0])
    steps.add(3, `Verify PAN ${pan.values[0].value} through an official channel before relying on it`);
  const others = attributes
    .filter((a) => a.attribute !== IDENTITY_PROOF_LABELS.pan_number && !CORE_ATTRIBUTES.has(a.attribute))
    .map((a) => a.attribute);
  if (others.length > 0)
    steps.add(
      3,
      `Verify the ${pan ? 'other ' : ''}identity document${plural(others)} on record (${listOf(others, 6)}) through official channels`,
    );
}

/** Every attribute that is not an identity document (those are named by their kind's label). */
const CORE_ATTRIBUTES = new Set([
  'Name',
  'Phone',
  'E-mail',
  'Usernames',
  'Address/Location',
  'Date of birth',
  'Gender',
  'Occupation/Employer',
  'Bank account',
  'UPI',
  'Vehicles',
  'Carrier',
]);

function commonSteps(steps: Steps, attributes: AnalysisAttribute[], exposure: ExposureSummary) {
  const bank = find(attributes, 'Bank account')?.values[0];
  if (bank)
    steps.add(
      4,
      `Request account-holder KYC and statements for bank account ${bank.value} from the bank under the applicable legal process`,
    );
  const upi = find(attributes, 'UPI')?.values.map((v) => v.value) ?? [];
  if (upi.length > 0)
    steps.add(5, `Look up the UPI details of ${listOf(upi, 3)} to confirm the account holder's name`);

  const name = find(attributes, 'Name');
  if (name?.status === 'single-source' && name.values[0])
    steps.add(
      6,
      `The name ${name.values[0].value} rests on ${listOf(name.values[0].sources)} alone: corroborate it before relying on it`,
    );

  const usernames = find(attributes, 'Usernames')?.values.map((v) => v.value) ?? [];
  if (usernames.length > 0)
    steps.add(
      7,
      `Search the username${plural(usernames)} ${listOf(usernames, 3)} in the Leak Data Finder and on public platforms`,
    );
  const profiles = exposure.publicProfiles.filter((p) => p.url).map((p) => p.platform);
  if (profiles.length > 0)
    steps.add(
      7,
      `Preserve the public profile${plural(profiles)} (${listOf(profiles, 4)}) with dated captures before ${profiles.length > 1 ? 'they change' : 'it changes'}`,
    );
}

const FAILURE = /did not answer|failed to answer|unavailable|timed? ?out|unreachable|error/i;

function failedSources(errors: unknown, labels: Readonly<Record<string, string>>): string[] {
  const failed: string[] = [];
  for (const [source, message] of Object.entries(dict(errors) ?? {}).slice(0, MAX_LIST)) {
    // A source that answered "not found" has nothing to retry; an unknown key names no source.
    if ((typeof message === 'string' && !FAILURE.test(message)) || !Object.hasOwn(labels, source)) continue;
    const label = labels[source]!;
    if (!failed.includes(label)) failed.push(label);
  }
  return failed;
}

/** Readable names of a lookup's source keys, as a document names them (the catalogue's long labels). */
const sourceNamesOf = (keys: readonly string[]): Readonly<Record<string, string>> =>
  Object.fromEntries(keys.map((key) => [key, SOURCE_LONG_LABELS[key]!]));

/** Readable names of the phone lookup's source keys (the keys of PhoneLookupResponse and its `errors`). */
export const PHONE_SOURCE_LABELS = sourceNamesOf(PHONE_SOURCES);

/** Readable names of the e-mail lookup's source keys (the keys of EmailLookupData and its `errors`). */
export const EMAIL_SOURCE_LABELS = sourceNamesOf(EMAIL_SOURCES);

const hasFindings = (analysis: Omit<ProfileAnalysis, 'nextSteps'>) =>
  analysis.attributes.length > 0 ||
  analysis.exposure.breaches > 0 ||
  analysis.exposure.registeredSites > 0 ||
  analysis.exposure.publicProfiles.length > 0;

// ---------- phone ----------

export function analyzePhoneLookup(response: Partial<PhoneLookupResponse>): ProfileAnalysis {
  const profile = mergePhoneProfile(response);
  const highlights = phoneHighlights(response);
  const attributes = profileAttributes(profile);
  const exposure = exposureOf(profile, [], 0);

  const hlr = parseHlr(at(response, 'hlrData'));
  const events: TimelineEvent[] = [];
  for (const address of list(at(response, 'sKData', 'data', 'details', 'address_info'))) {
    const date = isoDay(at(address, 'reported_date'));
    const line = text(at(address, 'address'));
    if (!date || !line) continue;
    const type = text(at(address, 'type'));
    events.push({ date, event: `Address reported${type ? ` (${type})` : ''}: ${line}`, source: 'Gov' });
  }
  const lastSeen = isoDay(at(hlr, 'timestamp'));
  const network = text(at(hlr, 'ported_network_name')) ?? text(at(hlr, 'original_network_name'));
  if (lastSeen)
    events.push({
      date: lastSeen,
      event: `Number last seen on the network${network ? ` (${network})` : ''}`,
      source: 'ISP Response',
    });
  const timeline = sortTimeline(events);

  const steps = new Steps();
  conflictSteps(steps, attributes);
  // The searched number is the one the network and WhatsApp answered for.
  const phones = find(attributes, 'Phone')?.values ?? [];
  const number =
    phones.find((v) => v.sources.includes('ISP Response') || v.sources.includes('WhatsApp'))?.value ??
    phones[0]?.value;
  const currentCarrier =
    profile.carriers.find((c) => c.key === 'Ported')?.value ??
    profile.carriers.find((c) => c.source === 'ISP Response')?.value ??
    find(attributes, 'Carrier')?.values[0]?.value;
  const invalid = text(at(hlr, 'connectivity_status'))?.toUpperCase() === 'INVALID';
  if (number && invalid)
    steps.add(2, `The network reports ${number} as invalid: confirm the number was recorded correctly`);
  else if (number && hasFindings({ attributes, exposure, timeline }))
    steps.add(
      2,
      `Request subscriber details (CAF) from ${currentCarrier ?? 'the serving operator'} for ${number} under the applicable legal process`,
    );
  identitySteps(steps, attributes);
  const vehicles = find(attributes, 'Vehicles')?.values.map((v) => v.value) ?? [];
  if (vehicles.length === 1)
    steps.add(4, `Review the vehicle registered to the number (RC details and challans): ${vehicles[0]}`);
  else if (vehicles.length > 1)
    steps.add(
      4,
      `Review the ${vehicles.length} vehicles registered to the number (RC details and challans): ${listOf(vehicles)}`,
    );
  const latestAddress = [...timeline].reverse().find((e) => e.event.startsWith('Address reported'));
  if (latestAddress)
    steps.add(
      5,
      `Confirm the most recently reported address through a field verification (${latestAddress.event.replace(/^Address reported(?: \([^)]*\))?: /, '')}, reported ${latestAddress.date})`,
    );
  if (highlights.markedAsSpam)
    steps.add(5, 'The number is marked as spam by caller-ID users: check complaint records filed against it');
  const emails = find(attributes, 'E-mail')?.values ?? [];
  if (emails[0])
    steps.add(
      6,
      `Run an e-mail lookup on ${emails[0].value}, linked to the number by ${listOf(emails[0].sources)}`,
    );
  commonSteps(steps, attributes, exposure);
  const failed = failedSources(at(response, 'errors'), PHONE_SOURCE_LABELS);
  if (failed.length > 0) steps.add(8, `No answer from ${listOf(failed, 6)}: retry the lookup later`);
  if (!hasFindings({ attributes, exposure, timeline }))
    steps.add(
      9,
      'Little was found for this number: retry later, or search other identifiers (e-mail, username) in the Leak Data Finder',
    );

  return { attributes, exposure, timeline, nextSteps: steps.list() };
}

// ---------- e-mail ----------

export function analyzeEmailLookup(data: Partial<EmailLookupData>): ProfileAnalysis {
  const profile = mergeEmailProfile(data);
  const attributes = profileAttributes(profile);
  const breaches = breachesOf(at(data, 'hibpData'));
  const exposure = exposureOf(profile, breaches, registeredSites(at(data, 'holeheData')));

  const emailData = at(data, 'emailData');
  const events: TimelineEvent[] = [];
  for (const breach of breaches)
    if (breach.date)
      events.push({ date: breach.date, event: `Appeared in breach ${breach.name}`, source: 'Breach Data' });
  events.push(...educationEvents(profile));
  const updated = isoDay(at(emailData, 'PROFILE_CONTAINER', 'profile', 'sourceIds', 'lastUpdated'));
  if (updated)
    events.push({
      date: updated,
      event: 'Account-provider profile last updated',
      source: 'Account Provider',
    });
  let reviews = 0;
  for (const review of list(at(emailData, 'maps_result', 'reviews'))) {
    const date = isoDay(at(review, 'published_at'));
    const place = text(at(review, 'place_name'));
    const address = text(at(review, 'address'));
    if (!date || !(place || address)) continue;
    reviews += 1;
    const where =
      place && address && !address.startsWith(place) ? `${place}, ${address}` : (address ?? place);
    events.push({ date, event: `Posted a map review: ${where}`, source: 'Account Provider' });
  }
  const timeline = sortTimeline(events);

  const steps = new Steps();
  conflictSteps(steps, attributes);
  const address =
    text(at(list(at(emailData, 'PROFILE_CONTAINER', 'profile', 'emails'))[0], 'value')) ??
    find(attributes, 'E-mail')?.values[0]?.value;
  const withPasswords = breaches
    .filter((b) => b.dataClasses.some((c) => /password/i.test(c)))
    .map((b) => b.name);
  if (withPasswords.length > 0)
    steps.add(
      2,
      `Check breach${withPasswords.length > 1 ? 'es' : ''} ${listOf(withPasswords)} exposed passwords: accounts on this address may have been taken over, so corroborate any activity before attributing it (never use leaked credentials)`,
    );
  if (address && hasFindings({ attributes, exposure, timeline }))
    steps.add(
      2,
      `Request subscriber details and access (IP) logs for ${address} from its e-mail provider under the applicable legal process`,
    );
  for (const breach of breaches.filter((b) => b.sensitive).slice(0, 2))
    steps.add(3, `Breach ${breach.name} is flagged sensitive: keep its details on a need-to-know basis`);
  const phone = find(attributes, 'Phone')?.values[0];
  if (phone)
    steps.add(3, `Run a phone lookup on ${phone.value}, linked to this address by ${listOf(phone.sources)}`);
  identitySteps(steps, attributes);
  const current = profile.experience.find((x) => x.company && x.endYear === undefined);
  if (current?.company)
    steps.add(4, `Confirm current employment at ${current.company} through an employment verification`);
  if (reviews > 0)
    steps.add(
      5,
      `Use the ${reviews} dated map review${reviews > 1 ? 's' : ''} to corroborate the subject's area of activity, not as proof of residence`,
    );
  commonSteps(steps, attributes, exposure);
  const failed = failedSources(at(data, 'errors'), EMAIL_SOURCE_LABELS);
  if (failed.length > 0) steps.add(8, `No answer from ${listOf(failed, 6)}: retry the lookup later`);
  if (!hasFindings({ attributes, exposure, timeline }))
    steps.add(
      9,
      'Little was found for this address: check it for typos, then retry later or search the Leak Data Finder by name or username',
    );

  return { attributes, exposure, timeline, nextSteps: steps.list() };
}
