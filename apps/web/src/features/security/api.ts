import type {
  PasskeySummary,
  RecoveryCodesResponse,
  SecondFactorRequest,
  SecondFactorRequiredResponse,
  SecurityOverview,
  TokenResponse,
  TotpSetupResponse,
} from '@footprint/domain';
import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, request } from '../../lib/api.ts';

/**
 * Second factors (beyond the spec): the second step of a sign-in, and the Security page's calls.
 * Passkeys go through @simplewebauthn/browser, which speaks to navigator.credentials.
 */

/** The second-factor challenge inside a login failure (403 second_factor_required), if that is what it is. */
export function secondFactorChallenge(error: unknown): SecondFactorRequiredResponse | null {
  if (!isApiError(error) || error.status !== 403) return null;
  const body = error.body as Partial<SecondFactorRequiredResponse>;
  if (body.second_factor_required !== true || typeof body.second_factor_token !== 'string') return null;
  return {
    second_factor_required: true,
    methods: Array.isArray(body.methods) ? body.methods : [],
    email: typeof body.email === 'string' ? body.email : '',
    second_factor_token: body.second_factor_token,
    expires_at: typeof body.expires_at === 'string' ? body.expires_at : '',
    message: typeof body.message === 'string' ? body.message : '',
  };
}

export const finishSignIn = (body: SecondFactorRequest) =>
  api.post<TokenResponse>('/api/login/second-factor', body);

/** Asks the server for a challenge, lets the browser's passkey answer it, and finishes the sign-in. */
export async function finishSignInWithPasskey(token: string): Promise<TokenResponse> {
  const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>(
    '/api/login/second-factor/passkey-options',
    { token },
  );
  const passkey = await startAuthentication({ optionsJSON });
  return finishSignIn({ token, passkey: passkey as unknown as SecondFactorRequest['passkey'] });
}

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
