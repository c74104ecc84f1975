import type { CaseMember } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { caseUrl, useCaseMutation } from './listCases.ts';

/** POST /api/cases/{id}/members: adds a member by e-mail. */
export const useAddMember = (id: string) =>
  useCaseMutation(
    (email: string) =>
      request<{ data: CaseMember[] }>(`${caseUrl(id)}/members`, { method: 'POST', body: { email } }),
    id,
  );

/** DELETE /api/cases/{id}/members/{userId}: removes a member (or the user leaves). */
export const useRemoveMember = (id: string) =>
  useCaseMutation(
    (userId: string) =>
      request<{ data: CaseMember[] }>(`${caseUrl(id)}/members/${encodeURIComponent(userId)}`, {
        method: 'DELETE',
      }),
    id,
  );
