/**
 * The cases as a paid search meets them: the case a search with a reference files itself under, the
 * filing itself (opening the case when the reference is new), and the legal basis its reports print.
 */

import { type LegalBasis, legalBasisLine } from '@footprint/domain';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { casesOwnedBy, casesSeenBy, ownCasesFirst } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseItems, cases, type UserRow } from '../../db/schema.ts';
import { closedCase, legalBasisMissing, legalBasisRequired } from '../../errors.ts';
import type { FiledCase } from '../searches/ports.ts';
import { auditCase, type CasesContext, insertItem } from './context.ts';
import { legalBasisOf } from './present.ts';

/** A lookups row as far as its legal basis goes. */
export interface LookupBasisFacts {
  id: string;
  caseReference: string | null;
  /** The basis the search stated itself (`lookups.legal_basis`). */
  legalBasis: LegalBasis | null;
}

/**
 * The legal basis a report of a lookup prints, as one line: the one the search stated itself, else
 * that of the case it is filed under (the case of its own reference first, when it is in several);
 * null when it has neither.
 *
 * The case a lookup is filed under (the case of a given reference first, then the earliest filing)
 * is read by a statement prepared once, on first use, since every report asks.
 */
export function createLegalBasisOfLookup(db: Database) {
  const prepareCaseOfLookup = () =>
    db
      .select({ case: cases })
      .from(cases)
      .innerJoin(caseItems, eq(caseItems.caseId, cases.id))
      .where(eq(caseItems.lookupId, sql.placeholder('lookupId')))
      .orderBy(
        sql`lower(${cases.reference}) = lower(${sql.placeholder('reference')}) desc`,
        asc(caseItems.addedAt),
      )
      .limit(1)
      .prepare('footprint_case_of_lookup');
  let caseOfLookup: ReturnType<typeof prepareCaseOfLookup> | undefined;

  return async (lookup: LookupBasisFacts): Promise<string | null> => {
    if (lookup.legalBasis) return legalBasisLine(lookup.legalBasis);
    caseOfLookup ??= prepareCaseOfLookup();
    const [row] = await caseOfLookup.execute({ lookupId: lookup.id, reference: lookup.caseReference ?? '' });
    const basis = row ? legalBasisOf(row.case) : null;
    return basis ? legalBasisLine(basis) : null;
  };
}

/**
 * The case a search with this (checked) reference files itself under: the user's own case of that
 * reference, else one they are a member of (the most recently active), else a new case of theirs
 * titled with the reference. A closed case, or one without a legal basis while the deployment
 * requires one, refuses the search before anything is charged.
 */
export async function caseForSearch(
  db: Database,
  user: UserRow,
  reference: string | null,
  options: { legalBasisRequired: boolean },
): Promise<FiledCase | null> {
  if (reference === null) {
    if (options.legalBasisRequired) throw legalBasisRequired();
    return null;
  }
  const match = sql`lower(${cases.reference}) = lower(${reference})`;
  const [found] = await db
    .select()
    .from(cases)
    .where(and(match, casesSeenBy(user)))
    .orderBy(ownCasesFirst(user), desc(cases.updatedAt))
    .limit(1);
  const row = found;
  if (!row) {
    if (options.legalBasisRequired) throw legalBasisMissing(reference);
    return { id: null, reference, legalBasis: null };
  }
  if (row.status === 'closed') throw closedCase(row.reference);
  const legalBasis = legalBasisOf(row);
  if (options.legalBasisRequired && !legalBasis) throw legalBasisMissing(row.reference);
  return { id: row.id, reference: row.reference, legalBasis };
}

/**
 * Files a search under its case (idempotent), opening the case first when the search names a new
 * reference (then `filed.id` is set, for the search's own audit rows).
 */
export async function fileSearch(
  ctx: CasesContext,
  filed: FiledCase,
  lookupId: string,
  user: UserRow,
): Promise<void> {
  const { db, now } = ctx;
  if (filed.id === null) {
    const match = sql`lower(${cases.reference}) = lower(${filed.reference})`;
    const [created] = await db
      .insert(cases)
      .values({
        ownerId: user.id,
        title: filed.reference,
        reference: filed.reference,
        createdAt: now(),
        updatedAt: now(),
      })
      .onConflictDoNothing()
      .returning();
    const row =
      created ??
      (
        await db
          .select()
          .from(cases)
          .where(and(match, casesOwnedBy(user)))
      )[0];
    if (!row) throw new Error('a case could not be opened for a search');
    if (created)
      await auditCase(db, user, null, 'case.create', created, { title: created.title, by_search: true });
    filed.id = row.id;
    filed.reference = row.reference;
  }
  await insertItem(ctx, db, filed.id, lookupId, user.id);
}
