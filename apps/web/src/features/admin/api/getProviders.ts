import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** One source's health since the server started (apps/server providers/runner.ts `stats()`). */
export interface ProviderHealth {
  id: string;
  source: string;
  kinds: readonly string[];
  sandbox: boolean;
  calls: number;
  failures: number;
  timeouts: number;
  notFound: number;
  rejectedOpen: number;
  latency: { p50: number | null; p95: number | null; p99?: number | null };
  breaker: 'closed' | 'open' | 'half-open' | 'isolated' | string;
}

/** GET /api/admin/providers → { providers }. */
export async function getProviders(signal?: AbortSignal): Promise<ProviderHealth[]> {
  const answer = await api.get<{ providers: ProviderHealth[] }>('/api/admin/providers', { signal });
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
