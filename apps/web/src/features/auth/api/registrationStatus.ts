import type { RegistrationStatus } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /api/registration-status. */
export function getRegistrationStatus(signal?: AbortSignal): Promise<RegistrationStatus> {
  return api.get<RegistrationStatus>('/api/registration-status', { signal });
}

export const registrationStatusQueryKey = ['auth', 'registration-status'] as const;

/** Checked on every visit of /register: an operator may switch registration off at any time. */
export function useRegistrationStatus() {
  return useQuery({
    queryKey: registrationStatusQueryKey,
    queryFn: ({ signal }) => getRegistrationStatus(signal),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
