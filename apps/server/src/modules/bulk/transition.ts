/** Pause, resume and cancel of a bulk job, by its owner. */
import type { BulkJob, BulkStatus } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import { bulkJobs, type UserRow } from '../../db/schema.ts';
import { illegalTransition } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { sendBulkJob } from './lease.ts';
import { closeRemainingRows } from './outcomes.ts';
import { ownJob, presentOne } from './read.ts';
import { haltHere } from './run.ts';
import type { BulkDeps } from './types.ts';

const FINAL: ReadonlySet<BulkStatus> = new Set(['done', 'cancelled', 'stopped', 'not_approved']);
export const isFinal = (status: BulkStatus) => FINAL.has(status);

/** Pause, resume or cancel: the job locked, checked, changed and audited in one transaction. */
export async function transitionJob(
  deps: BulkDeps,
  user: UserRow,
  client: ClientContext,
  id: string,
  action: 'pause' | 'resume' | 'cancel',
): Promise<BulkJob> {
  const changed = await deps.db.transaction(async (tx) => {
    const job = await ownJob(tx, user, id, true);
    const allowed =
      action === 'pause'
        ? job.status === 'queued' || job.status === 'running'
        : action === 'resume'
          ? job.status === 'paused'
          : !isFinal(job.status);
    const past = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' }[action];
    if (!allowed) throw illegalTransition(past, job.status);
    // Before anything is written: no row of this process's run may start after the change commits.
    if (action !== 'resume') haltHere(job.id);
    const status: BulkStatus = action === 'pause' ? 'paused' : action === 'resume' ? 'queued' : 'cancelled';
    let skipped = 0;
    if (action === 'cancel') skipped = await closeRemainingRows(tx, job.type, job.id);
    const [updated] = await tx
      .update(bulkJobs)
      .set({
        status,
        updatedAt: new Date(),
        ...(action === 'cancel' ? { finishedAt: new Date() } : {}),
      })
      .where(sql`${bulkJobs.id} = ${job.id}`)
      .returning();
    await recordAudit(tx, {
      action: `bulk.${action}`,
      outcome: 'success',
      user,
      client,
      target: job.id,
      caseReference: job.caseReference,
      details: {
        bulk_job_id: job.id,
        type: job.type,
        name: job.name,
        from: job.status,
        ...(action === 'cancel' ? { skipped } : {}),
      },
    });
    return updated!;
  });
  if (action === 'resume') await sendBulkJob(deps.queue, changed.id, deps.staleSeconds);
  return presentOne(deps.db, changed);
}
