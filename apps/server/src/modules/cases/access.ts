/**
 * A case by id as the caller may see it (the access policy decides who: its owner, its members,
 * admins); anyone else gets 404, as if it did not exist.
 */
import { type CaseRole, casesMessages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { caseRoleOf } from '../../access/policy.ts';
import type { Executor } from '../../db/client.ts';
import { cases, type UserRow } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { CaseRow } from './present.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A case the caller may see, and how. */
export interface Visible {
  row: CaseRow;
  role: CaseRole;
}

export const caseNotFound = () => notFound(casesMessages.notFound);

export async function visibleCase(executor: Executor, user: UserRow, id: string): Promise<Visible> {
  if (!UUID.test(id)) throw caseNotFound();
  const [row] = await executor.select().from(cases).where(eq(cases.id, id));
  if (!row) throw caseNotFound();
  const role = await caseRoleOf(executor, user, row);
  if (!role) throw caseNotFound();
  return { row, role };
}
