import { LEGAL_BASIS_LABELS, type LegalBasis, legalBasisInput, messages } from '@footprint/domain';
import { searchBasisTexts } from '../lib/case-reference.ts';

/**
 * The legal basis a search stated itself (`legal_basis`), where the search is shown again (its history
 * entry, /results): its kind, the one-line reference made of its facts, and its purpose.
 */
export function StatedLegalBasis({ basis, className = '' }: { basis: LegalBasis; className?: string }) {
  return (
    <p className={`text-sm break-words ${className}`}>
      <span className="text-muted">{searchBasisTexts.legend}: </span>
      <span className="font-medium text-text">
        {LEGAL_BASIS_LABELS[basis.kind]} {basis.number}
      </span>
      <span className="text-muted">; {messages.cases.legalBasisPurpose.toLowerCase()}: </span>
      <span className="text-text">{basis.purpose}</span>
    </p>
  );
}

/** The basis a search sent (`{kind, …facts, purpose}`) as stored and answered, or null if it is none. */
export function statedBasisOf(sent: Record<string, unknown> | undefined): LegalBasis | null {
  if (!sent) return null;
  const parsed = legalBasisInput.safeParse(sent);
  return parsed.success ? parsed.data : null;
}
