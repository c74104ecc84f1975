/** How a bulk job and its rows are shown to their owner, with the job's counts read from its rows. */
import type { BulkJob, BulkRow } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { BulkJobRow, bulkRows } from '../../db/schema.ts';

/** A job's counts, from its rows. */
export interface Counts {
  job_id: string;
  done: number;
  charged: number;
  failed: number;
  spent: number;
}

export const countsSql = (where: ReturnType<typeof sql>) => sql`
  select job_id,
    count(*) filter (where status <> 'pending')::int as done,
    count(*) filter (where cost > 0)::int as charged,
    count(*) filter (where status in ('failed', 'insufficient_credits'))::int as failed,
    coalesce(sum(cost), 0)::int as spent
  from bulk_rows where ${where} group by job_id`;

export function presentJob(job: BulkJobRow, counts: Counts | undefined): BulkJob {
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    done: counts?.done ?? 0,
    charged: counts?.charged ?? 0,
    failed: counts?.failed ?? 0,
    type: job.type,
    name: job.name,
    credits_spent: counts?.spent ?? 0,
    case_reference: job.caseReference,
    stop_reason: job.stopReason,
    approval_id: job.approvalId,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

export function presentRow(row: typeof bulkRows.$inferSelect): BulkRow {
  return {
    line: row.line,
    input: row.input,
    query: row.query,
    status: row.status,
    // A row's lookup id opens its result only once the lookup exists (a pending row's is reserved).
    lookup_id: row.status === 'pending' || row.status === 'skipped' ? null : row.lookupId,
    name: row.name,
    emails: row.emails,
    phones: row.phones,
    addresses: row.addresses,
    sources_answered: row.sourcesAnswered,
    cost: row.cost,
    accounts: row.accounts,
  };
}
