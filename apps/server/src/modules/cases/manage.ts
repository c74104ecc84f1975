/** Opening a case by hand and changing it (title, status, legal basis: the owner and admins only). */
import { randomBytes } from 'node:crypto';
import { type CaseStatus, type CaseSummary, type LegalBasis, legalBasisLine } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { managesCase } from '../../access/policy.ts';
import { cases, type UserRow } from '../../db/schema.ts';
import { caseOwnerOnly, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { visibleCase } from './access.ts';
import { auditCase, type CasesContext } from './context.ts';
import { legalBasisColumns, legalBasisOf, presentSummary } from './present.ts';
import { summaryOf } from './read.ts';

/** A reference of the case's own when none was given: `CASE-` and eight letters and digits. */
const newReference = () => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  return `CASE-${[...bytes].map((b) => alphabet[b % alphabet.length]).join('')}`;
};

export async function createCase(
  ctx: CasesContext,
  user: UserRow,
  input: { title: string; reference?: string | undefined; legal_basis?: LegalBasis | null | undefined },
  client: ClientContext,
): Promise<CaseSummary> {
  const { db, now } = ctx;
  const reference = input.reference ?? newReference();
  const basis = input.legal_basis ?? null;
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(cases)
      .values({
        ownerId: user.id,
        title: input.title,
        reference,
        ...legalBasisColumns(basis),
        createdAt: now(),
        updatedAt: now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!created) {
      throw validationError({ reference: ['You already have a case with this reference.'] });
    }
    await auditCase(tx, user, client, 'case.create', created, { title: created.title });
    return created;
  });
  return presentSummary(row, { id: user.id, name: user.name, email: user.email }, 'owner', 0);
}

export async function updateCase(
  ctx: CasesContext,
  user: UserRow,
  id: string,
  patch: {
    title?: string | undefined;
    status?: CaseStatus | undefined;
    legal_basis?: LegalBasis | null | undefined;
  },
  client: ClientContext,
): Promise<CaseSummary> {
  const { db, now } = ctx;
  const { row, role } = await visibleCase(db, user, id);
  if (!managesCase(role)) throw caseOwnerOnly();
  const basis = patch.legal_basis;
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (patch.title !== undefined && patch.title !== row.title)
    changes.title = { from: row.title, to: patch.title };
  if (patch.status !== undefined && patch.status !== row.status)
    changes.status = { from: row.status, to: patch.status };
  if (basis !== undefined) {
    const before = legalBasisOf(row);
    const from = before ? legalBasisLine(before) : null;
    const to = basis ? legalBasisLine(basis) : null;
    if (from !== to) changes.legal_basis = { from, to };
  }
  if (Object.keys(changes).length === 0) return summaryOf(db, user, row.id);
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(cases)
      .set({
        ...(patch.title !== undefined ? { title: patch.title } : {}),
        ...(patch.status !== undefined ? { status: patch.status } : {}),
        ...(basis !== undefined
          ? {
              ...legalBasisColumns(basis),
            }
          : {}),
        updatedAt: now(),
      })
      .where(eq(cases.id, row.id))
      .returning();
    await auditCase(tx, user, client, 'case.update', updated ?? row, { changes });
  });
  return summaryOf(db, user, row.id);
}
