import type { SecurityOverview } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * The Security page's calls (beyond the spec). Passkeys go through @simplewebauthn/browser, which
 * speaks to navigator.credentials. The second step of a sign-in lives in features/auth/api.
 */

const securityKey = ['security'] as const;

/** GET /api/security: the second factors, passkeys and recovery codes of the user. */
export function useSecurity() {
  return useQuery({ queryKey: securityKey, queryFn: () => api.get<SecurityOverview>('/api/security') });
}

/** A mutation that refreshes the Security page (and the user, whose set-up flag may change) after it. */
export function useSecurityMutation<T, V>(mutationFn: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => client.invalidateQueries({ queryKey: securityKey }),
  });
}
