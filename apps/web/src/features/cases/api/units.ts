import type { CaseUnitShare } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { caseUrl, useCaseMutation } from './listCases.ts';

/** POST /api/cases/{id}/units { unit_id }: shares the case with a unit (and the units below it). */
export const useShareCase = (id: string) =>
  useCaseMutation(
    (unitId: string) =>
      request<CaseUnitShare>(`${caseUrl(id)}/units`, { method: 'POST', body: { unit_id: unitId } }),
    id,
  );

/** DELETE /api/cases/{id}/units/{unitId}: stops sharing it with that unit. */
export const useStopSharing = (id: string) =>
  useCaseMutation(
    (unitId: string) =>
      request<void>(`${caseUrl(id)}/units/${encodeURIComponent(unitId)}`, { method: 'DELETE' }),
    id,
  );
