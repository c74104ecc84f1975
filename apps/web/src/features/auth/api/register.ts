import type { RegisterRequest, User } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface RegisterResponse {
  message: string;
  user: User;
  /** True while the registration mode is approval: the account cannot sign in until approved. */
  approval_required?: boolean;
}

/**
 * POST /api/register: 201 on success (pending approval when `approval_required`), 422 with field
 * errors, 403 when registration is closed.
 */
export function register(body: RegisterRequest): Promise<RegisterResponse> {
  return api.post<RegisterResponse>('/api/register', body);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
