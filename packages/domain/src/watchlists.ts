import { entitiesOf, normalizeEntity } from './cases/entities.ts';
import { SOURCE_LABELS } from './catalogue/sources.ts';
import { LOCAL_LEAK_ORIGIN } from './leaks.ts';
import { profileAttributes } from './lookup/analysis/attributes.ts';
import { breachesOf } from './lookup/analysis/exposure.ts';
import { mergeEmailProfile, mergePhoneProfile } from './lookup/profile.ts';
import { isRecord } from './records.ts';
import { isAccountSearchAnswer, siteIdOfName } from './username/accounts.ts';
import { isSiteCheckAnswer } from './username/sites.ts';

/**
 * Watchlists: a phone, e-mail, username or leak query run again on a schedule. What a run is compared
 * on is its "comparable facts" — the identifiers the result holds (names, e-mails, phones, addresses,
 * usernames), the accounts a username has on the sites checked, the breaches it names, the leak
 * records it lists and the sources that found something — never the raw payloads, whose volatile parts
 * (timestamps, ordering, evidence hashes) would look like a change on every run.
 * Pure: the server stores a snapshot after each run and diffs the next one against it.
 */

export const WATCH_KINDS = ['tel', 'email', 'leak', 'username'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];
export const WATCH_SCHEDULES = ['daily', 'weekly'] as const;
export type WatchSchedule = (typeof WATCH_SCHEDULES)[number];
export const WATCH_STATUSES = ['active', 'paused', 'stopped_no_credits'] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];
/** Watches one user may keep (any status): each one spends credits on its own. */
export const MAX_WATCHES_PER_USER = 100;

export const WATCH_INTERVAL_MS: Record<WatchSchedule, number> = {
  daily: 86_400_000,
  weekly: 7 * 86_400_000,
};

export const WATCH_FACT_TYPES = [
  'name',
  'email',
  'phone',
  'address',
  'username',
  /** A username's account on one site of the site check: value the site's id, label its name. */
  'account',
  'breach',
  'record',
  'source',
] as const;
export type WatchFactType = (typeof WATCH_FACT_TYPES)[number];

/** One comparable fact: compared on `type` and `value`; `label` is how a change names it. */
export interface WatchFact {
  type: WatchFactType;
  value: string;
  label?: string;
  /** The sources that gave it (answer keys, or the leak origins' names). */
  sources: string[];
}

/** What a run is compared on (kept in `watches.last_snapshot`). */
export interface WatchSnapshot {
  facts: WatchFact[];
  /** Sources that answered (found a record or said they hold none); failed ones are absent. */
  answered: string[];
  /** Leak searches: every matching record, of which `facts` hold those the run listed. */
  total?: number;
  /** More records matched than the run listed: what is not in `facts` may still be there. */
  partial?: boolean;
  /** How the facts were read (LOOKUP_SNAPSHOT_BASIS); absent on leak snapshots and older lookup ones. */
  basis?: string;
}

export interface WatchChange {
  change: 'added' | 'removed';
  type: WatchFactType;
  value: string;
  label?: string;
}

/** What changed between two runs (a `watch_events.changes`). */
export interface WatchChanges {
  items: WatchChange[];
  /** Leak searches: the number of matching records, when it moved. */
  total?: { before: number; after: number };
}

/** At most this many facts per snapshot (answers are untrusted input). */
export const MAX_WATCH_FACTS = 2_000;

/** The analysis's attributes a lookup is compared on, and the fact each one's merged values give. */
const PROFILE_FACTS: ReadonlyMap<
  string,
  WatchFactType & ('name' | 'email' | 'phone' | 'address' | 'username')
> = new Map([
  ['Name', 'name'],
  ['E-mail', 'email'],
  ['Phone', 'phone'],
  ['Address/Location', 'address'],
  ['Usernames', 'username'],
]);

/**
 * How a lookup's facts are read. A snapshot stored under another basis (before facts were read from
 * the analysis, they were read from the profile's raw entries) is not compared with a new one: its facts
 * were cut differently, and the difference would be reported as changes that did not happen. The run
 * that meets one takes a new baseline instead (`comparable`).
 */
