/**
 * What a bulk row's lookups row says, and how rows' outcomes are written: the lookups row is the
 * truth about a row's money, so a row's status and cost are read from it, never assumed.
 */
import {
  analyzeEmailLookup,
  analyzePhoneLookup,
  type BulkRowStatus,
  type BulkType,
  type EmailLookupData,
  isAccountSearchAnswer,
  isSiteCheckAnswer,
  type PhoneLookupResponse,
  type ProfileAnalysis,
} from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { execute } from './sql.ts';

/** What the row's lookups row says: its outcome, and the stored answer (a free repeat's: the original's). */
export interface LookupState {
  status: 'pending' | 'complete' | 'no_record' | 'refunded';
  cost: number;
  cache_of: string | null;
  sources_answered: string[];
  result: unknown;
}

const SUMMARY_MAX = 20;

/** An account a username row's site check found: the site's name and the profile's address. */
export interface FoundAccount {
  site: string;
  url: string;
}

/** A row's headline fields (the results files' columns; `bulk_rows`' summary columns). */
export interface RowSummary {
  name: string | null;
  emails: string[];
  phones: string[];
  addresses: string[];
  /** A username row's found accounts; empty for a phone or e-mail row. */
  accounts: FoundAccount[];
}

const NO_SUMMARY: RowSummary = { name: null, emails: [], phones: [], addresses: [], accounts: [] };

/** A profile address as two sources may spell it: no scheme, no 'www.', no trailing '/', lower case. */
const addressKey = (url: string) =>
  url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, '')
    .replace(/\/+$/, '');
const siteKey = (site: string) => `site:${site.trim().toLowerCase()}`;

/**
 * A username row's found accounts: the site check's found sites (`sitesData`, in its order, as the
 * results page lists them), then a vendor account search's accounts (`pseudonymData`) that name
 * another profile (one without an address is kept by its site's name, unless that site is listed
 * already; its url is then ''). Every one is kept: the row's count is their number.
 */
function accountsOf(payloads: Record<string, unknown>): FoundAccount[] {
  const values = Object.values(payloads);
  const checked = values
    .filter(isSiteCheckAnswer)
    .flatMap((answer) => answer.sites.filter((site) => site.state === 'found'))
    .map((site) => ({ site: site.name || site.site, url: site.url }));
  const vendor = values
    .filter(isAccountSearchAnswer)
    .flatMap((answer) => answer.accounts)
    .map((account) => ({ site: account.site, url: account.url ?? '' }));
  // Each site check line is its own account; a vendor's is one when no earlier one names it.
  const accounts: FoundAccount[] = [...checked];
  const seen = new Set(checked.flatMap((account) => [addressKey(account.url), siteKey(account.site)]));
  for (const account of vendor) {
    const key = account.url ? addressKey(account.url) : siteKey(account.site);
    if (seen.has(key)) continue;
    seen.add(key);
    seen.add(siteKey(account.site));
    accounts.push(account);
  }
  return accounts;
}

/**
 * The row's headline fields. A phone or e-mail row's come from the merged profile's analysis, the one
 * the results page and the PDFs show: the top name (by confidence, not the first a source gave), and
 * the phones, e-mails and addresses as merged values, each once in its one spelling. A username row's
 * are the accounts its sources found (`accountsOf`).
 */
export function summaryOf(type: BulkType, result: unknown): RowSummary {
  const stored = (result ?? {}) as { payloads?: Record<string, unknown>; errors?: Record<string, unknown> };
  if (type === 'username') return { ...NO_SUMMARY, accounts: accountsOf(stored.payloads ?? {}) };
  const answer = { ...(stored.payloads ?? {}), errors: stored.errors ?? {} };
  let analysis: ProfileAnalysis;
  try {
    analysis =
      type === 'tel'
        ? analyzePhoneLookup(answer as Partial<PhoneLookupResponse>, {})
        : analyzeEmailLookup(answer as Partial<EmailLookupData>, {});
  } catch {
    return NO_SUMMARY;
  }
  const values = (attribute: string) =>
    (analysis.attributes.find((a) => a.attribute === attribute)?.values ?? [])
      .map((v) => v.value)
      .slice(0, SUMMARY_MAX);
  return {
    name: values('Name')[0] ?? null,
    emails: values('E-mail'),
    phones: values('Phone'),
    addresses: values('Address/Location'),
    accounts: [],
  };
}

/** A row's lookups row, with the stored answer (a free repeat's: the original's). */
export async function lookupState(db: Executor, lookupId: string): Promise<LookupState | undefined> {
  const [row] = await execute<LookupState>(
    db,
    sql`select l.status, l.cost, l.cache_of, l.sources_answered,
          coalesce(l.result, (select o.result from lookups o where o.id = l.cache_of)) as result
        from lookups l where l.id = ${lookupId}`,
  );
  return row;
}

/** The row's status from its lookups row: a free repeat is 'cached', a refunded lookup 'failed'. */
function rowStatusOf(state: LookupState): BulkRowStatus {
  if (state.status === 'refunded') return 'failed';
  if (state.cache_of) return 'cached';
  return state.status === 'no_record' ? 'no_record' : 'success';
}

