import type { PhoneLookupResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface PhoneLookupInput {
  /** Dial code without '+', e.g. '91'. */
  dialCode: string;
  /** The 10 digits as typed (trimmed here). */
  digits: string;
  /** Trimmed; left out of the query when absent. */
  caseReference?: string;
  /** The legal basis the search states itself, as JSON text; left out of the query when absent. */
  legalBasis?: string | undefined;
}

/**
 * GET /api/tel?number={dial code}{digits}[&case_reference=][&legal_basis=] (spec §7, plus the optional case
 * reference). A paid call: it is a mutation, never cached or retried by the query layer, so one click
 * is one charge.
 */
export function lookupPhone({
  dialCode,
  digits,
  caseReference,
  legalBasis,
}: PhoneLookupInput): Promise<PhoneLookupResponse> {
  return api.get<PhoneLookupResponse>('/api/tel', {
    query: { number: `${dialCode}${digits.trim()}`, case_reference: caseReference, legal_basis: legalBasis },
  });
}

export function useLookupPhone() {
  return useMutation({ mutationFn: lookupPhone });
}
