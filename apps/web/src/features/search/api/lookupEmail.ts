import type { EmailLookupResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /api/email?email= (spec §7): `{ data, credits }`. Paid, so a mutation (one click, one charge). */
export function lookupEmail(email: string): Promise<EmailLookupResponse> {
  return api.get<EmailLookupResponse>('/api/email', { query: { email: email.trim() } });
}

export function useLookupEmail() {
  return useMutation({ mutationFn: lookupEmail });
}