export const LOOKUP_SNAPSHOT_BASIS = 'analysis-1';

/** How a username lookup's facts are read: one `account` per site the site check found it on. */
export const USERNAME_SNAPSHOT_BASIS = 'sites-1';

/** The source a site's answer is kept under in a username snapshot (`site:github`). */
export const siteSourceOf = (siteId: string) => `site:${siteId}`;

/** At most this many sites a username snapshot names as answered (the catalogue has a few thousand). */
const MAX_ANSWERED_SITES = 10_000;

const ENTITY_FACTS: ReadonlySet<string> = new Set(['name', 'email', 'phone', 'address', 'username']);

const keyOf = (fact: { type: string; value: string }) =>
  `${fact.type}\u0000${fact.type === 'name' || fact.type === 'address' || fact.type === 'username' || fact.type === 'breach' ? fact.value.toLowerCase() : fact.value}`;

class Facts {
  private readonly found = new Map<string, WatchFact>();
  /** Whether the fact is kept (false for an empty value, or a new one past MAX_WATCH_FACTS). */
  add(type: WatchFactType, value: string, source: string, label?: string): boolean {
    if (value === '') return false;
    const key = keyOf({ type, value });
    const fact = this.found.get(key);
    if (!fact) {
      if (this.found.size >= MAX_WATCH_FACTS) return false;
      this.found.set(key, { type, value, ...(label ? { label } : {}), sources: [source] });
    } else if (!fact.sources.includes(source)) fact.sources.push(source);
    return true;
  }
  list(): WatchFact[] {
    return [...this.found.values()];
  }
}

/**
 * The comparable facts of a phone, e-mail or username lookup: `result` is what the lookup stores
 * (`{ payloads, errors, status }`). Sources answered are those whose status is ok or not_found; a
 * username's are its sites (`usernameSnapshot`).
 */
export function lookupSnapshot(kind: 'tel' | 'email' | 'username', result: unknown): WatchSnapshot {
  if (kind === 'username') return usernameSnapshot(result);
  const stored = isRecord(result) ? result : {};
  const payloads = isRecord(stored.payloads) ? stored.payloads : {};
  const facts = new Facts();
  // The merged values of the analysis the results page shows, each with the answer keys that gave it.
  const answer = { ...payloads, errors: isRecord(stored.errors) ? stored.errors : {} } as never;
  const profile =
    kind === 'tel'
      ? mergePhoneProfile(answer, { origins: true })
      : mergeEmailProfile(answer, { origins: true });
  for (const attribute of profileAttributes(profile)) {
    const type = PROFILE_FACTS.get(attribute.attribute);
    if (!type) continue;
    for (const merged of attribute.values) {
      const value = normalizeEntity(type, merged.value);
      if (value === null) continue;
      for (const origin of merged.provenance ?? []) if (origin.key) facts.add(type, value, origin.key);
    }
  }
  if (kind === 'email') {
    for (const breach of breachesOf(payloads.hibpData)) {
      facts.add(
        'breach',
        breach.name,
        'hibpData',
        breach.date ? `${breach.name} (${breach.date})` : undefined,
      );
    }
  }
  for (const key of Object.keys(payloads)) facts.add('source', key, key, SOURCE_LABELS[key] ?? key);
  const status = isRecord(stored.status) ? stored.status : {};
  const answered = Object.entries(status)
    .filter(([, entry]) => isRecord(entry) && (entry.status === 'ok' || entry.status === 'not_found'))
    .map(([key]) => key);
  // Results without statuses: a source that gave a payload answered.
  return {
    facts: facts.list(),
    answered: answered.length > 0 ? answered.sort() : Object.keys(payloads).sort(),
    basis: LOOKUP_SNAPSHOT_BASIS,
  };
}

/** The vendor's account search among the username lookup's sources (ANSWER_SOURCES). */
const ACCOUNT_SEARCH_SOURCE = 'pseudonymData';

