import type { AttributionsResponse } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /api/attributions: the notices of the works the product ships (public; they change only with a release). */
export const useAttributions = () =>
  useQuery({
    queryKey: ['attributions'],
    queryFn: () => api.get<AttributionsResponse>('/api/attributions'),
    staleTime: Number.POSITIVE_INFINITY,
  });
