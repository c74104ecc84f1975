import type { PasskeySummary } from '@footprint/domain';
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { api, request } from '../../../lib/api.ts';
import { useSecurityMutation } from './getSecurity.ts';

/** POST /api/security/passkeys/options, the browser's prompt, then POST /api/security/passkeys. */
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

/** PATCH /api/security/passkeys/{id}: its name. */
export const useRenamePasskey = () =>
  useSecurityMutation(({ id, name }: { id: string; name: string }) =>
    request<PasskeySummary>(`/api/security/passkeys/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body: { name },
    }),
  );

/** POST /api/security/passkeys/{id}/remove, with the password. */
export const useRemovePasskey = () =>
  useSecurityMutation(({ id, password }: { id: string; password: string }) =>
    api.post<{ message: string }>(`/api/security/passkeys/${encodeURIComponent(id)}/remove`, { password }),
  );
