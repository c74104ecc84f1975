import type { SiteHealthResponse, SiteHealthRunResponse } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

const siteHealthKey = ['admin', 'site-health'] as const;

/** GET /api/admin/site-health → each catalogue site's self-check state, precision over 30 days, totals. */
export function getSiteHealth(signal?: AbortSignal): Promise<SiteHealthResponse> {
  return api.get<SiteHealthResponse>('/api/admin/site-health', { signal });
}

/** Read again every 30 s while the screen is open (every 5 s while a run goes on). */
export function useSiteHealth() {
  return useQuery({
    queryKey: siteHealthKey,
    queryFn: ({ signal }) => getSiteHealth(signal),
    refetchInterval: (query) => (query.state.data?.running ? 5_000 : 30_000),
  });
}

/** POST /api/admin/site-health/run → 202 { queued }: a self-check of every site, on the job queue. */
export function runSiteHealth(): Promise<SiteHealthRunResponse> {
  return api.post<SiteHealthRunResponse>('/api/admin/site-health/run', {});
}

export function useRunSiteHealth() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runSiteHealth,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: siteHealthKey }),
  });
}
