import type { Unit, UnitsResponse, User } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

/**
 * GET /api/units (any signed-in user): the level names, the units the caller may see (parents before
 * children), the caller's own memberships and whether they may change the tree. Read by the units
 * screen, the navigation and its guard (may the user open /units?), the history page (is the user a
 * supervisor?) and a case's units section.
 */

export const unitsKey = ['units'] as const;

export function useUnits(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: unitsKey,
    queryFn: ({ signal }) => api.get<UnitsResponse>('/api/units', { signal }),
    staleTime: 30_000,
    enabled: options.enabled ?? true,
  });
}

/** Whether the user supervises a unit (and so may read the searches of its members). */
export const supervisesAUnit = (units: UnitsResponse | undefined): boolean =>
  units?.memberships.some((membership) => membership.role === 'supervisor') ?? false;

/**
 * Whether the units screen (/units) is for this user: an admin, or whoever supervises or administers a
 * unit (a membership of theirs as supervisor or unit admin). An investigator alone has nothing there.
 */
export const reachesUnits = (user: Pick<User, 'role'>, units: UnitsResponse | undefined): boolean =>
  user.role === 'admin' ||
  (units?.memberships.some(
    (membership) => membership.role === 'supervisor' || membership.role === 'unit_admin',
  ) ??
    false);

/** A unit's name with the names above it: 'Vindhara State › Northfield District'. */
export function unitPath(unit: Unit, byId: ReadonlyMap<string, Unit>): string {
  const names = [unit.name];
  let parent = unit.parent_id ? byId.get(unit.parent_id) : undefined;
  for (let guard = 0; parent && guard < 16; guard += 1) {
    names.unshift(parent.name);
    parent = parent.parent_id ? byId.get(parent.parent_id) : undefined;
  }
  return names.join(' › ');
}
