import type {
  CaseDetail,
  CaseItem,
  CaseMember,
  CaseNote,
  CaseStatus,
  CaseSummary,
  LegalBasis,
} from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api.ts';

/** The /api/cases calls of the cases pages; every change refreshes the case and the list. */

const casesKey = ['cases'] as const;
const caseKey = (id: string) => ['cases', 'one', id] as const;

export function useCases(status?: CaseStatus) {
  return useQuery({
    queryKey: [...casesKey, 'list', status ?? 'all'],
    queryFn: ({ signal }) =>
      api.get<{ data: CaseSummary[] }>('/api/cases', { query: { status }, signal }).then((r) => r.data),
  });
}

export function useCase(id: string) {
  return useQuery({
    queryKey: caseKey(id),
    queryFn: ({ signal }) => api.get<CaseDetail>(`/api/cases/${encodeURIComponent(id)}`, { signal }),
    retry: false,
  });
}

function useCaseMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>, id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: id ? caseKey(id) : casesKey });
      void queryClient.invalidateQueries({ queryKey: [...casesKey, 'list'] });
    },
  });
}

export interface NewCase {
  title: string;
  reference?: string;
  legal_basis?: LegalBasis | null;
}

export const useCreateCase = () =>
  useCaseMutation((input: NewCase) => request<CaseSummary>('/api/cases', { method: 'POST', body: input }));

const base = (id: string) => `/api/cases/${encodeURIComponent(id)}`;

export const useUpdateCase = (id: string) =>
  useCaseMutation(
    (patch: { title?: string; status?: CaseStatus; legal_basis?: LegalBasis | null }) =>
      request<CaseSummary>(base(id), { method: 'PATCH', body: patch }),
    id,
  );

export const useAddNote = (id: string) =>
  useCaseMutation(
    (body: string) => request<CaseNote>(`${base(id)}/notes`, { method: 'POST', body: { body } }),
    id,
  );

export const useAddMember = (id: string) =>
  useCaseMutation(
    (email: string) =>
      request<{ data: CaseMember[] }>(`${base(id)}/members`, { method: 'POST', body: { email } }),
    id,
  );

export const useRemoveMember = (id: string) =>
  useCaseMutation(
    (userId: string) =>
      request<{ data: CaseMember[] }>(`${base(id)}/members/${encodeURIComponent(userId)}`, {
        method: 'DELETE',
      }),
    id,
  );

export const useAddItem = (id: string) =>
  useCaseMutation(
    (lookupId: string) =>
      request<{ data: CaseItem[] }>(`${base(id)}/items`, { method: 'POST', body: { lookup_id: lookupId } }),
    id,
  );
