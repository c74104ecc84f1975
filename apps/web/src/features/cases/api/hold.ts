import type { CaseSummary } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { caseUrl, useCaseMutation } from './listCases.ts';

/** PUT /api/cases/{id}/hold { reason }: places (or renews) the legal hold on the case's results. */
export const usePlaceHold = (id: string) =>
  useCaseMutation(
    (reason: string) => request<CaseSummary>(`${caseUrl(id)}/hold`, { method: 'PUT', body: { reason } }),
    id,
  );

/** DELETE /api/cases/{id}/hold: releases it (404 when the case is not held). */
export const useReleaseHold = (id: string) =>
  useCaseMutation(() => request<CaseSummary>(`${caseUrl(id)}/hold`, { method: 'DELETE' }), id);
