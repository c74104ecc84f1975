/**
 * How a case leaves the server and what it adds to audit rows: its legal basis, its summary, and the
 * keys every search or action under it carries.
 */
import {
  type CaseRole,
  type CaseStatus,
  type CaseSummary,
  type LegalBasis,
  type LegalBasisKind,
  legalBasisAuditDetails,
} from '@footprint/domain';
import type { cases } from '../../db/schema.ts';
import type { FiledCase } from '../searches/ports.ts';

export type CaseRow = typeof cases.$inferSelect;

export const legalBasisOf = (row: CaseRow): LegalBasis | null =>
  row.legalBasisKind && row.legalBasisNumber && row.legalBasisPurpose
    ? {
        kind: row.legalBasisKind as LegalBasisKind,
        number: row.legalBasisNumber,
        purpose: row.legalBasisPurpose,
        ...(row.legalBasisFields ? { fields: row.legalBasisFields } : {}),
      }
    : null;

/** The columns a legal basis is stored in (all null: none). */
export const legalBasisColumns = (basis: LegalBasis | null) => ({
  legalBasisKind: basis?.kind ?? null,
  legalBasisNumber: basis?.number ?? null,
  legalBasisPurpose: basis?.purpose ?? null,
  legalBasisFields: basis?.fields ?? null,
});

/** The keys a case adds to every audit row of a search or action under it. */
export const caseAuditDetails = (filed: FiledCase | null): Record<string, unknown> =>
  filed?.id
    ? {
        case_id: filed.id,
        ...(filed.legalBasis ? legalBasisAuditDetails(filed.legalBasis) : {}),
      }
    : {};

export const presentSummary = (
  row: CaseRow,
  owner: { id: string; name: string; email: string },
  role: CaseRole,
  itemsCount: number,
  holdBy: { id: string; name: string; email: string } | null = null,
): CaseSummary => ({
  id: row.id,
  title: row.title,
  reference: row.reference,
  status: row.status as CaseStatus,
  legal_basis: legalBasisOf(row),
  legal_hold: row.legalHoldAt
    ? { at: row.legalHoldAt.toISOString(), by: holdBy, reason: row.legalHoldReason ?? '' }
    : null,
  owner,
  role,
  items_count: itemsCount,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
