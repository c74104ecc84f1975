import type { CaseStatus, CaseSummary } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** The /api/cases calls of the cases pages; every change refreshes the case and the list. */

export const casesKey = ['cases'] as const;
export const caseKey = (id: string) => ['cases', 'one', id] as const;
export const caseUrl = (id: string) => `/api/cases/${encodeURIComponent(id)}`;

/** GET /api/cases?status=…: the cases the user owns or is a member of. */
export function useCases(status?: CaseStatus) {
  return useQuery({
    queryKey: [...casesKey, 'list', status ?? 'all'],
    queryFn: ({ signal }) =>
      api.get<{ data: CaseSummary[] }>('/api/cases', { query: { status }, signal }).then((r) => r.data),
  });
}

/** A change to one case (or, without `id`, to the cases): refreshes it and the list after it. */
export function useCaseMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>, id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: id ? caseKey(id) : casesKey });
      void queryClient.invalidateQueries({ queryKey: [...casesKey, 'list'] });
    },
  });
}
