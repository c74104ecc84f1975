import type { ApiKeySummary } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { useApiKeysMutation } from './listApiKeys.ts';

/** DELETE /api/api-keys/{id}: the key stops working at once. */
export const useRevokeApiKey = () =>
  useApiKeysMutation((id: string) =>
    request<ApiKeySummary>(`/api/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