/** What a finished row says: its status, what it cost, and its answer's headline fields. */
export interface RowOutcome {
  id: string;
  status: BulkRowStatus;
  cost: number;
  summary: RowSummary;
  sourcesAnswered: string[];
  error: string | null;
  /** The row's search wrote no lookups row (refused before any charge): its reserved id is let go. */
  release: boolean;
}

/**
 * A row's outcome from its lookups row, which is the truth about its money: the cost the row shows
 * is the cost the ledger charged.
 */
export function outcomeOf(
  type: BulkType,
  row: { id: string },
  state: LookupState,
  error: string | null = null,
): RowOutcome {
  const status = rowStatusOf(state);
  return {
    id: row.id,
    status,
    // A refunded lookup cost nothing, nor did one that found no record (README, "Credits": refunded).
    cost: state.status === 'refunded' || state.status === 'no_record' ? 0 : state.cost,
    summary: status === 'failed' ? NO_SUMMARY : summaryOf(type, state.result),
    sourcesAnswered: state.sources_answered ?? [],
    error,
    release: false,
  };
}

/** The outcome of a row whose search wrote no lookups row (refused before any charge). */
export const refusalOf = (row: { id: string }, status: BulkRowStatus, error: string | null): RowOutcome => ({
  id: row.id,
  status,
  cost: 0,
  summary: NO_SUMMARY,
  sourcesAnswered: [],
  error,
  release: true,
});

/**
 * Writes rows' outcomes in one statement. Only a row still pending is written, or one a cancel marked
 * skipped while its lookup was in flight: it gets its real outcome.
 */
export async function writeOutcomes(db: Executor, outcomes: RowOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const values = sql.join(
    outcomes.map(
      (o) =>
        sql`(${o.id}::uuid, ${o.status}::text, ${o.cost}::int, ${o.summary.name}::text,
          ${JSON.stringify(o.summary.emails)}::jsonb, ${JSON.stringify(o.summary.phones)}::jsonb,
          ${JSON.stringify(o.summary.addresses)}::jsonb, ${JSON.stringify(o.summary.accounts)}::jsonb,
          ${JSON.stringify(o.sourcesAnswered)}::jsonb, ${o.error}::text, ${o.release}::boolean)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    update bulk_rows b set status = v.status, cost = v.cost, name = v.name, emails = v.emails,
      phones = v.phones, addresses = v.addresses, accounts = v.accounts, sources_answered = v.sources_answered,
      error = v.error, finished_at = now(), lookup_id = case when v.release then null else b.lookup_id end
    from (values ${values})
      as v(id, status, cost, name, emails, phones, addresses, accounts, sources_answered, error, release)
    where b.id = v.id and b.status in ('pending', 'skipped')`);
}

/** Writes one row's outcome from its lookups row (outcomeOf). */
export const settleRow = (
  db: Executor,
  type: BulkType,
  row: { id: string },
  state: LookupState,
  error: string | null = null,
) => writeOutcomes(db, [outcomeOf(type, row, state, error)]);

/**
 * Rows' outcomes written in the background, many per statement, one statement at a time: a lane hands
 * its row's outcome over and takes its next row, and waits only while `bound` outcomes are unwritten.
 * A crash meanwhile loses nothing: a row stays pending until its outcome is written, and a pending
 * row whose lookup settled gets that outcome from its lookups row when the job runs again.
 */
export function createOutcomeWriter(db: Executor, bound: number) {
  let queue: RowOutcome[] = [];
  /** The statement in flight, if any. */
  let current: Promise<void> | null = null;
  let failure: unknown;

  /** Writes what is queued, a statement at a time, until the queue is empty. */
  function pump() {
    if (current || queue.length === 0 || failure !== undefined) return;
    const batch = queue;
    queue = [];
    current = writeOutcomes(db, batch)
      .catch((error: unknown) => {
        failure = error;
      })
      .finally(() => {
        current = null;
        pump();
      });
  }

  return {
    async write(outcome: RowOutcome): Promise<void> {
      if (failure !== undefined) throw failure;
      queue.push(outcome);
      pump();
      while (queue.length >= bound && current) await current;
      if (failure !== undefined) throw failure;
    },
    /** Waits until every outcome handed over is written; throws the first write's error. */
    async drain(): Promise<void> {
      while (current) await current;
      if (failure !== undefined) throw failure;
    },
  };
}

export type OutcomeWriter = ReturnType<typeof createOutcomeWriter>;

/**
 * Closes the rows of a job that will not run (cancel, credits ran out): a row whose lookup settled
 * gets that outcome, every other pending row is 'skipped' (a charged lookup left pending by a stopped
 * process is refunded by the recovery sweep, modules/searches/recovery.ts). Answers how many were skipped.
 */
export async function closeRemainingRows(db: Executor, type: BulkType, jobId: string): Promise<number> {
  const started = await execute<{ id: string; lookup_id: string }>(
    db,
    sql`select id, lookup_id from bulk_rows
        where job_id = ${jobId} and status = 'pending' and lookup_id is not null`,
  );
  for (const row of started) {
    const state = await lookupState(db, row.lookup_id);
    if (state && state.status !== 'pending') await settleRow(db, type, row, state);
  }
  const skipped = await execute<{ id: string }>(
    db,
    sql`update bulk_rows set status = 'skipped', finished_at = now()
        where job_id = ${jobId} and status = 'pending' returning id`,
  );
  return skipped.length;
}
