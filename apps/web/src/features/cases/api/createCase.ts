import type { CaseSummary, LegalBasisInput } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { useCaseMutation } from './listCases.ts';

export interface NewCase {
  title: string;
  reference?: string;
  /** Flat, as typed: `{kind, …its facts, purpose}` (`legalBasisInput`). */
  legal_basis?: LegalBasisInput | null;
}

/** POST /api/cases. */
export const useCreateCase = () =>
  useCaseMutation((input: NewCase) => request<CaseSummary>('/api/cases', { method: 'POST', body: input }));
