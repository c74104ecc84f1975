import type { UnitMember, UnitPool } from '@footprint/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api.ts';
import { unitsKey } from '../../../lib/units.ts';

/** The credit pool of a unit on /admin/units (issue 34): its statement, top-ups and the allowances. */

export const POOL_PAGE_SIZE = 10;
const creditsUrl = (id: string) => `/api/units/${encodeURIComponent(id)}/credits`;
/** Under the units' key: a change to the tree or the members reads the pool again too. */
const poolKey = (id: string) => [...unitsKey, 'pool', id] as const;

/**
 * GET /api/units/{id}/credits?page&per_page&user → the balance, the members' allowances and one page of
 * the pool's ledger (one member's rows with `user`). A 404 for whoever may not read it: no retry.
 */
export function useUnitPool(id: string, page: number, user: string | undefined) {
  return useQuery({
    queryKey: [...poolKey(id), page, user ?? ''] as const,
    queryFn: ({ signal }) =>
      api.get<UnitPool>(creditsUrl(id), { query: { page, per_page: POOL_PAGE_SIZE, user }, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** A change to the pool or an allowance: the pool and the members' table load again. */
function usePoolMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: unitsKey }),
  });
}

/** POST /api/units/{id}/credits { amount, reason } (admins): a top-up (> 0) or a deduction (< 0). */
export const useChangePool = (unitId: string) =>
  usePoolMutation((body: { amount: number; reason: string }) => api.post<UnitPool>(creditsUrl(unitId), body));

/** PUT /api/units/{id}/members/{userId}/allowance { monthly_allowance } → the member. */
export const useSetAllowance = (unitId: string) =>
  usePoolMutation(({ userId, monthly_allowance }: { userId: string; monthly_allowance: number }) =>
    request<UnitMember>(
      `/api/units/${encodeURIComponent(unitId)}/members/${encodeURIComponent(userId)}/allowance`,
      { method: 'PUT', body: { monthly_allowance } },
    ),
  );
