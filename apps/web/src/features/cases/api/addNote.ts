import type { CaseNote } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { caseUrl, useCaseMutation } from './listCases.ts';

/** POST /api/cases/{id}/notes. */
export const useAddNote = (id: string) =>
  useCaseMutation(
    (body: string) => request<CaseNote>(`${caseUrl(id)}/notes`, { method: 'POST', body: { body } }),
    id,
  );
