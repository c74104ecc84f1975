import type { CaseDetail } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { caseKey, caseUrl } from './listCases.ts';

/** GET /api/cases/{id}: the case with its searches, entities, time line, notes and members. */
export function useCase(id: string) {
  return useQuery({
    queryKey: caseKey(id),
    queryFn: ({ signal }) => api.get<CaseDetail>(caseUrl(id), { signal }),
    retry: false,
  });
}
