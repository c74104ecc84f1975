import type { AdminUpdateUserRequest, AdminUser } from '@footprint/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import { adminUserKey } from './getUser.ts';
import { adminUsersKey } from './listUsers.ts';

/**
 * PATCH /api/admin/users/{id} { name?, role?, app_mode?, status?, revoke_sessions? } → { user }.
 * Disabling ends the user's sessions too; demoting or disabling the last active admin answers 422.
 */
export async function updateUser(id: string, patch: AdminUpdateUserRequest): Promise<AdminUser> {
  const answer = await request<{ user: AdminUser }>(`/api/admin/users/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: patch,
  });
  return answer.user;
}

export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: AdminUpdateUserRequest) => updateUser(id, patch),
    onSuccess: (user) => {
      queryClient.setQueryData(adminUserKey(id), user);
      void queryClient.invalidateQueries({ queryKey: [...adminUsersKey, 'list'] });
    },
  });
}
