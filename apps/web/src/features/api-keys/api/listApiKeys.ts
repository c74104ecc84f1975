import type { ApiKeyList } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** The API keys page's calls (beyond the spec; docs/api.md). */

const apiKeysKey = ['api-keys'] as const;

/** GET /api/api-keys: the user's keys and what each may do. */
export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKey, queryFn: () => api.get<ApiKeyList>('/api/api-keys') });
}

/** A mutation that refreshes the list after it. */
export function useApiKeysMutation<T, V>(mutationFn: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => client.invalidateQueries({ queryKey: apiKeysKey }),
  });
}
