/** A user's lookups: a page of the list, the whole list as CSV, and the credit statement. */
import {
  accountabilityMessages,
  BULK_TYPES,
  type CreditStatement,
  casesMessages,
  type HistoryEntry,
  type HistoryItem,
  type HistoryQuery,
  type Page,
} from '@footprint/domain';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { casesSeenBy, heldBy, type ListScope, lists, sees } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  bulkJobs,
  bulkRows,
  caseItems,
  cases,
  creditEntries,
  lookups,
  type UserRow,
  units,
  users,
} from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { presentJobs } from '../bulk/read.ts';
import { presentLedgerEntry } from '../credits/present.ts';
import { csvLine, HISTORY_CSV_COLUMNS, historyCsvFileName } from './export.ts';
import { presentHistoryEntry } from './present.ts';
import { entryColumns, historyWhere, keptSql, original, refundedSql, reusedJoin } from './queries.ts';

/** The history CSV's cost and time columns: written by the server, never neutralised. */
const PLAIN_HISTORY_COLUMNS: ReadonlySet<number> = new Set([0, 1, 5]);

/**
 * A page of the user's own lookups, newest first, of one kind or family when given, filed under one
 * of the cases they see or run by one of their bulk jobs when asked (another's case or job is a 404,
 * never an empty page that would say it exists). With `group=job` (and no job asked) each bulk job is
 * one entry instead of a line per row.
 */
