/**
 * A held bulk job's end of its request for approval (approvals/bulk.ts holds it): approved, it is
 * queued and runs as any job; rejected or expired, it is not_approved and no row runs. Each is one
 * conditional change from awaiting_approval, so a job its owner cancelled meanwhile stays cancelled
 * (and the approval of it fails, saying so).
 */
import { messages } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { bulkJobs } from '../../db/schema.ts';
import { DomainError } from '../../errors.ts';
import { recordAudit } from '../audit/service.ts';
import { sendBulkJob } from './lease.ts';
import { closeRemainingRows } from './outcomes.ts';
import type { BulkDeps } from './types.ts';

const jobIdOf = (input: unknown): string => {
  const jobId = (input as { jobId?: unknown } | null)?.jobId;
  if (typeof jobId !== 'string') throw new Error('a held bulk request without its job');
  return jobId;
};

/** Approved: the job is queued, attributed to the approval; answers no lookup (its rows are lookups). */
export async function releaseHeldJob(
  deps: BulkDeps,
  input: unknown,
  auditDetails: Record<string, unknown>,
): Promise<{ lookupId: null }> {
  const jobId = jobIdOf(input);
  const released = await deps.db.transaction(async (tx) => {
    const [job] = await tx
      .update(bulkJobs)
      .set({ status: 'queued', updatedAt: new Date() })
      .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.status, 'awaiting_approval')))
      .returning();
    if (!job) return undefined;
    await recordAudit(tx, {
      action: 'bulk.release',
      outcome: 'success',
      user: null,
      target: job.id,
      caseReference: job.caseReference,
      details: { bulk_job_id: job.id, owner_id: job.userId, rows: job.total, ...auditDetails },
    });
    return job;
  });
  if (!released) throw new DomainError('illegal_transition', messages.bulkJobs.notAwaiting);
  await sendBulkJob(deps.queue, released.id, deps.staleSeconds);
  return { lookupId: null };
}

/** Rejected or expired: the job is not_approved, its rows skipped; nothing ran, nothing was charged. */
export async function refuseHeldJob(deps: BulkDeps, input: unknown, reason: string): Promise<void> {
  const jobId = jobIdOf(input);
  await deps.db.transaction(async (tx) => {
    const [job] = await tx
      .update(bulkJobs)
      .set({ status: 'not_approved', updatedAt: new Date(), finishedAt: new Date() })
      .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.status, 'awaiting_approval')))
      .returning();
    if (!job) return;
    const skipped = await closeRemainingRows(tx, job.type, job.id);
    await recordAudit(tx, {
      action: 'bulk.not_approved',
      outcome: 'success',
      user: null,
      target: job.id,
      caseReference: job.caseReference,
      details: { bulk_job_id: job.id, owner_id: job.userId, skipped, reason },
    });
  });
}
