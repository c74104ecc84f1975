import type { LeakFieldType, Watch, WatchEvent, WatchRun, WatchSchedule } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api.ts';

/** The /api/watches calls of the watchlist page and the Watch button; every change refreshes the list. */

export const watchesKey = ['watches'] as const;
const eventsKey = (id: string) => ['watches', 'events', id] as const;
const base = (id: string) => `/api/watches/${encodeURIComponent(id)}`;

export function useWatches() {
  return useQuery({
    queryKey: [...watchesKey, 'list'],
    queryFn: ({ signal }) => api.get<{ data: Watch[] }>('/api/watches', { signal }).then((r) => r.data),
  });
}

export function useWatchEvents(id: string | null) {
  return useQuery({
    queryKey: eventsKey(id ?? ''),
    queryFn: ({ signal }) =>
      api.get<{ data: WatchEvent[] }>(`${base(id ?? '')}/events`, { signal }).then((r) => r.data),
    enabled: id !== null,
  });
}

function useWatchMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: watchesKey }),
  });
}

/** What the Watch button sends: a phone number (dial code and digits), an e-mail, or leak rows. */
export type NewWatch =
  | { kind: 'tel' | 'email'; query: string; schedule: WatchSchedule; case_reference?: string }
  | {
      kind: 'leak';
      query: Array<{ type: LeakFieldType; value: string }>;
      schedule: WatchSchedule;
      case_reference?: string;
    };

export const useCreateWatch = () =>
  useWatchMutation((input: NewWatch) => request<Watch>('/api/watches', { method: 'POST', body: input }));

export const useUpdateWatch = () =>
  useWatchMutation(
    ({ id, ...patch }: { id: string; schedule?: WatchSchedule; status?: 'active' | 'paused' }) =>
      request<Watch>(base(id), { method: 'PATCH', body: patch }),
  );

export const useDeleteWatch = () =>
  useWatchMutation((id: string) => request<void>(base(id), { method: 'DELETE' }));

export const useRunWatch = () =>
  useWatchMutation((id: string) => request<WatchRun>(`${base(id)}/run`, { method: 'POST', body: {} }));
