import type { Watch } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** The /api/watches calls of the watchlist page; every change refreshes the list. */

export const watchesKey = ['watches'] as const;
export const watchUrl = (id: string) => `/api/watches/${encodeURIComponent(id)}`;

/** GET /api/watches: the user's watched searches. */
export function useWatches() {
  return useQuery({
    queryKey: [...watchesKey, 'list'],
    queryFn: ({ signal }) => api.get<{ data: Watch[] }>('/api/watches', { signal }).then((r) => r.data),
  });
}

/** A change to the watches: refreshes the list (and the events) after it. */
export function useWatchMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: watchesKey }),
  });
}