export async function listLookups(
  db: Database,
  since: Date,
  user: UserRow,
  query: HistoryQuery,
): Promise<Page<HistoryEntry | HistoryItem>> {
  const theCase = query.case_id ? await caseSeen(db, user, query.case_id) : undefined;
  if (query.job_id) await jobSeen(db, user, query.job_id);
  if (query.group === 'job' && !query.job_id) return listGrouped(db, since, user, query, theCase);
  const where = historyWhere(user, {
    kind: query.kind,
    caseId: query.case_id,
    jobId: query.job_id,
    scope: query.scope,
  });
  const [rows, [counted]] = await Promise.all([
    entriesWhere(db, since, where, query.scope)
      .orderBy(desc(lookups.createdAt), desc(lookups.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db.select({ n: count() }).from(lookups).where(where),
  ]);
  return {
    data: rows.map((row) => presentHistoryEntry(row, query.scope)),
    total: Number(counted?.n ?? 0),
    page: query.page,
    per_page: query.per_page,
  };
}

/**
 * The lines of the history list that match `where`, each with whether its result is kept, and with
 * who searched (a list of the units' searches names them).
 */
const entriesWhere = (db: Database, since: Date, where: SQL | undefined, scope?: ListScope) =>
  db
    .select({
      ...entryColumns,
      sandbox: lookups.sandbox,
      kept: keptSql(since),
      refunded: refundedSql,
      holder: scope === 'unit' ? holderColumns : sql<null>`null`,
    })
    .from(lookups)
    .leftJoin(original, reusedJoin)
    .where(where)
    .$dynamic();

/** Who made a lookup, as the list of the units' searches names them. */
const holderColumns = sql<{ id: string; name: string; email: string }>`(select json_build_object(
  'id', u.id, 'name', u.name, 'email', u.email) from ${users} u where u.id = ${lookups.userId})`;

/** A case the user sees (owned or shared with them), else 404 as if it did not exist. */
async function caseSeen(db: Database, user: UserRow, id: string): Promise<{ id: string; reference: string }> {
  const [found] = await db
    .select({ id: cases.id, reference: cases.reference })
    .from(cases)
    .where(and(eq(cases.id, id), casesSeenBy(user)));
  if (!found) throw notFound(casesMessages.notFound);
  return found;
}

/** One of the user's bulk jobs, else 404. */
async function jobSeen(db: Database, user: UserRow, id: string): Promise<void> {
  const [found] = await db
    .select({ id: bulkJobs.id })
    .from(bulkJobs)
    .where(and(eq(bulkJobs.id, id), sees(user, bulkJobs)));
  if (!found) throw notFound(accountabilityMessages.historyJobNotFound);
}

/**
 * The grouped page: the user's lookups that are no bulk job's rows, and their bulk jobs as one entry
 * each, newest first together. A job is listed under a kind filter of its search kind, and under a
 * case filter when any of its rows is filed under the case or it carries the case's reference (a job
 * still queued has filed nothing yet).
 */
async function listGrouped(
  db: Database,
  since: Date,
  user: UserRow,
  query: HistoryQuery,
  theCase: { id: string; reference: string } | undefined,
): Promise<Page<HistoryItem>> {
  const lookupWhere = historyWhere(user, {
    kind: query.kind,
    caseId: query.case_id,
    outsideJobs: true,
    scope: query.scope,
  });
  const jobFilters: SQL[] = [lists(user, bulkJobs, query.scope)];
  if (query.kind && !(BULK_TYPES as readonly string[]).includes(query.kind)) jobFilters.push(sql`false`);
  else if (query.kind) jobFilters.push(sql`${bulkJobs.type} = ${query.kind}`);
  if (theCase) {
    jobFilters.push(sql`(lower(${bulkJobs.caseReference}) = lower(${theCase.reference}) or exists (
      select 1 from ${bulkRows} join ${caseItems} on ${caseItems.lookupId} = ${bulkRows.lookupId}
      where ${bulkRows.jobId} = ${bulkJobs.id} and ${caseItems.caseId} = ${theCase.id}))`);
  }
  const both = sql`
    select 'lookup' as type, ${lookups.id} as id, ${lookups.createdAt} as created_at
      from ${lookups} where ${lookupWhere}
    union all
    select 'bulk_job' as type, ${bulkJobs.id} as id, ${bulkJobs.createdAt} as created_at
      from ${bulkJobs} where ${and(...jobFilters)}`;
  const [picked, [counted]] = await Promise.all([
    db
      .execute(sql`select type, id from (${both}) entries order by created_at desc, id desc
        limit ${query.per_page} offset ${(query.page - 1) * query.per_page}`)
      .then((result) => rowsOf<{ type: 'lookup' | 'bulk_job'; id: string }>(result)),
    db
      .execute(sql`select count(*)::int as n from (${both}) entries`)
      .then((result) => rowsOf<{ n: number }>(result)),
  ]);
  const lookupIds = picked.filter((item) => item.type === 'lookup').map((item) => item.id);
  const jobIds = picked.filter((item) => item.type === 'bulk_job').map((item) => item.id);
  const [entries, jobRows] = await Promise.all([
    lookupIds.length > 0
      ? entriesWhere(db, since, and(sees(user, lookups), inArray(lookups.id, lookupIds)), query.scope)
      : Promise.resolve([]),
    jobIds.length > 0
      ? db
          .select({ job: bulkJobs, holder: { id: users.id, name: users.name, email: users.email } })
          .from(bulkJobs)
          .innerJoin(users, eq(users.id, bulkJobs.userId))
          .where(and(sees(user, bulkJobs), inArray(bulkJobs.id, jobIds)))
      : Promise.resolve([]),
  ]);
  const jobs = await presentJobs(
    db,
    jobRows.map((row) => row.job),
  );
  // Who ran each job: a list of the units' work names them, as it names who made each search.
  const holderOf = new Map(jobRows.map((row) => [row.job.id, row.holder]));
  const entryOf = new Map(entries.map((row) => [row.id, row]));
  const jobOf = new Map(jobs.map((job) => [job.id, job]));
  const data: HistoryItem[] = [];
  for (const item of picked) {
    if (item.type === 'lookup') {
      const row = entryOf.get(item.id);
      if (row) data.push({ type: 'lookup', ...presentHistoryEntry(row, query.scope) });
    } else {
      const job = jobOf.get(item.id);
      if (job) {
        data.push({
          type: 'bulk_job',
          id: job.id,
          created_at: job.created_at,
          case_reference: job.case_reference,
          ...(query.scope === 'unit' && holderOf.has(job.id) ? { user: holderOf.get(job.id)! } : {}),
          job,
        });
      }
    }
  }
  return { data, total: Number(counted?.n ?? 0), page: query.page, per_page: query.per_page };
}

/**
 * The user's lookups list as CSV, newest first, with the kind filter of the list, read in keyset
 * batches so memory stays flat however long the history is. The export is written to the trail
 * (`history.export`, with the filter and the row count) before the file is streamed.
 */
export async function exportLookups(
  db: Database,
  today: Date,
  user: UserRow,
  query: { kind?: string | undefined },
  client: ClientContext,
  batchSize = 1000,
): Promise<{ fileName: string; rows: number; chunks: AsyncGenerator<string> }> {
  const where = historyWhere(user, { kind: query.kind });
  const [counted] = await db.select({ n: count() }).from(lookups).where(where);
  const rows = Number(counted?.n ?? 0);
  const fileName = historyCsvFileName(query.kind, today);
  await recordAudit(db, {
    action: 'history.export',
    outcome: 'success',
    user,
    client,
    target: fileName,
    cost: 0,
    details: { kind: query.kind ?? null, rows },
  });
  async function* chunks(): AsyncGenerator<string> {
    yield csvLine(HISTORY_CSV_COLUMNS);
    let after: { at: string; id: string } | undefined;
    for (;;) {
      const batch = await db
        .select({
          ...entryColumns,
          // The exact timestamp (microseconds), for the next batch's key.
          at: sql<string>`${lookups.createdAt}::text`,
          refunded: refundedSql,
        })
        .from(lookups)
        // Joined as in the list: with two tables Drizzle names every column with its table, which
        // `refundedSql`'s subquery (credit_entries has an id too) needs.
        .leftJoin(original, reusedJoin)
        .where(
          after
            ? and(
                where,
                sql`(${lookups.createdAt}, ${lookups.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`,
              )
            : where,
        )
        .orderBy(desc(lookups.createdAt), desc(lookups.id))
        .limit(batchSize);
      if (batch.length === 0) return;
      yield batch
        .map((row) =>
          csvLine(
            [
              row.id,
              row.createdAt.toISOString(),
              row.kind,
              row.queryTyped,
              row.query,
              row.cost,
              row.status,
              row.cacheOf !== null,
              row.caseReference,
              Boolean(row.refunded),
            ],
            PLAIN_HISTORY_COLUMNS,
          ),
        )
        .join('');
      if (batch.length < batchSize) return;
      const last = batch[batch.length - 1]!;
      after = { at: last.at, id: last.id };
    }
  }
  return { fileName, rows, chunks: chunks() };
}

/**
 * The user's ledger, newest first, with their own balance: their own rows, and the charges (and
 * refunds) of their searches that a unit's pool paid, named by the pool.
 */
export async function creditStatement(
  db: Database,
  user: UserRow,
  query: { page: number; per_page: number },
): Promise<CreditStatement> {
  const mine = heldBy(creditEntries, user.id);
  const [rows, [counted], [balance]] = await Promise.all([
    db
      .select({ entry: creditEntries, unitName: units.name })
      .from(creditEntries)
      .leftJoin(units, eq(units.id, creditEntries.unitId))
      .where(mine)
      .orderBy(desc(creditEntries.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db.select({ n: count() }).from(creditEntries).where(mine),
    db.select({ credits: users.credits }).from(users).where(eq(users.id, user.id)),
  ]);
  return {
    balance: balance?.credits ?? 0,
    data: rows.map((row) => presentLedgerEntry(row.entry, row.unitName)),
    total: Number(counted?.n ?? 0),
    page: query.page,
    per_page: query.per_page,
  };
}
