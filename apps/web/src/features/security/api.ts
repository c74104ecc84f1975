import type {
  PasskeySummary,
  RecoveryCodesResponse,
  SecurityOverview,
  TotpSetupResponse,
} from '@footprint/domain';
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api.ts';

/**
 * The Security page's calls (beyond the spec). Passkeys go through @simplewebauthn/browser, which
 * speaks to navigator.credentials. The second step of a sign-in lives in features/auth/api.
 */

const securityKey = ['security'] as const;

export function useSecurity() {
  return useQuery({ queryKey: securityKey, queryFn: () => api.get<SecurityOverview>('/api/security') });
}

/** A mutation that refreshes the Security page (and the user, whose set-up flag may change) after it. */
function useSecurityMutation<T, V>(mutationFn: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => client.invalidateQueries({ queryKey: securityKey }),
  });
}

export const useStartTotp = () =>
  useSecurityMutation(() => api.post<TotpSetupResponse>('/api/security/totp/setup'));
export const useConfirmTotp = () =>
  useSecurityMutation((code: string) =>
    api.post<RecoveryCodesResponse>('/api/security/totp/confirm', { code }),
  );
export const useRemoveTotp = () =>
  useSecurityMutation((password: string) =>
    api.post<{ message: string }>('/api/security/totp/remove', { password }),
  );
export const useRegenerateRecoveryCodes = () =>
  useSecurityMutation((password: string) =>
    api.post<RecoveryCodesResponse>('/api/security/recovery-codes', { password }),
  );

export const useAddPasskey = () =>
  useSecurityMutation(async (name: string) => {
    const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>(
      '/api/security/passkeys/options',
    );
    const response = await startRegistration({ optionsJSON });
    return api.post<{ message: string; passkey: PasskeySummary; recovery_codes: string[] }>(
      '/api/security/passkeys',
      { name, response },
    );
  });
export const useRenamePasskey = () =>
  useSecurityMutation(({ id, name }: { id: string; name: string }) =>
    request<PasskeySummary>(`/api/security/passkeys/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body: { name },
    }),
  );
export const useRemovePasskey = () =>
  useSecurityMutation(({ id, password }: { id: string; password: string }) =>
    api.post<{ message: string }>(`/api/security/passkeys/${encodeURIComponent(id)}/remove`, { password }),
  );
export const useSignOutEverywhere = () =>
  useMutation({ mutationFn: () => api.post<{ message: string }>('/api/security/sign-out-everywhere') });
