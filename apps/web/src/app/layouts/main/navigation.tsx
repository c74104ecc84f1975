import { isLive, messages, type UnitsResponse, type User } from '@footprint/domain';
import type { ReactNode } from 'react';
import { paths } from '../../../config/paths.ts';
import { approvalTexts } from '../../../lib/approval-texts.ts';
import type { SearchType } from '../../../lib/search-type.ts';
import { reachesUnits } from '../../../lib/units.ts';
import { icons } from './icons.tsx';

/**
 * The one list of the signed-in pages' navigation: the sidebar on wide screens and the drawer on phones
 * both render it (Sidebar.tsx), so they cannot disagree. The spec's items (§2.4) come first, in its
 * order and with its behaviour; the pages built beyond the spec follow in two headed groups, each
 * entry shown only to whom its route admits (the LiveOnly and AdminOnly guards in router.tsx).
 * Logout and Help, the spec's last two items, close the sidebar below these groups (Sidebar.tsx).
 */

/**
 * Who an entry is for: everyone signed in, live accounts only, admins only, or admins and whoever
 * supervises or administers a unit (their memberships in GET /api/units; the UnitsOnly guard).
 */
export type NavAudience = 'everyone' | 'live' | 'admin' | 'units';

export type NavEntry =
  /** Spec §2.4: Email Search and Phone Search set the search type and go to /dashboard. */
  | { kind: 'search'; searchType: SearchType; label: string; icon: ReactNode }
  | {
      kind: 'link';
      to: string;
      label: string;
      icon: ReactNode;
      audience: NavAudience;
      /** Marked current on the pages below it too (/cases/:id, /admin/users, …). */
      section?: boolean;
    };

export interface NavGroup {
  id: 'search' | 'work' | 'account';
  /** Shown above the group; the spec's items have none. */
  label?: string;
  entries: readonly NavEntry[];
}

const link = (
  to: string,
  label: string,
  icon: ReactNode,
  audience: NavAudience = 'everyone',
  section = false,
): NavEntry => ({ kind: 'link', to, label, icon, audience, section });

export const mainNavigation: readonly NavGroup[] = [
  {
    id: 'search',
    entries: [
      { kind: 'search', searchType: 'email', label: messages.mainNav.emailSearch, icon: icons.email },
      { kind: 'search', searchType: 'tel', label: messages.mainNav.phoneSearch, icon: icons.tel },
      // Corporate and Verified ID show to everyone, as the spec has them; a trial account's click
      // lands on /upgrade (the LiveOnly guard).
      link(paths.leakFinder, messages.mainNav.leakFinder, icons.leak),
      link(paths.corporate, messages.mainNav.corporate, icons.corporate),
      link(paths.verification, messages.mainNav.verifiedId, icons.verified),
    ],
  },
  {
    id: 'work',
    label: messages.layout.navGroups.work,
    entries: [
      link(paths.cases, messages.cases.menuLink, icons.cases, 'everyone', true),
      link(paths.bulk, messages.bulkPage.menuLink, icons.bulk, 'live'),
      link(paths.watchlist, messages.watchlist.menuLink, icons.watchlist, 'live'),
      link(paths.history, messages.history.menuLink, icons.history),
      link(paths.reviews, messages.reviewsPage.menuLink, icons.reviews),
      // Everyone signed in: a supervisor decides there, and anyone's sensitive search waits there.
      link(paths.approvals, approvalTexts.menuLink, icons.approvals),
    ],
  },
  {
    id: 'account',
    label: messages.layout.navGroups.account,
    entries: [
      link(paths.apiKeys, messages.apiKeys.navLabel, icons.apiKey, 'live'),
      link(paths.security, messages.security.navLabel, icons.security),
      link(paths.units, messages.units.admin.navLink, icons.units, 'units'),
      link(paths.admin, messages.admin.menuLink, icons.admin, 'admin', true),
    ],
  },
];

const admits = (audience: NavAudience, user: User, units: UnitsResponse | undefined): boolean => {
  if (audience === 'everyone') return true;
  if (audience === 'live') return isLive(user);
  if (audience === 'units') return reachesUnits(user, units);
  return user.role === 'admin';
};

/**
 * The groups and entries this user may open; a group left empty is dropped. `units` is the answer of
 * GET /api/units (the user's memberships); until it is there, only an admin sees Units.
 */
export function navigationFor(user: User, units?: UnitsResponse): NavGroup[] {
  return mainNavigation
    .map((group) => ({
      ...group,
      entries: group.entries.filter(
        (entry) => entry.kind === 'search' || admits(entry.audience, user, units),
      ),
    }))
    .filter((group) => group.entries.length > 0);
}
