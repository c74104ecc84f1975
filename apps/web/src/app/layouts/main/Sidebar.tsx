import { messages } from '@footprint/domain';
import { type ReactNode, useId } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Logo } from '../../../components/Logo.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { useSearchType } from '../../../lib/search-type.ts';
import { useUnits } from '../../../lib/units.ts';
import { icons } from './icons.tsx';
import { mainNavigation, type NavEntry, navigationFor } from './navigation.tsx';

/**
 * The sidebar of the signed-in pages (spec §2.4): the searches, then the pages built beyond the spec
 * (grouped, each for whom it applies; navigation.tsx), then Logout and Help. The same component and
 * list are the fixed column on wide screens and the content of the drawer on small ones. On wide
 * screens the items are a little tighter (32 px high), and so are the gaps around the groups, so that an
 * admin's whole menu fits a laptop's 800 px without scrolling; the drawer keeps its taller touch targets
 * (36 px, the drawer's full width) and scrolls its items and footer under its fixed header.
 */

const itemClass = (active: boolean) =>
  `group flex w-full items-center gap-3 rounded-lg border-l-2 px-3 py-2 text-left text-sm font-medium transition-colors lg:py-1.5 ${
    active
      ? 'border-accent bg-accent-soft/70 text-accent'
      : 'border-transparent text-muted hover:bg-surface-2/80 hover:text-text'
  }`;

interface SidebarProps {
  variant: 'desktop' | 'mobile';
  signedIn: boolean;
  loggingOut: boolean;
  onLogout: () => void;
  /** Called after any item is chosen (the drawer closes even when the route stays the same). */
  onNavigate?: () => void;
  /** Only the drawer has one. */
  closeButton?: ReactNode;
}

export function Sidebar({ variant, signedIn, loggingOut, onLogout, onNavigate, closeButton }: SidebarProps) {
  const { pathname } = useLocation();
  const { searchType, setSearchType } = useSearchType();
  // Who sees which entry (live accounts, admins, unit supervisors and unit admins) is the list's
  // business (navigation.tsx); the memberships come from GET /api/units, the cache the pages share.
  const { user } = useAuth();
  const units = useUnits({ enabled: signedIn && Boolean(user) && user?.role !== 'admin' });
  const groups =
    signedIn && user
      ? navigationFor(user, units.data)
      : mainNavigation.filter((group) => group.id === 'search');
  const onDashboard = pathname === paths.dashboard;
  const groupId = useId();

  const item = (entry: NavEntry) => {
    if (entry.kind === 'search') {
      const active = onDashboard && searchType === entry.searchType;
      return (
        <Link
          to={paths.dashboard}
          aria-current={active ? 'page' : undefined}
          className={itemClass(active)}
          onClick={() => {
            setSearchType(entry.searchType);
            onNavigate?.();
          }}
        >
          {entry.icon}
          {entry.label}
        </Link>
      );
    }
    return (
      <NavLink
        to={entry.to}
        end={!entry.section}
        className={({ isActive }) => itemClass(isActive)}
        onClick={onNavigate}
      >
        {entry.icon}
        {entry.label}
      </NavLink>
    );
  };

  // Spec §2.4: Help leads to the dashboard on wide screens and to /help in the small-screen drawer.
  const helpTarget = variant === 'mobile' ? paths.help : paths.dashboard;
  const helpActive = pathname === paths.help;

  const nav = (
    <nav
      aria-label={messages.layout.mainNav}
      className={variant === 'mobile' ? 'px-3 py-4' : 'flex-1 overflow-y-auto px-3 py-4 lg:py-3'}
    >
      {groups.map((group) =>
        group.label ? (
          <div key={group.id} className="mt-4 lg:mt-3">
            <p
              id={`${groupId}-${group.id}`}
              className="mb-1 px-3 text-[11px] font-semibold tracking-wider text-muted/80 uppercase"
            >
              {group.label}
            </p>
            <ul aria-labelledby={`${groupId}-${group.id}`} className="flex flex-col gap-0.5">
              {group.entries.map((entry) => (
                <li key={entry.label}>{item(entry)}</li>
              ))}
            </ul>
          </div>
        ) : (
          <ul key={group.id} className="flex flex-col gap-0.5">
            {group.entries.map((entry) => (
              <li key={entry.label}>{item(entry)}</li>
            ))}
          </ul>
        ),
      )}
      <div className="my-3 border-t border-line/70 lg:my-2" />
      <ul className="flex flex-col gap-0.5">
        {signedIn && (
          <li>
            <button type="button" className={itemClass(false)} onClick={onLogout} disabled={loggingOut}>
              {loggingOut ? (
                <span className="flex size-5 items-center justify-center">
                  <Spinner size="sm" decorative />
                </span>
              ) : (
                icons.logout
              )}
              {loggingOut ? messages.logout.inProgress : messages.mainNav.logout}
            </button>
          </li>
        )}
        <li>
          <Link
            to={helpTarget}
            aria-current={helpActive ? 'page' : undefined}
            className={itemClass(helpActive)}
            onClick={onNavigate}
          >
            {icons.help}
            {messages.mainNav.help}
          </Link>
        </li>
      </ul>
    </nav>
  );
  const footer = (
    <footer className="shrink-0 border-t border-line/70 px-5 py-4 text-xs text-muted lg:py-3">
      © {new Date().getFullYear()} {messages.brand}. {messages.footer.rights}
    </footer>
  );

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center justify-between gap-2 border-b border-line/70 px-5">
        <Logo to={paths.dashboard} onClick={onNavigate} />
        {closeButton}
      </div>
      {variant === 'mobile' ? (
        // The drawer: its header stays, and the items and the footer scroll under it together, so the
        // footer takes no room from the items (an admin's whole menu fits a 390 × 844 phone).
        <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
          {nav}
          {footer}
        </div>
      ) : (
        <>
          {nav}
          {footer}
        </>
      )}
    </div>
  );
}
