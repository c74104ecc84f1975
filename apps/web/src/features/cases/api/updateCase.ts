import type { CaseStatus, CaseSummary, LegalBasisInput } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { caseUrl, useCaseMutation } from './listCases.ts';

/** PATCH /api/cases/{id}: its title, status (close, reopen) or legal basis. */
export const useUpdateCase = (id: string) =>
  useCaseMutation(
    (patch: { title?: string; status?: CaseStatus; legal_basis?: LegalBasisInput | null }) =>
      request<CaseSummary>(caseUrl(id), { method: 'PATCH', body: patch }),
    id,
  );
