import type { AdminUser } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { adminUsersKey } from './listUsers.ts';

/** GET /api/admin/users/{id} → { user }. */
export async function getAdminUser(id: string, signal?: AbortSignal): Promise<AdminUser> {
  const answer = await api.get<{ user: AdminUser }>(`/api/admin/users/${encodeURIComponent(id)}`, { signal });
  return answer.user;
}

export const adminUserKey = (id: string) => [...adminUsersKey, 'one', id] as const;

export function useAdminUser(id: string) {
  return useQuery({
    queryKey: adminUserKey(id),
    queryFn: ({ signal }) => getAdminUser(id, signal),
  });
}
