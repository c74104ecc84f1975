import type { ApprovalsList, SearchApproval } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * Approval of sensitive searches: the caller's queue (GET /api/approvals?status=open|done, requests of
 * the people they supervise), their own requests (GET /api/approvals/mine) and a decision
 * (POST /api/approvals/{id}: approve, or reject with a reason).
 */

export type ApprovalList = 'open' | 'done' | 'mine';

export const approvalsKey = ['approvals'] as const;

export function listApprovals(list: ApprovalList, signal?: AbortSignal): Promise<ApprovalsList> {
  return list === 'mine'
    ? api.get<ApprovalsList>('/api/approvals/mine', { signal })
    : api.get<ApprovalsList>('/api/approvals', { query: { status: list }, signal });
}

export function useApprovals(list: ApprovalList, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...approvalsKey, list],
    queryFn: ({ signal }) => listApprovals(list, signal),
    enabled: options.enabled ?? true,
  });
}

export interface DecisionInput {
  id: string;
  decision: 'approve' | 'reject';
  note?: string;
}

/**
 * Approves (the search runs as the requester's, charged to them) or rejects a request; every list is
 * read again from the server afterwards (nothing is guessed).
 */
export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, note }: DecisionInput) =>
      api.post<SearchApproval>(`/api/approvals/${encodeURIComponent(id)}`, {
        decision,
        ...(note ? { note } : {}),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalsKey }),
  });
}
