import { SOURCE_LABELS } from '../catalogue/sources.ts';
import { declarationOf } from '../kinds/declarations.ts';

/**
 * A case's timeline: the dated facts its searches' stored results hold (breach dates, registration
 * dates, reported dates, last-updated dates, last-seen dates) and the searches themselves. Pure: the
 * server stores what `datesOf` answers for each search once, like its entities, and the case page and
 * the case summary PDF show `caseTimeline`.
 */

/** One dated fact of a case. */
export interface TimelineEntry {
  /** 'YYYY-MM-DD' when the source gives a day, else an ISO date-time in UTC ('…T…Z'). */
  at: string;
  /** What happened on that date: 'Breach of Cricket Khel', 'Reported date — Flat 504, …'. */
  label: string;
  /** The source that said so ('Breach Data', 'OSINT', the breach of a leak record), or 'Footprint' for a search. */
  source: string;
  /** The case's search (lookup id) whose result holds it, or the search itself. */
  lookup_id: string;
}

/** A dated fact of one result, before it is tied to its search. */
export type DatedFact = Omit<TimelineEntry, 'lookup_id'>;

/** At most this many dated facts from one result (answers are untrusted input). */
export const MAX_DATES_PER_RESULT = 200;
/** At most this many entries in a case's timeline (every search is kept; the most recent facts fill the rest). */
export const MAX_TIMELINE_ENTRIES = 1_000;
/** The source of the entries that stand for the searches themselves. */
export const SEARCH_SOURCE = 'Footprint';

const MAX_LABEL_LENGTH = 200;
const MAX_DEPTH = 12;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

const plausibleYear = (year: number) => year >= 1900 && year <= 2200;

/**
 * An ISO-looking date as the timeline keeps it: a day stays 'YYYY-MM-DD', a date-time becomes UTC
 * ('2025-01-04 04:24:59' without a zone is read as UTC). Anything else, an impossible day, or a year
 * before 1900 (the vendors' 1800-01-01 "unknown") is no date.
 */
export function isoDateOf(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  const day = DAY.exec(value);
  if (day) {
    const [, y, m, d] = day;
    const at = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
    const same =
      at.getUTCFullYear() === Number(y) &&
      at.getUTCMonth() === Number(m) - 1 &&
      at.getUTCDate() === Number(d);
    return same && plausibleYear(Number(y)) ? value : null;
  }
  const time = DATE_TIME.exec(value);
  if (!time) return null;
  const zone = time[8] ?? 'Z';
  const at = new Date(
    `${time[1]}-${time[2]}-${time[3]}T${time[4]}:${time[5]}:${time[6] ?? '00'}${(time[7] ?? '').slice(0, 4)}${zone}`,
  );
  if (Number.isNaN(at.getTime()) || !plausibleYear(at.getUTCFullYear())) return null;
  return at.toISOString();
}

/** Keys whose values are dates of something that happened (not a date of birth). */
const DATE_KEY = /(date|_on$|_at$|^at$|timestamp|updated|last_?seen|since)/i;
const NOT_AN_EVENT = /(dob|birth)/i;
/** Sibling keys that say what a dated object is about, best first. */
const SUBJECT_KEYS = [
  'title',
  'name',
  'place_name',
  'email_address',
  'email',
  'number',
  'phone',
  'address',
  'rc_number',
  'challan_number',
  'source',
  'company_name',
  'legal_name',
  'trade_name',
];

const dict = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

