import type { EmailLookupResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface EmailLookupInput {
  email: string;
  /** Trimmed; left out of the query when absent. */
  caseReference?: string;
  /** The legal basis the search states itself, as JSON text; left out of the query when absent. */
  legalBasis?: string | undefined;
}

/**
 * GET /api/email?email=[&case_reference=][&legal_basis=] (spec §7, plus the optional case reference): `{ data, credits }`.
 * Paid, so a mutation (one click, one charge).
 */
export function lookupEmail({
  email,
  caseReference,
  legalBasis,
}: EmailLookupInput): Promise<EmailLookupResponse> {
  return api.get<EmailLookupResponse>('/api/email', {
    query: { email: email.trim(), case_reference: caseReference, legal_basis: legalBasis },
  });
}

export function useLookupEmail() {
  return useMutation({ mutationFn: lookupEmail });
}
