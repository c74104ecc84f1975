import { type LegalBasis, legalBasisLine } from '@footprint/domain';
import type { CaseReference } from './types.ts';

/** The legal basis a search ran on: the one it stated itself, else its case's; null when neither. */
export const legalBasisOfSearch = (reference: CaseReference): LegalBasis | null =>
  reference.legalBasis ?? reference.case?.legalBasis ?? null;

/** `legalBasisOfSearch` as the one line every report, bundle and audit row prints. */
export const legalBasisLineOf = (reference: CaseReference): string | null => {
  const basis = legalBasisOfSearch(reference);
  return basis ? legalBasisLine(basis) : null;
};
