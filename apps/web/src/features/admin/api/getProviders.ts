import type { ProviderHealth, ProvidersResponse } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export type { ProviderHealth };

/** GET /api/admin/providers → every source: its provider's health, mode, vendor and spend. */
export async function getProviders(signal?: AbortSignal): Promise<ProviderHealth[]> {
  const answer = await api.get<ProvidersResponse>('/api/admin/providers', { signal });
  return answer.providers ?? [];
}

/** Refreshed every 15 s while the screen is open. */
export function useProviders() {
  return useQuery({
    queryKey: ['admin', 'providers'],
    queryFn: ({ signal }) => getProviders(signal),
    refetchInterval: 15_000,
  });
}
