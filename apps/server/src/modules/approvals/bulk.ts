/**
 * Bulk jobs of more rows than the admin's approval_bulk_rows wait for a supervisor, like a sensitive
 * search: the bulk module stores the job as awaiting_approval and its request here, in one
 * transaction; an approval queues it (the 'bulk' replay, bulk/approval.ts), a rejection or expiry makes
 * it not_approved. Nothing is charged until its rows run.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { searchApprovals, type UserRow } from '../../db/schema.ts';
import { readDeploymentSettings } from '../settings/service.ts';
import { storeRequest } from './decide.ts';
import { tellApprovers } from './notify.ts';
import { bulkKind, type Ctx } from './read.ts';

/** The held job as bulk/types.ts BulkHold describes it (structurally: this module does not import bulk). */
export interface HeldJob {
  user: UserRow;
  client: Parameters<typeof storeRequest>[2]['client'];
  type: string;
  jobId: string;
  name: string;
  rows: number;
  cost: number;
  caseReference: string | null;
  legalBasisLine: string | null;
}

export function bulkGate(ctx: Ctx) {
  return {
    async holds(rows: number): Promise<boolean> {
      const { approvalBulkRows } = await readDeploymentSettings(ctx.db, ctx.deps.settings);
      return approvalBulkRows > 0 && rows > approvalBulkRows;
    },

    async request(tx: Executor, job: HeldJob): Promise<string> {
      const { approvalHours } = await readDeploymentSettings(ctx.db, ctx.deps.settings);
      const row = await storeRequest(
        ctx,
        tx,
        {
          user: job.user,
          client: job.client,
          kind: bulkKind(job.type),
          query: job.jobId,
          queryTyped: `${job.name} (${job.rows.toLocaleString('en-IN')} ${job.rows === 1 ? 'row' : 'rows'})`,
          cost: job.cost,
          fresh: false,
          caseReference: job.caseReference,
          legalBasisLine: job.legalBasisLine,
          held: { family: 'bulk', input: { jobId: job.jobId } },
        },
        approvalHours,
      );
      return row.id;
    },

    async announce(requestId: string, user: UserRow): Promise<void> {
      const [row] = await ctx.db.select().from(searchApprovals).where(eq(searchApprovals.id, requestId));
      if (row) await tellApprovers(ctx, row, user);
    },
  };
}
