/**
 * Clustering one attribute's values: each value a source gave is an observation; observations equal after
 * normalisation (normalize.ts) fold into one cluster, names and free text by their words (initials and
 * likely misspellings join the fuller form they abbreviate). Each cluster becomes one merged value with
 * every source that gave it, its confidence (confidence.ts) and its provenance (provenance.ts).
 *
 * Status of an attribute: 'corroborated' when its top value has ≥ 2 sources and, for single-valued
 * attributes (name, date of birth, gender, each identity document), no rival value reaches 80 % of the
 * top value's confidence; 'conflicting' when a single-valued attribute has ≥ 2 distinct values and is
 * not corroborated; 'single-source' otherwise. Multi-valued attributes (phones, e-mails, addresses…)
 * are never conflicting: a person may have several.
 */
import type { ProfileOrigin } from '../profile-types.ts';
import { COMPARABLE_SHARE, confidenceFor, sourceReliability } from './confidence.ts';
import { alnum, bestForm, isoDay, normalizeEmail, normalizeGender, normalizePhone } from './normalize.ts';
import { provenanceOf } from './provenance.ts';
import { MAX_LIST, text } from './read.ts';
import type { AnalysisAttribute, AnswerMeta, AttributeStatus, Provenance } from './types.ts';

export const MAX_VALUES_PER_ATTRIBUTE = 25;
const MAX_PROVENANCE_PER_VALUE = 40;

/** One value one source gave for an attribute. */
export interface Observation {
  value: string;
  source: string;
  /** Where in the answer it was said (ProfileEntry.origins). */
  origins?: ProfileOrigin[];
  /** Overrides how the value is shown (e.g. a carrier marked as the ported-to network). */
  display?: string;
  /** Overrides the normalized identity of the value (exact-mode attributes). */
  norm?: string;
}

export type Mode = 'exact' | 'name' | 'tokens' | 'phone' | 'email' | 'date' | 'gender' | 'handle';

export interface AttributeSpec {
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
      const e164 = normalizePhone(obs.value);
      if (e164) return e164;
      const digits = obs.value.replace(/\D/g, '');
      return digits.length >= 6 ? digits.slice(-10) : alnum(obs.value) || undefined;
    }
    case 'email':
      return normalizeEmail(obs.value) ?? (alnum(obs.value) || undefined);
    case 'date':
      return isoDay(obs.value) ?? (alnum(obs.value) || undefined);
    case 'gender':
      return normalizeGender(obs.value) ?? (alnum(obs.value) || undefined);
    case 'handle':
      return alnum(obs.value.replace(/^@/, '')) || undefined;
    default:
      return alnum(obs.value) || undefined;
  }
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
  const first = members[0]!.obs.value;
  if (mode === 'date') return isoDay(first) ?? first;
  if (mode === 'gender') return normalizeGender(first) ?? first;
  if (mode === 'email') return normalizeEmail(first) ?? first;
  if (mode === 'phone') {
    if (cluster.norm.startsWith('+')) return cluster.norm;
    // Not a number libphonenumber reads: the fullest form, without a trunk prefix.
    const digits = members
      .map((m) => m.obs.value.replace(/\D/g, '').replace(/^0+/, ''))
      .sort((a, b) => b.length - a.length)[0];
    if (digits && digits.length >= 6) return digits.length > 10 ? `+${digits}` : digits;
  }
  if (mode === 'name' || mode === 'tokens') {
    // Members arrive fullest first: of the forms with the fullest form's words, the most common and best cased.
    const fullest = members.filter((m) => tokensOf(m.obs.value, mode).join(' ') === cluster.norm);
    const chosen = fullest.length > 0 ? fullest : [members[0]!];
    if (chosen.some((m) => m.obs.display !== undefined))
      return chosen[0]!.obs.display ?? chosen[0]!.obs.value;
    return bestForm(chosen.map((m) => m.obs.value)) ?? first;
  }
  // Exact clusters: the most reliable source's form.
  const chosen = [...members].sort(
    (a, b) => sourceReliability(b.obs.source) - sourceReliability(a.obs.source) || a.index - b.index,
  )[0]!;
  return chosen.obs.display ?? chosen.obs.value;
}

/** Each source record behind a cluster, once, most reliable source first. */
function clusterProvenance(cluster: Cluster, meta: AnswerMeta): Provenance[] {
  const out: Provenance[] = [];
  const seen = new Set<string>();
  for (const { obs } of cluster.members) {
    const origins: Array<ProfileOrigin | undefined> = obs.origins?.length ? obs.origins : [undefined];
    for (const origin of origins) {
      const item = provenanceOf(obs.source, origin, meta);
      const id = `${item.source}|${item.key ?? ''}|${item.name}`;
      if (seen.has(id) || out.length >= MAX_PROVENANCE_PER_VALUE) continue;
      seen.add(id);
      out.push(item);
    }
  }
  return out.sort((a, b) => sourceReliability(b.source) - sourceReliability(a.source));
}

/** Values go into a report: control characters out, length capped. */
function cleanObservation(obs: Observation): Observation[] {
  const value = text(obs.value);
  if (!value) return [];
  const display = obs.display === undefined ? undefined : text(obs.display);
  return [{ ...obs, value, ...(display !== undefined && { display }) }];
}

export function analyzeAttribute(
  spec: AttributeSpec,
  raw: Observation[],
  meta: AnswerMeta = {},
): AnalysisAttribute | undefined {
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
      const provenance = clusterProvenance(cluster, meta);
      return { value: displayOf(cluster, spec.mode), sources, confidence, provenance, first };
    })
    .sort((a, b) => b.confidence - a.confidence || b.sources.length - a.sources.length || a.first - b.first)
    .slice(0, MAX_VALUES_PER_ATTRIBUTE)
    .map(({ value, sources, confidence, provenance }) => ({ value, sources, confidence, provenance }));
  const [top, ...rivals] = values;
  if (!top) return undefined;
  const rivalComparable = rivals.some((v) => v.confidence >= top.confidence * COMPARABLE_SHARE);
  let status: AttributeStatus = 'single-source';
  if (top.sources.length >= 2 && !(spec.single && rivalComparable)) status = 'corroborated';
  else if (spec.single && rivals.length > 0) status = 'conflicting';
  return { attribute: spec.attribute, values, status };
}