/**
 * The comparable facts of a username lookup (`{ payloads, errors, status }`): one `account` per site
 * the name was found on (value the site's id, label its name), by the site check (`sitesData`, a
 * `SiteCheckAnswer`) or by the vendor's account search (`pseudonymData`, matched to a site by its
 * name). An account's source is its site (`siteSourceOf`), and only the sites that said found or
 * not_found this run answered: a site that was blocked, failed or was not checked tells nothing, so an
 * account on it is not reported gone (`diffSnapshots`). The vendor never answers for a site, since it
 * says nothing of where it found none: an account only it gave is gone only when its site says so. A
 * site whose account is past MAX_WATCH_FACTS is not counted as answered either, so a cut list never
 * reads as accounts gone. Neither source readable (both failed): no facts, nothing answered.
 */
export function usernameSnapshot(result: unknown): WatchSnapshot {
  const stored = isRecord(result) ? result : {};
  const payloads = isRecord(stored.payloads) ? stored.payloads : {};
  const facts = new Facts();
  // The sites that said yes or no, and those whose account was not kept (they say nothing this run).
  const said = new Set<string>();
  const cut = new Set<string>();
  const check = payloads.sitesData;
  if (isSiteCheckAnswer(check)) {
    for (const site of check.sites as unknown[]) {
      if (!isRecord(site) || typeof site.site !== 'string' || site.site === '') continue;
      if (site.state === 'found') {
        const name = typeof site.name === 'string' && site.name.trim() !== '' ? site.name.trim() : site.site;
        if (facts.add('account', site.site, siteSourceOf(site.site), name)) said.add(site.site);
        else cut.add(site.site);
      } else if (site.state === 'not_found') said.add(site.site);
    }
    for (const id of check.not_found as unknown[]) if (typeof id === 'string' && id !== '') said.add(id);
  }
  const vendor = payloads[ACCOUNT_SEARCH_SOURCE];
  if (isAccountSearchAnswer(vendor)) {
    for (const account of vendor.accounts as unknown[]) {
      if (!isRecord(account) || typeof account.site !== 'string') continue;
      const name = account.site.trim();
      const id = siteIdOfName(name);
      if (id === '') continue;
      if (facts.add('account', id, siteSourceOf(id), name)) facts.add('account', id, ACCOUNT_SEARCH_SOURCE);
      else cut.add(id);
    }
  }
  const answered = [...said]
    .filter((id) => !cut.has(id))
    .slice(0, MAX_ANSWERED_SITES)
    .map(siteSourceOf)
    .sort();
  return { facts: facts.list(), answered, basis: USERNAME_SNAPSHOT_BASIS };
}

/**
 * The comparable facts of a leak search: its records (by id, named by their breach), the breaches they
 * come from and the identifiers they hold, each found by the origins that listed the record (the local
 * index, vendors); the origins that answered; the total number of matches. When the search matched more
 * records than it listed, the snapshot is `partial`.
 */
export function leakSnapshot(answer: {
  data: ReadonlyArray<{
    id: string;
    source: { name: string; breach_date: string | null };
    origins?: ReadonlyArray<{ name: string }>;
  }>;
  total: number;
  origin_status: ReadonlyArray<{ name: string; status: string }>;
}): WatchSnapshot {
  const facts = new Facts();
  for (const record of answer.data) {
    const origins = record.origins?.length
      ? record.origins.map((origin) => origin.name)
      : [LOCAL_LEAK_ORIGIN];
    const breach = record.source.name;
    const label = record.source.breach_date ? `${breach} (${record.source.breach_date})` : breach;
    for (const origin of origins) {
      facts.add('record', record.id, origin, label);
      facts.add('breach', breach, origin, label);
    }
    for (const entity of entitiesOf('leak', { data: [record] })) {
      if (!ENTITY_FACTS.has(entity.type)) continue;
      for (const origin of origins) facts.add(entity.type as WatchFactType, entity.value, origin);
    }
  }
  const answered = answer.origin_status
    .filter((origin) => origin.status === 'ok' || origin.status === 'not_found')
    .map((origin) => origin.name)
    .sort();
  return {
    facts: facts.list(),
    answered,
    total: answer.total,
    ...(answer.total > answer.data.length ? { partial: true } : {}),
  };
}