const squash = (value: string) =>
  value
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const cap = (value: string, max = MAX_LABEL_LENGTH) => {
  const clean = squash(value);
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

/** 'reported_date' → 'Reported date', 'lastUpdated' → 'Last updated'. */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function subjectOf(object: Record<string, unknown>): string | undefined {
  for (const key of SUBJECT_KEYS) {
    const value = object[key];
    if (typeof value === 'string' && squash(value) !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/** Collects dated facts, one per date, label and source. */
class Dates {
  private readonly found = new Map<string, DatedFact>();

  add(at: string | null, label: string, source: string): void {
    if (at === null || this.found.size >= MAX_DATES_PER_RESULT) return;
    const fact = { at, label: cap(label), source: cap(source, 100) };
    if (fact.label === '' || fact.source === '') return;
    const key = `${fact.at}\u0000${fact.label}\u0000${fact.source}`;
    if (!this.found.has(key)) this.found.set(key, fact);
  }

  list(): DatedFact[] {
    return [...this.found.values()];
  }
}

/**
 * Every date under a date-ish key in an answer, labelled by its key and what its object is about:
 * 'Reported date — Flat 504, Lotus Heights', 'Last seen — Zestmint 2023', 'Registration date'.
 */
function walkDates(
  value: unknown,
  source: string,
  into: Dates,
  skip: (key: string) => boolean,
  depth = 0,
  named: (key: string) => string | undefined = () => undefined,
) {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) walkDates(item, source, into, skip, depth + 1, named);
    return;
  }
  const object = dict(value);
  if (!object) return;
  for (const [key, item] of Object.entries(object)) {
    if (skip(key)) continue;
    if (typeof item === 'string') {
      if (!DATE_KEY.test(key) || NOT_AN_EVENT.test(key)) continue;
      const at = isoDateOf(item);
      if (at === null) continue;
      const own = named(key);
      const subject = subjectOf(object);
      into.add(at, own ?? (subject ? `${humanizeKey(key)} — ${subject}` : humanizeKey(key)), source);
    } else {
      walkDates(item, source, into, skip, depth + 1, named);
    }
  }
}

/** hlrData may arrive as a JSON string. */
const parsed = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
};

/**
 * The dated facts of one stored search result, by the search's kind:
 * - phone and e-mail lookups: the breaches of the breach source ('Breach of Cricket Khel'), the
 *   merged profile's last-updated entries ('Last updated', by its source), and every other date under
 *   a date-ish key of each source's answer (reported dates, last-seen and registration dates, reviews),
 *   each under its source's name;
 * - leak searches: the breach date of each record's breach ('Breach of <name>');
 * - detail, corporate and verification answers: every date under a date-ish key (registration,
 *   challan, filing dates), under the kind as source.
 * Dates of birth are not events and are left out. Unknown shapes give nothing.
 */
export function datesOf(kind: string, result: unknown): DatedFact[] {
  const stored = dict(result);
  if (!stored) return [];
  const into = new Dates();
  const shape = declarationOf(kind)?.shape;
  if (shape === 'phone' || shape === 'email') {
    const payloads = dict(stored.payloads) ?? {};
    for (const breach of Array.isArray(payloads.hibpData) ? payloads.hibpData : []) {
      const b = dict(breach);
      const name = b && (typeof b.Title === 'string' ? b.Title : typeof b.Name === 'string' ? b.Name : null);
      if (b && name) into.add(isoDateOf(b.BreachDate), `Breach of ${name}`, SOURCE_LABELS.hibpData!);
    }
    for (const [key, payload] of Object.entries(payloads)) {
      if (key === 'hibpData') continue;
      // The times the merged profile shows as 'Last updated' (the ISP's check, the account's update)
      // keep that name; the profile itself holds them formatted for reading, so they are read here.
      const named = (k: string) =>
        k === 'lastUpdated' || (key === 'hlrData' && k === 'timestamp') ? 'Last updated' : undefined;
      walkDates(parsed(payload), SOURCE_LABELS[key] ?? key, into, () => false, 0, named);
    }
  } else if (shape === 'username') {
    // A site check's times are when we asked, not events in the person's life: none is dated.
    return [];
  } else if (shape === 'leak') {
    for (const item of Array.isArray(stored.data) ? stored.data : []) {
      const source = dict(dict(item)?.source);
      if (source && typeof source.name === 'string') {
        into.add(isoDateOf(source.breach_date), `Breach of ${source.name}`, source.name);
      }
    }
  } else {
    for (const [key, payload] of Object.entries(dict(stored.payloads) ?? {})) {
      walkDates(payload, key, into, (k) => k === 'client_id');
    }
  }
  return into.list();
}

/** What the timeline says of a search itself. */
export interface TimelineSearch {
  lookup_id: string;
  kind: string;
  /** The normalized query (tel: the digits with the country code). */
  query: string;
  /** The query as typed (intel: 'RC Number: MH12AB1234'). */
  query_typed: string;
  created_at: string;
  user: { name: string; email: string };
}

/** 'Phone lookup of +91 98765 43210 by A. Rao', 'Leak Data Finder search for Name: Rohan by A. Rao'. */
export function searchLabel(search: Omit<TimelineSearch, 'lookup_id' | 'created_at'>): string {
  const by = squash(search.user.name) || search.user.email;
  const declaration = declarationOf(search.kind);
  const what = declaration
    ? declaration.describe(search)
    : `${search.kind} search (${cap(search.query_typed, 120)})`;
  return `${what} by ${by}`;
}

/** The sort key of an entry: a day sorts before the date-times of that day. */
const sortKey = (entry: TimelineEntry) => entry.at;

/**
 * A case's timeline, oldest first: one entry per search, and the dated facts of its searches' results
 * (each fact once per date, label and source: the first search that holds it names it). Past
 * MAX_TIMELINE_ENTRIES, every search is kept and the most recent facts fill the rest.
 */
export function caseTimeline(
  searches: TimelineSearch[],
  facts: TimelineEntry[],
  max = MAX_TIMELINE_ENTRIES,
): TimelineEntry[] {
  const own = searches.map((search) => ({
    at: new Date(search.created_at).toISOString(),
    label: searchLabel(search),
    source: SEARCH_SOURCE,
    lookup_id: search.lookup_id,
  }));
  const order = new Map(searches.map((s, i) => [s.lookup_id, i]));
  const seen = new Set<string>();
  const unique: TimelineEntry[] = [];
  const byItem = [...facts].sort(
    (a, b) => (order.get(a.lookup_id) ?? Infinity) - (order.get(b.lookup_id) ?? Infinity),
  );
  for (const fact of byItem) {
    const key = `${fact.at}\u0000${fact.label}\u0000${fact.source}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(fact);
  }
  const compare = (a: TimelineEntry, b: TimelineEntry) =>
    sortKey(a) < sortKey(b)
      ? -1
      : sortKey(a) > sortKey(b)
        ? 1
        : a.label < b.label
          ? -1
          : a.label > b.label
            ? 1
            : 0;
  unique.sort(compare);
  const room = Math.max(0, max - own.length);
  const kept = unique.length > room ? unique.slice(unique.length - room) : unique;
  return [...own, ...kept].sort(compare);
}
