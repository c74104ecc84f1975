import type { RegistrationStatus } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * GET /api/registration-status: public, so a 401 cannot mean that a session died; it is not the 401
 * rule's business (on /login that rule would send the page back to /login).
 */
export function getRegistrationStatus(signal?: AbortSignal): Promise<RegistrationStatus> {
  return api.get<RegistrationStatus>('/api/registration-status', { signal, handleUnauthorized: false });
}

export const registrationStatusQueryKey = ['auth', 'registration-status'] as const;

/**
 * Checked on every visit of /register and /login (the Sign Up link): an operator may switch
 * registration off at any time.
 */
export function useRegistrationStatus() {
  return useQuery({
    queryKey: registrationStatusQueryKey,
    queryFn: ({ signal }) => getRegistrationStatus(signal),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
