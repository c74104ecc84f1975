import type { LeakSourceSummary } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /api/admin/leak-sources → { data: [{ id, name, breach_date, description, record_count, ... }] }. */
export async function listLeakSources(signal?: AbortSignal): Promise<LeakSourceSummary[]> {
  const answer = await api.get<{ data: LeakSourceSummary[] }>('/api/admin/leak-sources', { signal });
  return answer.data ?? [];
}

export function useLeakSources() {
  return useQuery({
    queryKey: ['admin', 'leak-sources'],
    queryFn: ({ signal }) => listLeakSources(signal),
  });
}
