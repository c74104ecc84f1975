/**
 * A user's own bulk jobs as they read them: the job (another user's is a 404, as if it did not
 * exist), its counts, the list of their jobs, a page of a job's rows and every row for the results file.
 */

import type { BulkJob, BulkRow } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import { changes, type ListScope, lists, sees } from '../../access/policy.ts';
import type { Database, Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { type BulkJobRow, bulkJobs, bulkRows, type UserRow, users } from '../../db/schema.ts';
import { DomainError, notFound } from '../../errors.ts';
import { namingOthers } from '../users/people.ts';
import { type Counts, countsSql, presentJob, presentRow } from './present.ts';

export const BULK_ROWS_PAGE = 100;
const LIST_MAX = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function balanceOf(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ credits: users.credits }).from(users).where(sql`${users.id} = ${userId}`);
  return row?.credits ?? 0;
}

/** The user's job, or 404 (another user's id, an unknown id and a malformed one alike). */
export async function ownJob(
  executor: Executor,
  user: UserRow,
  id: string,
  lock = false,
): Promise<BulkJobRow> {
  if (!UUID.test(id)) throw notFound();
  const query = executor
    .select()
    .from(bulkJobs)
    .where(and(eq(bulkJobs.id, id), lock ? changes(user, bulkJobs) : sees(user, bulkJobs)));
  const [job] = lock ? await query.for('update') : await query;
  if (!job) throw notFound();
  return job;
}

async function countsOf(db: Database, jobId: string): Promise<Counts | undefined> {
  const [counts] = rowsOf<Counts>(await db.execute(countsSql(sql`job_id = ${jobId}`)));
  return counts;
}

/** One job as shown, with its counts. */
export async function presentOne(db: Database, job: BulkJobRow): Promise<BulkJob> {
  return presentJob(job, await countsOf(db, job.id));
}

/**
 * The user's jobs, newest first (the latest 100); with scope `unit`, those of everyone in the units
 * they supervise too, each naming whose it is.
 */
export async function listJobs(db: Database, user: UserRow, scope: ListScope = 'mine'): Promise<BulkJob[]> {
  const jobs = await db
    .select()
    .from(bulkJobs)
    .where(lists(user, bulkJobs, scope))
    .orderBy(sql`${bulkJobs.createdAt} desc, ${bulkJobs.id} desc`)
    .limit(LIST_MAX);
  const shown = await presentJobs(db, jobs);
  return namingOthers(
    db,
    user,
    jobs.map((row, i) => ({ row, shown: shown[i]! })),
  );
}

/** Jobs as shown, with their counts read in one query. */
export async function presentJobs(db: Database, jobs: BulkJobRow[]): Promise<BulkJob[]> {
  if (jobs.length === 0) return [];
  const ids = sql.join(
    jobs.map((job) => sql`${job.id}::uuid`),
    sql`, `,
  );
  const counts = rowsOf<Counts>(await db.execute(countsSql(sql`job_id in (${ids})`)));
  const byJob = new Map(counts.map((c) => [c.job_id, c]));
  return jobs.map((job) => presentJob(job, byJob.get(job.id)));
}

export async function getJob(db: Database, user: UserRow, id: string): Promise<BulkJob> {
  return presentOne(db, await ownJob(db, user, id));
}

/** The job's JSON as the events stream sends it (null once the job is gone). */
export async function jobSnapshot(db: Database, user: UserRow, id: string): Promise<BulkJob | null> {
  try {
    return await presentOne(db, await ownJob(db, user, id));
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return null;
    throw error;
  }
}

/** A page (from 1) of the job's rows in line order. */
export async function jobRows(
  db: Database,
  user: UserRow,
  id: string,
  page: number,
): Promise<{ data: BulkRow[]; total: number }> {
  const job = await ownJob(db, user, id);
  const rows = await db
    .select()
    .from(bulkRows)
    .where(sql`${bulkRows.jobId} = ${job.id}`)
    .orderBy(bulkRows.line)
    .limit(BULK_ROWS_PAGE)
    .offset((page - 1) * BULK_ROWS_PAGE);
  return { data: rows.map(presentRow), total: job.total };
}

/** Every row, for the results file. */
export async function jobResults(
  db: Database,
  user: UserRow,
  id: string,
): Promise<{ job: BulkJobRow; rows: BulkRow[] }> {
  const job = await ownJob(db, user, id);
  const rows = await db
    .select()
    .from(bulkRows)
    .where(sql`${bulkRows.jobId} = ${job.id}`)
    .orderBy(bulkRows.line);
  return { job, rows: rows.map(presentRow) };
}
