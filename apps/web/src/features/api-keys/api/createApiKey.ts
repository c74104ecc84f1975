import type { ApiKeyCreated, ApiKeyCreateRequest } from '@footprint/domain';
import { api } from '../../../lib/api.ts';
import { useApiKeysMutation } from './listApiKeys.ts';

/** POST /api/api-keys: a new key, whose secret this answer alone shows. */
export const useCreateApiKey = () =>
  useApiKeysMutation((body: ApiKeyCreateRequest) => api.post<ApiKeyCreated>('/api/api-keys', body));
