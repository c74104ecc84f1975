import type { WatchEvent } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { watchUrl } from './listWatches.ts';

/** GET /api/watches/{id}/events: what changed at each run, newest first. */
export function useWatchEvents(id: string | null) {
  return useQuery({
    queryKey: ['watches', 'events', id ?? ''],
    queryFn: ({ signal }) =>
      api.get<{ data: WatchEvent[] }>(`${watchUrl(id ?? '')}/events`, { signal }).then((r) => r.data),
    enabled: id !== null,
  });
}
