import { z } from 'zod';
import { accountabilityMessages, noControl } from './accountability.ts';
import { type LegalBasis, legalBasisInput, legalBasisMessages } from './cases/legal-basis.ts';
import { fieldMessages, messages } from './messages.ts';

/** The case reference every search carries (not in the spec; added for accountability). */

export const CASE_REFERENCE_MAX_LENGTH = 100;

/**
 * The optional case reference of any search: trimmed, at most 100 characters; empty means none.
 * Parsed value: the reference or null.
 */
export const caseReferenceField = z
  .string({ error: fieldMessages.string('case reference') })
  .trim()
  .max(CASE_REFERENCE_MAX_LENGTH, messages.caseReference.tooLong)
  .regex(noControl, accountabilityMessages.caseReferenceControl)
  .nullish()
  .transform((value) => (value ? value : null));

/**
 * The legal basis a search states for itself (`legal_basis`), from the same kinds and with the same
 * checked facts as a case's: what allows a search made outside a case, or under a case that has no
 * basis yet. With the deployment's `legal_basis_required` on, every search needs one of the two.
 * Parsed value: the basis or null.
 */
export const searchLegalBasisField = legalBasisInput
  .nullish()
  .transform((value): LegalBasis | null => value ?? null);

/** The longest `legal_basis` a GET search takes as JSON text (every kind's facts fit well within it). */
export const SEARCH_LEGAL_BASIS_JSON_MAX_LENGTH = 4000;

/**
 * `legal_basis` on the GET searches (/api/tel, /api/email): the same object as JSON text, since a query
 * string is flat. Text that is not JSON is a 422 with an example; the object is checked as above.
 */
export const searchLegalBasisQueryField = z
  .string({ error: legalBasisMessages.json })
  .max(SEARCH_LEGAL_BASIS_JSON_MAX_LENGTH, legalBasisMessages.json)
  .transform((text, ctx) => {
    if (!text.trim()) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: legalBasisMessages.json });
      return z.NEVER;
    }
  })
  .pipe(searchLegalBasisField)
  .optional()
  .transform((value): LegalBasis | null => value ?? null);

export interface CaseReferencePolicyResponse {
  required: boolean;
  /**
   * Whether every search needs a legal basis (the deployment's `legal_basis_required`): that of its
   * case, or one the search states itself (`legal_basis`).
   */
  legal_basis_required?: boolean;
}
