import type { AdminCreateUserRequest, AdminCreateUserResponse } from '@footprint/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { adminUsersKey } from './listUsers.ts';

/** POST /api/admin/users → 201 { user, temporary_password? } (the password only when none was given). */
export function createUser(input: AdminCreateUserRequest): Promise<AdminCreateUserResponse> {
  return api.post<AdminCreateUserResponse>('/api/admin/users', input);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }),
  });
}
