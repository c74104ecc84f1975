import type { RegisterRequest, User } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface RegisterResponse {
  message: string;
  user: User;
}

/** POST /api/register: 201 on success, 422 with field errors, 403 when registration is disabled. */
export function register(body: RegisterRequest): Promise<RegisterResponse> {
  return api.post<RegisterResponse>('/api/register', body);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
