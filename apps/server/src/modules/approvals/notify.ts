import { eq } from 'drizzle-orm';
import { approversOf } from '../../access/policy.ts';
import { type UserRow, users } from '../../db/schema.ts';
import { approvalDecidedMail, approvalRequestedMail } from '../mail/templates.ts';
import { type Ctx, type Row, searchText } from './read.ts';

/** Tells the requester's supervisors (or, with none, the admins) that a request waits for them. */
export async function tellApprovers(ctx: Ctx, row: Row, requester: UserRow): Promise<void> {
  const approvers = await approversOf(ctx.db, requester.id);
  for (const approver of approvers) {
    await ctx.deps.mailer
      .send(
        approvalRequestedMail(approver.email, approver.name, {
          requester: `${requester.name} (${requester.email})`,
          search: searchText(row),
          caseReference: row.caseReference,
          legalBasis: row.legalBasis,
          link: ctx.link('/approvals'),
        }),
      )
      .catch((err) => ctx.deps.log.warn({ err, approvalId: row.id }, 'approval request e-mail failed'));
  }
}

/**
 * Tells the requester what became of their request: decided by a supervisor, or (`decidedBy` null)
 * expired with nobody deciding it, or approved but interrupted before its search answered.
 */
export async function tellRequester(ctx: Ctx, row: Row, decidedBy: UserRow | null): Promise<void> {
  const [requester] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
  if (!requester) return;
  const outcome = row.status === 'failed' ? `approved, but it could not run: ${row.failure}` : row.status;
  await ctx.deps.mailer
    .send(
      approvalDecidedMail(requester.email, requester.name, {
        outcome,
        search: searchText(row),
        decider: decidedBy ? `${decidedBy.name} (${decidedBy.email})` : null,
        note: row.note,
        link: ctx.link(row.lookupId ? `/history/${row.lookupId}` : '/approvals?view=mine'),
      }),
    )
    .catch((err) => ctx.deps.log.warn({ err, approvalId: row.id }, 'approval decision e-mail failed'));
}
