/** A case's members: listed, added by e-mail and removed by the owner (or an admin); a member may leave. */
import { casesMessages } from '@footprint/domain';
import { asc, eq, sql } from 'drizzle-orm';
import { managesCase, mayJoinCase, memberRow, removesMember } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseMembers, type UserRow, users } from '../../db/schema.ts';
import { caseOwnerOnly, notFound, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { UUID, visibleCase } from './access.ts';
import { auditCase, type CasesContext, touchCase } from './context.ts';

export async function membersOf(db: Database, caseId: string) {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, addedAt: caseMembers.addedAt })
    .from(caseMembers)
    .innerJoin(users, eq(users.id, caseMembers.userId))
    .where(eq(caseMembers.caseId, caseId))
    .orderBy(asc(caseMembers.addedAt));
  return rows.map(({ addedAt, ...person }) => ({ ...person, added_at: addedAt.toISOString() }));
}

export async function addMember(
  ctx: CasesContext,
  user: UserRow,
  id: string,
  email: string,
  client: ClientContext,
) {
  const { db, now } = ctx;
  const { row, role } = await visibleCase(db, user, id);
  if (!managesCase(role)) throw caseOwnerOnly();
  const [member] = await db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (member?.status !== 'active') {
    throw validationError({ email: [casesMessages.memberUnknown] });
  }
  if (!mayJoinCase(row, member.id)) throw validationError({ email: [casesMessages.memberIsOwner] });
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(caseMembers)
      .values({ caseId: row.id, userId: member.id, addedBy: user.id, addedAt: now() })
      .onConflictDoNothing()
      .returning({ userId: caseMembers.userId });
    if (added.length === 0) throw validationError({ email: [casesMessages.memberAlready] });
    await touchCase(ctx, tx, row.id);
    await auditCase(tx, user, client, 'case.member.add', row, { member_id: member.id, member_email: email });
  });
  return membersOf(db, row.id);
}

export async function removeMember(
  ctx: CasesContext,
  user: UserRow,
  id: string,
  memberId: string,
  client: ClientContext,
) {
  const { db } = ctx;
  const { row, role } = await visibleCase(db, user, id);
  // A member may leave; only the owner (or an admin) removes someone else.
  if (!removesMember(role, user, memberId)) throw caseOwnerOnly();
  if (!UUID.test(memberId)) throw notFound(casesMessages.memberNotFound);
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(caseMembers)
      .where(memberRow(row.id, memberId))
      .returning({ userId: caseMembers.userId });
    if (removed.length === 0) throw notFound(casesMessages.memberNotFound);
    await touchCase(ctx, tx, row.id);
    await auditCase(tx, user, client, 'case.member.remove', row, { member_id: memberId });
  });
  return memberId === user.id && role === 'member' ? [] : membersOf(db, row.id);
}
