/**
 * What every action on a case shares: the database, the clock, and the writes each change makes
 * (the case touched, its audit row, a search filed under it).
 */
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { caseItems, cases, type UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { type CaseRow, caseAuditDetails, legalBasisOf } from './present.ts';

export interface CasesContext {
  db: Database;
  now: () => Date;
}

export const casesContext = (deps: { db: Database; now?: () => Date }): CasesContext => ({
  db: deps.db,
  now: deps.now ?? (() => new Date()),
});

/** The audit row of a change to a case: it names the case and its legal basis, like a search under it. */
export const auditCase = (
  executor: Executor,
  user: UserRow,
  client: ClientContext | null,
  action: string,
  row: CaseRow,
  details: Record<string, unknown> = {},
) =>
  recordAudit(executor, {
    action,
    outcome: 'success',
    user,
    client,
    target: row.id,
    caseReference: row.reference,
    details: {
      ...caseAuditDetails({ id: row.id, reference: row.reference, legalBasis: legalBasisOf(row) }),
      ...details,
    },
  });

export const touchCase = (ctx: CasesContext, executor: Executor, caseId: string) =>
  executor.update(cases).set({ updatedAt: ctx.now() }).where(eq(cases.id, caseId));

/** Files a search under a case (once): answers whether it was new there. */
export async function insertItem(
  ctx: CasesContext,
  executor: Executor,
  caseId: string,
  lookupId: string,
  userId: string,
): Promise<boolean> {
  const inserted = await executor
    .insert(caseItems)
    .values({ caseId, lookupId, addedBy: userId, addedAt: ctx.now() })
    .onConflictDoNothing()
    .returning({ lookupId: caseItems.lookupId });
  if (inserted.length > 0) await touchCase(ctx, executor, caseId);
  return inserted.length > 0;
}
