import type { RecoveryCodesResponse } from '@footprint/domain';
import { api } from '../../../lib/api.ts';
import { useSecurityMutation } from './getSecurity.ts';

/** POST /api/security/recovery-codes, with the password: a new set, the old one void. */
export const useRegenerateRecoveryCodes = () =>
  useSecurityMutation((password: string) =>
    api.post<RecoveryCodesResponse>('/api/security/recovery-codes', { password }),
  );
