import type { CaseStatus, LegalBasis } from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import type { FiledCase } from '../searches/ports.ts';
import { casesContext } from './context.ts';
import { placeHold, releaseHold } from './hold.ts';
import { addItem, caseItemsOf } from './items.ts';
import { createCase, updateCase } from './manage.ts';
import { addMember, removeMember } from './members.ts';
import { addNote } from './notes.ts';
import { caseDetail, listCases } from './read.ts';
import { caseForSearch, createLegalBasisOfLookup, fileSearch } from './search-filing.ts';
import { shareWithUnit, unshareWithUnit } from './units.ts';

/**
 * Cases: who may see one (its owner, its members, the members of a unit it is shared with, the
 * owner's supervisors, admins; anyone else gets 404, as if it did not exist: access.ts and the access
 * policy), what they may do (those who see it add searches and notes; the owner and admins also
 * change it and its members: items.ts, notes.ts, manage.ts, members.ts; the owner, the owner's
 * supervisors and admins share it with units: units.ts), the searches filed under it
 * (search-filing.ts) and the entities their results hold (entities.ts). Every change is audited;
 * every search under a case keeps the case and its legal basis on its audit rows.
 */
export function createCases(deps: { db: Database; now?: () => Date }) {
  const ctx = casesContext(deps);
  const { db } = ctx;

  return {
    /**
     * The legal basis a report of this lookup prints: that of the case it is filed under (the case of
     * its own reference first, when it is in several), as one line; null when its case has none.
     */
    legalBasisOfLookup: createLegalBasisOfLookup(db),

    forSearch: (user: UserRow, reference: string | null, options: { legalBasisRequired: boolean }) =>
      caseForSearch(db, user, reference, options),

    file: (filed: FiledCase, lookupId: string, user: UserRow) => fileSearch(ctx, filed, lookupId, user),

    create: (
      user: UserRow,
      input: { title: string; reference?: string | undefined; legal_basis?: LegalBasis | null | undefined },
      client: ClientContext,
    ) => createCase(ctx, user, input, client),

    list: (user: UserRow, status?: CaseStatus) => listCases(db, user, status),

    get: (user: UserRow, id: string) => caseDetail(db, user, id),

    items: (user: UserRow, id: string) => caseItemsOf(db, user, id),

    update: (
      user: UserRow,
      id: string,
      patch: {
        title?: string | undefined;
        status?: CaseStatus | undefined;
        legal_basis?: LegalBasis | null | undefined;
      },
      client: ClientContext,
    ) => updateCase(ctx, user, id, patch, client),

    addMember: (user: UserRow, id: string, email: string, client: ClientContext) =>
      addMember(ctx, user, id, email, client),

    removeMember: (user: UserRow, id: string, memberId: string, client: ClientContext) =>
      removeMember(ctx, user, id, memberId, client),

    addNote: (user: UserRow, id: string, body: string, client: ClientContext) =>
      addNote(ctx, user, id, body, client),

    /** Shares the case with a unit (owner, a supervisor of the owner, admins). */
    shareWithUnit: (user: UserRow, id: string, unitId: string, client: ClientContext) =>
      shareWithUnit(ctx, user, id, unitId, client),

    unshareWithUnit: (user: UserRow, id: string, unitId: string, client: ClientContext) =>
      unshareWithUnit(ctx, user, id, unitId, client),

    /** Keeps the case's results past every retention period until released (owner, supervisors, admins). */
    placeHold: (user: UserRow, id: string, reason: string, client: ClientContext) =>
      placeHold(ctx, user, id, reason, client),

    releaseHold: (user: UserRow, id: string, client: ClientContext) => releaseHold(ctx, user, id, client),

    /** Files one of the caller's own searches under a case they can see ("Add to case"). */
    addItem: (user: UserRow, id: string, lookupId: string, client: ClientContext) =>
      addItem(ctx, user, id, lookupId, client),
  };
}

export type Cases = ReturnType<typeof createCases>;
