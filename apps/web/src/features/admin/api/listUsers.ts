import type { AdminUser, Page, UserStatus } from '@footprint/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const USERS_PAGE_SIZE = 25;

export interface UsersParams {
  page: number;
  /** Name or e-mail text; empty for everyone. */
  q?: string;
  /** Only accounts with this status ('pending': waiting for approval); every status when left out. */
  status?: UserStatus | undefined;
}

/** GET /api/admin/users?q&status&page&per_page. */
export function listUsers({ page, q, status }: UsersParams, signal?: AbortSignal): Promise<Page<AdminUser>> {
  return api.get<Page<AdminUser>>('/api/admin/users', {
    query: { page, per_page: USERS_PAGE_SIZE, q: q || undefined, status },
    signal,
  });
}

export const adminUsersKey = ['admin', 'users'] as const;

export function useAdminUsers(params: UsersParams) {
  return useQuery({
    queryKey: [...adminUsersKey, 'list', params],
    queryFn: ({ signal }) => listUsers(params, signal),
    placeholderData: keepPreviousData,
  });
}
