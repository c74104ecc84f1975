import type { CaseSummary } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

/**
 * The signed-in user's open cases (GET /api/cases?status=open), for the case picker of every search
 * form. The key is the cases pages' own, so a case opened or closed there refreshes the picker too.
 */
export function useOpenCases(enabled = true) {
  return useQuery({
    queryKey: ['cases', 'list', 'open'],
    queryFn: ({ signal }) =>
      api
        .get<{ data: CaseSummary[] }>('/api/cases', { query: { status: 'open' }, signal })
        .then((r) => r.data),
    enabled,
    staleTime: 30_000,
  });
}
