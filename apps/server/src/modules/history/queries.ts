/**
 * The pieces of SQL a user's history is read with: a line's columns, whether its result is kept,
 * whether its charge came back, and the user's own lookups of a kind.
 */

import { and, eq, like, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type ListScope, lists, sameHolder } from '../../access/policy.ts';
import { bulkRows, caseItems, creditEntries, lookups, type UserRow } from '../../db/schema.ts';
import { heldSql } from '../lookup/retention.ts';

/** A cache hit keeps no result of its own: it shows the answer of the lookup it reused. */
export const original = alias(lookups, 'original');

/** Joins each lookup to the one it reused (its own user's only). */
export const reusedJoin = and(eq(original.id, lookups.cacheOf), sameHolder(original, lookups));

/**
 * Refunded: the row was, or its charge came back with a no-record answer (no kind charges "no record",
 * README "Credits"; the ledger's refund row is the proof). Only no_record rows look in the ledger.
 */
export const refundedSql = sql<boolean>`(case
  when ${lookups.status} = 'refunded' then true
  when ${lookups.status} = 'no_record' and ${lookups.cost} > 0 then exists (
    select 1 from ${creditEntries}
    where ${sameHolder(creditEntries, lookups)} and ${creditEntries.lookupId} = ${lookups.id}
      and ${creditEntries.kind} = 'refund'
  )
  else false end)`;

/** The columns of a history line, in the list and in its CSV export. */
export const entryColumns = {
  id: lookups.id,
  kind: lookups.kind,
  query: lookups.query,
  queryTyped: lookups.queryTyped,
  cost: lookups.cost,
  status: lookups.status,
  cacheOf: lookups.cacheOf,
  caseReference: lookups.caseReference,
  createdAt: lookups.createdAt,
};

/**
 * Kept: the row (or the one it reused) still has its result and is within the retention period, or
 * a legal hold keeps it (a CASE, so the hold is looked up only for a result past the period).
 */
export const keptSql = (since: Date) => {
  const at = since.toISOString();
  return sql<boolean>`(
    (${lookups.result} is not null
      and case when ${lookups.createdAt} >= ${at}::timestamptz then true else ${heldSql(sql`${lookups.id}`)} end)
    or (${original.result} is not null
      and case when ${original.createdAt} >= ${at}::timestamptz then true else ${heldSql(sql`${original.id}`)} end)
  )`;
};

/** A lookup run as a row of a bulk job (of this job when given). */
export const bulkRowSql = (jobId?: string): SQL =>
  sql`exists (select 1 from ${bulkRows} where ${bulkRows.lookupId} = ${lookups.id}${
    jobId ? sql` and ${bulkRows.jobId} = ${jobId}` : sql``
  })`;

/** A lookup filed under this case (by its case reference or added to the case afterwards). */
export const filedUnderSql = (caseId: string): SQL =>
  sql`exists (select 1 from ${caseItems} where ${caseItems.lookupId} = ${lookups.id} and ${caseItems.caseId} = ${caseId})`;

/** Which of the user's lookups a list reads: the case and the job are checked as theirs before. */
export interface HistoryFilter {
  /** One kind ('corporate:pan') or family ('corporate'). */
  kind?: string | undefined;
  /** Only those filed under this case. */
  caseId?: string | undefined;
  /** Only the rows of this bulk job. */
  jobId?: string | undefined;
  /** Leave out every bulk job's rows (the grouped list shows each job as one entry instead). */
  outsideJobs?: boolean;
  /** The user's own lookups (default), or those of the people they supervise. */
  scope?: ListScope | undefined;
}

/** The user's own lookups (or with `scope: 'unit'` their people's), narrowed by the filter. */
export const historyWhere = (user: UserRow, filter: HistoryFilter = {}): SQL | undefined => {
  const { kind, caseId, jobId, outsideJobs, scope } = filter;
  const filters: SQL[] = [lists(user, lookups, scope)];
  if (kind) {
    filters.push(
      kind.includes(':')
        ? eq(lookups.kind, kind)
        : or(eq(lookups.kind, kind), like(lookups.kind, `${kind}:%`))!,
    );
  }
  if (caseId) filters.push(filedUnderSql(caseId));
  if (jobId) filters.push(bulkRowSql(jobId));
  else if (outsideJobs) filters.push(sql`not ${bulkRowSql()}`);
  return and(...filters);
};
