import type { UnitRole, UnitsResponse, User } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { navigationFor } from '../src/app/layouts/main/navigation.tsx';
import { paths } from '../src/config/paths.ts';

/** Who sees Units in the menu: admins, and whoever supervises or administers a unit (GET /api/units). */

const user = (role: 'user' | 'admin') => ({ id: 'u1', role, app_mode: 'live' }) as unknown as User;
const units = (...roles: UnitRole[]): UnitsResponse =>
  ({
    levels: ['State'],
    units: [],
    edits_tree: false,
    memberships: roles.map((role, i) => ({ unit_id: `unit-${i}`, unit_name: `Unit ${i}`, role })),
  }) as unknown as UnitsResponse;
const seesUnits = (who: User, answer?: UnitsResponse) =>
  navigationFor(who, answer).some((group) =>
    group.entries.some((entry) => entry.kind === 'link' && entry.to === paths.units),
  );

describe('the Units entry', () => {
  it('is an admin’s, even before their memberships load', () => {
    expect(seesUnits(user('admin'))).toBe(true);
  });
  it('is a supervisor’s and a unit admin’s', () => {
    expect(seesUnits(user('user'), units('investigator', 'supervisor'))).toBe(true);
    expect(seesUnits(user('user'), units('unit_admin'))).toBe(true);
  });
  it('is not an investigator’s, nor anyone’s whose memberships have not loaded', () => {
    expect(seesUnits(user('user'), units('investigator', 'investigator'))).toBe(false);
    expect(seesUnits(user('user'))).toBe(false);
  });
});
