import type { Unit, UnitMember, UnitMembersResponse, UnitRole, UnitsResponse } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api.ts';
import { unitsKey } from '../../../lib/units.ts';
import { getSettings } from './settings.ts';

/** The /api/units calls of /admin/units; every change refreshes the tree (and the members shown). */

const unitUrl = (id: string) => `/api/units/${encodeURIComponent(id)}`;
export const unitMembersKey = (id: string) => [...unitsKey, 'members', id] as const;

/** GET /api/units/{id}/members → { unit, members, manages }. */
export function useUnitMembers(id: string | undefined) {
  return useQuery({
    queryKey: unitMembersKey(id ?? ''),
    queryFn: ({ signal }) => api.get<UnitMembersResponse>(`${unitUrl(id ?? '')}/members`, { signal }),
    enabled: id !== undefined,
    retry: false,
  });
}

/** A change to the tree or to a unit's members: the tree, the member counts and the lists load again. */
function useUnitsMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: unitsKey }),
  });
}

/** POST /api/units { name, parent_id } → the new unit. */
export const useCreateUnit = () =>
  useUnitsMutation((body: { name: string; parent_id: string | null }) => api.post<Unit>('/api/units', body));

/** PATCH /api/units/{id} { name?, parent_id?, retention_days? }: rename, move or set the retention period. */
export const useUpdateUnit = () =>
  useUnitsMutation(
    ({
      id,
      ...body
    }: {
      id: string;
      name?: string;
      parent_id?: string | null;
      retention_days?: number | null;
    }) => request<Unit>(unitUrl(id), { method: 'PATCH', body }),
  );

/**
 * The deployment's retention period (GET /api/admin/settings `lookup_retention_days`): the ceiling of
 * every unit's. Read only by an admin (who alone sets a unit's period); the same cache entry as the
 * Settings page's, so a change there shows here.
 */
export function useRetentionCeiling(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'settings'],
    queryFn: ({ signal }) => getSettings(signal),
    enabled,
    select: (settings) => settings.lookup_retention_days,
  });
}

/** DELETE /api/units/{id}: an empty unit, not the default one. */
export const useDeleteUnit = () =>
  useUnitsMutation((id: string) => request<void>(unitUrl(id), { method: 'DELETE' }));

/** PUT /api/units/levels { levels } → the whole answer of GET /api/units. */
export function useSaveLevels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (levels: string[]) =>
      request<UnitsResponse>('/api/units/levels', { method: 'PUT', body: { levels } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(unitsKey, answer);
      void queryClient.invalidateQueries({ queryKey: unitsKey });
    },
  });
}

/** POST /api/units/{id}/members { email, role }: adds a member, or changes the role of one. */
export const useAddUnitMember = (unitId: string) =>
  useUnitsMutation((body: { email: string; role: UnitRole }) =>
    api.post<UnitMember>(`${unitUrl(unitId)}/members`, body),
  );

/** PATCH /api/units/{id}/members/{userId} { role }. */
export const useChangeUnitMember = (unitId: string) =>
  useUnitsMutation(({ userId, role }: { userId: string; role: UnitRole }) =>
    request<UnitMember>(`${unitUrl(unitId)}/members/${encodeURIComponent(userId)}`, {
      method: 'PATCH',
      body: { role },
    }),
  );

/** DELETE /api/units/{id}/members/{userId}. */
export const useRemoveUnitMember = (unitId: string) =>
  useUnitsMutation((userId: string) =>
    request<void>(`${unitUrl(unitId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
  );
