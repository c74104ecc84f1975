import type { CaseSummary, LegalBasis } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { useCaseMutation } from './listCases.ts';

export interface NewCase {
  title: string;
  reference?: string;
  legal_basis?: LegalBasis | null;
}

/** POST /api/cases. */
export const useCreateCase = () =>
  useCaseMutation((input: NewCase) => request<CaseSummary>('/api/cases', { method: 'POST', body: input }));
