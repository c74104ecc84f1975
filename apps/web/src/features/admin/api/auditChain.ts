import type { AuditChainState } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /api/admin/audit/chain: the hash chain's state; the server verifies a step further on each call. */
export function getAuditChain(signal?: AbortSignal): Promise<AuditChainState> {
  return api.get<AuditChainState>('/api/admin/audit/chain', { signal });
}

/** Asked again every 2 s while the server is still checking, every minute once it has an answer. */
export function useAuditChain() {
  return useQuery({
    queryKey: ['admin', 'audit', 'chain'],
    queryFn: ({ signal }) => getAuditChain(signal),
    refetchInterval: (query) => (query.state.data?.status === 'checking' ? 2_000 : 60_000),
  });
}
