/** A case's notes: listed oldest first, and added by any member while the case is open. */
import type { CaseNote } from '@footprint/domain';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { caseNotes, type UserRow, users } from '../../db/schema.ts';
import { closedCase } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { visibleCase } from './access.ts';
import { auditCase, type CasesContext, touchCase } from './context.ts';

export async function notesOf(db: Database, caseId: string): Promise<CaseNote[]> {
  const rows = await db
    .select({ note: caseNotes, author: { id: users.id, name: users.name, email: users.email } })
    .from(caseNotes)
    .innerJoin(users, eq(users.id, caseNotes.authorId))
    .where(eq(caseNotes.caseId, caseId))
    .orderBy(asc(caseNotes.createdAt), asc(caseNotes.id));
  return rows.map(({ note, author }) => ({
    id: note.id,
    author,
    body: note.body,
    created_at: note.createdAt.toISOString(),
  }));
}

export async function addNote(
  ctx: CasesContext,
  user: UserRow,
  id: string,
  body: string,
  client: ClientContext,
): Promise<CaseNote> {
  const { db, now } = ctx;
  const { row } = await visibleCase(db, user, id);
  if (row.status === 'closed') throw closedCase();
  const note = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(caseNotes)
      .values({ caseId: row.id, authorId: user.id, body, createdAt: now() })
      .returning();
    await touchCase(ctx, tx, row.id);
    await auditCase(tx, user, client, 'case.note.add', row, { note_id: created!.id });
    return created!;
  });
  return {
    id: note.id,
    author: { id: user.id, name: user.name, email: user.email },
    body: note.body,
    created_at: note.createdAt.toISOString(),
  };
}
