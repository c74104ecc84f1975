import type { RecoveryCodesResponse, TotpSetupResponse } from '@footprint/domain';
import { api } from '../../../lib/api.ts';
import { useSecurityMutation } from './getSecurity.ts';

/** POST /api/security/totp/setup: a new secret and its QR code, not yet in force. */
export const useStartTotp = () =>
  useSecurityMutation(() => api.post<TotpSetupResponse>('/api/security/totp/setup'));

/** POST /api/security/totp/confirm: a code from the app puts the secret in force; answers recovery codes. */
export const useConfirmTotp = () =>
  useSecurityMutation((code: string) =>
    api.post<RecoveryCodesResponse>('/api/security/totp/confirm', { code }),
  );

/** POST /api/security/totp/remove, with the password. */
export const useRemoveTotp = () =>
  useSecurityMutation((password: string) =>
    api.post<{ message: string }>('/api/security/totp/remove', { password }),
  );
