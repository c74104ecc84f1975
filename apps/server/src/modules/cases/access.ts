/**
 * Who may see a case (its owner, its members, admins; anyone else gets 404, as if it did not exist)
 * and who may change it (the owner and admins).
 */
import { type CaseRole, casesMessages } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { caseMembers, cases, type UserRow } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { CaseRow } from './present.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A case the caller may see, and how. */
export interface Visible {
  row: CaseRow;
  role: CaseRole;
}

export const caseNotFound = () => notFound(casesMessages.notFound);

/** True for a case the user is a member of (to be used in a query over `cases`). */
export const memberOf = (userId: string) =>
  sql`exists (select 1 from ${caseMembers} m where m.case_id = ${cases.id} and m.user_id = ${userId})`;

export async function visibleCase(executor: Executor, user: UserRow, id: string): Promise<Visible> {
  if (!UUID.test(id)) throw caseNotFound();
  const [row] = await executor.select().from(cases).where(eq(cases.id, id));
  if (!row) throw caseNotFound();
  if (row.ownerId === user.id) return { row, role: 'owner' };
  const [member] = await executor
    .select({ userId: caseMembers.userId })
    .from(caseMembers)
    .where(and(eq(caseMembers.caseId, id), eq(caseMembers.userId, user.id)));
  if (member) return { row, role: 'member' };
  if (user.role === 'admin') return { row, role: 'admin' };
  throw caseNotFound();
}

export const mayManage = (role: CaseRole) => role === 'owner' || role === 'admin';
