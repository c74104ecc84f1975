import type { BulkJob } from '@footprint/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** The /api/bulk calls of the /bulk page. */

export const bulkKey = ['bulk'] as const;
export const bulkListKey = [...bulkKey, 'list'] as const;
export const bulkJobUrl = (id: string) => `/api/bulk/${encodeURIComponent(id)}`;

/** GET /api/bulk: the user's jobs, newest first. */
export const useBulkJobs = () =>
  useQuery({
    queryKey: bulkListKey,
    queryFn: ({ signal }) => api.get<{ data: BulkJob[] }>('/api/bulk', { signal }).then((r) => r.data),
  });

/** Puts a newer state of one job into the list (from its event stream or an action's answer). */
export function useUpdateJobInList() {
  const queryClient = useQueryClient();
  return (job: BulkJob) =>
    queryClient.setQueryData<BulkJob[]>(bulkListKey, (jobs) => jobs?.map((j) => (j.id === job.id ? job : j)));
}
