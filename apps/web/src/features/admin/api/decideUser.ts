import type { AdminDecisionResponse } from '@footprint/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { adminUserKey } from './getUser.ts';
import { adminUsersKey } from './listUsers.ts';

export type Decision = { kind: 'approve' } | { kind: 'reject'; reason?: string };

/**
 * POST /api/admin/users/{id}/approve → { user, notified }, or /reject { reason? }: the decision on a
 * self-registered account; the server e-mails the user and writes the audit row. 409 when the account
 * is no longer waiting (another admin decided first).
 */
export function decideUser(id: string, decision: Decision): Promise<AdminDecisionResponse> {
  const path = `/api/admin/users/${encodeURIComponent(id)}/${decision.kind}`;
  return api.post<AdminDecisionResponse>(
    path,
    decision.kind === 'reject' && decision.reason ? { reason: decision.reason } : {},
  );
}

export function useDecideUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: Decision }) => decideUser(id, decision),
    onSuccess: (answer) => {
      queryClient.setQueryData(adminUserKey(answer.user.id), answer.user);
      void queryClient.invalidateQueries({ queryKey: [...adminUsersKey, 'list'] });
    },
  });
}
