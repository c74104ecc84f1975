import type { AdminCreditsRequest, AdminCreditsResponse } from '@footprint/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { adminUserKey } from './getUser.ts';
import { adminUsersKey } from './listUsers.ts';

/**
 * POST /api/admin/users/{id}/credits { amount, reason } → { user, entry }: a grant (amount > 0) or a
 * deduction (amount < 0) through the ledger. A deduction below zero answers 422 and changes nothing.
 */
export function changeCredits(id: string, input: AdminCreditsRequest): Promise<AdminCreditsResponse> {
  return api.post<AdminCreditsResponse>(`/api/admin/users/${encodeURIComponent(id)}/credits`, input);
}

export function useChangeCredits(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AdminCreditsRequest) => changeCredits(id, input),
    onSuccess: (answer) => {
      queryClient.setQueryData(adminUserKey(id), answer.user);
      void queryClient.invalidateQueries({ queryKey: [...adminUsersKey, 'list'] });
    },
  });
}