/** A stored snapshot read defensively (it is JSON from the database): null when it is not one. */
export function readSnapshot(value: unknown): WatchSnapshot | null {
  if (!isRecord(value) || !Array.isArray(value.facts) || !Array.isArray(value.answered)) return null;
  const facts = value.facts.filter(
    (fact): fact is WatchFact =>
      isRecord(fact) &&
      typeof fact.value === 'string' &&
      (WATCH_FACT_TYPES as readonly unknown[]).includes(fact.type) &&
      Array.isArray(fact.sources),
  );
  const answered = value.answered.filter((key): key is string => typeof key === 'string');
  return {
    facts,
    answered,
    ...(typeof value.total === 'number' ? { total: value.total } : {}),
    ...(value.partial === true ? { partial: true } : {}),
    ...(typeof value.basis === 'string' ? { basis: value.basis } : {}),
  };
}

/** Whether two snapshots read their facts alike, so that their difference is a change of the subject. */
export const comparable = (before: WatchSnapshot, after: WatchSnapshot): boolean =>
  before.basis === after.basis;

/**
 * What changed from `before` to `after`. A fact is new when no fact of its type and value was there
 * before. A fact is gone only when a source that gave it answered again and no longer gives it: a
 * source that failed this time tells nothing, so its facts are not reported gone (a flaky source must
 * not mail "record gone" and then "new record" on alternate days). A partial leak snapshot (more
 * matches than listed) cannot tell what is new when it came before, nor what is gone when it came
 * after: then only the total moving is reported.
 */
export function diffSnapshots(before: WatchSnapshot, after: WatchSnapshot): WatchChanges {
  const previous = new Map(before.facts.map((fact) => [keyOf(fact), fact]));
  const next = new Map(after.facts.map((fact) => [keyOf(fact), fact]));
  const answered = new Set(after.answered);
  const items: WatchChange[] = [];
  for (const [key, fact] of next) {
    if (!before.partial && !previous.has(key)) items.push(changeOf('added', fact));
  }
  for (const [key, fact] of previous) {
    if (after.partial || next.has(key)) continue;
    // A source fact is gone when the source answered without a record; any other fact when one of
    // the sources that gave it answered again.
    const askedAgain =
      fact.type === 'source' ? answered.has(fact.value) : fact.sources.some((s) => answered.has(s));
    if (askedAgain) items.push(changeOf('removed', fact));
  }
  const order = (change: WatchChange) => WATCH_FACT_TYPES.indexOf(change.type);
  items.sort((a, b) => order(a) - order(b) || (a.change === b.change ? 0 : a.change === 'added' ? -1 : 1));
  const total =
    before.total !== undefined && after.total !== undefined && before.total !== after.total
      ? { before: before.total, after: after.total }
      : undefined;
  return { items, ...(total ? { total } : {}) };
}

/**
 * The snapshot a run keeps for the next one to be compared with. A username's site that could not say
 * this run (blocked, failed, not checked) keeps the account it gave before: it is not reported gone
 * (`diffSnapshots`), and were it dropped from what is kept, the site's next answer would report the
 * same account as new. Other kinds keep the run's own snapshot.
 */
export function keptSnapshot(before: WatchSnapshot | null, after: WatchSnapshot): WatchSnapshot {
  if (!before || after.basis !== USERNAME_SNAPSHOT_BASIS || !comparable(before, after)) return after;
  const answered = new Set(after.answered);
  const present = new Set(after.facts.map(keyOf));
  const unanswered = before.facts.filter(
    (fact) => !present.has(keyOf(fact)) && !fact.sources.some((source) => answered.has(source)),
  );
  if (unanswered.length === 0) return after;
  return { ...after, facts: [...after.facts, ...unanswered].slice(0, MAX_WATCH_FACTS) };
}

const changeOf = (change: WatchChange['change'], fact: WatchFact): WatchChange => ({
  change,
  type: fact.type,
  value: fact.value,
  ...(fact.label ? { label: fact.label } : {}),
});

export const hasChanges = (changes: WatchChanges): boolean =>
  changes.items.length > 0 || changes.total !== undefined;

/** The next run after `from` for a schedule. */
export const nextRunAfter = (from: Date, schedule: WatchSchedule): Date =>
  new Date(from.getTime() + WATCH_INTERVAL_MS[schedule]);
