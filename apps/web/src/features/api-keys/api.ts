import type { ApiKeyCreated, ApiKeyCreateRequest, ApiKeyList, ApiKeySummary } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api.ts';

/** The API keys page's calls (beyond the spec; docs/api.md). */

const apiKeysKey = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKey, queryFn: () => api.get<ApiKeyList>('/api/api-keys') });
}

/** A mutation that refreshes the list after it. */
function useApiKeysMutation<T, V>(mutationFn: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => client.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

export const useCreateApiKey = () =>
  useApiKeysMutation((body: ApiKeyCreateRequest) => api.post<ApiKeyCreated>('/api/api-keys', body));

export const useRevokeApiKey = () =>
  useApiKeysMutation((id: string) =>
    request<ApiKeySummary>(`/api/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
