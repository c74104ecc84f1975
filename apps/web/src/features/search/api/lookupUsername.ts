import type { UsernameLookupResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface UsernameLookupInput {
  /** The name as typed: trimmed and its leading '@' dropped here. */
  username: string;
  /** Trimmed; left out of the query when absent. */
  caseReference?: string;
  /** The legal basis the search states itself, as JSON text; left out of the query when absent. */
  legalBasis?: string | undefined;
}

/** The name as the server takes it: trimmed, a leading '@' dropped, its case kept. */
export const usernameOf = (typed: string): string => typed.trim().replace(/^@/, '');

/**
 * GET /api/username?username=[&case_reference=][&legal_basis=]: the site check of the name, flat like
 * the phone answer. Paid (a name found nowhere is refunded), so a mutation: one click, one charge. The
 * sites are asked politely, one request at a time each, so the answer can take up to a minute.
 */
export function lookupUsername({
  username,
  caseReference,
  legalBasis,
}: UsernameLookupInput): Promise<UsernameLookupResponse> {
  return api.get<UsernameLookupResponse>('/api/username', {
    query: { username: usernameOf(username), case_reference: caseReference, legal_basis: legalBasis },
  });
}

export function useLookupUsername() {
  return useMutation({ mutationFn: lookupUsername });
}
