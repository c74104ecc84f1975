import { isLive, messages } from '@footprint/domain';
import type { ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Logo } from '../../../components/Logo.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { type SearchType, useSearchType } from '../../../lib/search-type.ts';
import { icons } from './icons.tsx';

/**
 * The sidebar of the signed-in pages (spec §2.4): the searches, Logout and Help. The same list is the
 * fixed column on wide screens and the content of the drawer on small ones.
 */

const itemClass = (active: boolean) =>
  `group flex w-full items-center gap-3 rounded-lg border-l-2 px-3 py-2.5 text-left text-sm font-medium transition-colors ${
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
  // Bulk lookups and the watchlist are for live accounts (their routes and the API refuse the others).
  const { user } = useAuth();
  const onDashboard = pathname === paths.dashboard;

  const searchItem = (type: SearchType, label: string) => {
    const active = onDashboard && searchType === type;
    return (
      <Link
        to={paths.dashboard}
        aria-current={active ? 'page' : undefined}
        className={itemClass(active)}
        onClick={() => {
          setSearchType(type);
          onNavigate?.();
        }}
      >
        {icons[type]}
        {label}
      </Link>
    );
  };

  const linkItem = (to: string, label: string, icon: ReactNode) => (
    <NavLink to={to} end className={({ isActive }) => itemClass(isActive)} onClick={onNavigate}>
      {icon}
      {label}
    </NavLink>
  );

  // Spec §2.4: Help leads to the dashboard on wide screens and to /help in the small-screen drawer.
  const helpTarget = variant === 'mobile' ? paths.help : paths.dashboard;
  const helpActive = pathname === paths.help;

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center justify-between gap-2 border-b border-line/70 px-5">
        <Logo to={paths.dashboard} onClick={onNavigate} />
        {closeButton}
      </div>

      <nav aria-label={messages.layout.mainNav} className="flex-1 overflow-y-auto px-3 py-5">
        <ul className="flex flex-col gap-1">
          <li>{searchItem('email', messages.mainNav.emailSearch)}</li>
          <li>{searchItem('tel', messages.mainNav.phoneSearch)}</li>
          <li>{linkItem(paths.leakFinder, messages.mainNav.leakFinder, icons.leak)}</li>
          <li>{linkItem(paths.corporate, messages.mainNav.corporate, icons.corporate)}</li>
          <li>{linkItem(paths.verification, messages.mainNav.verifiedId, icons.verified)}</li>
          {signedIn && <li>{linkItem(paths.cases, messages.cases.menuLink, icons.cases)}</li>}
          {signedIn && isLive(user) && (
            <>
              <li>{linkItem(paths.bulk, messages.bulkPage.menuLink, icons.bulk)}</li>
              <li>{linkItem(paths.watchlist, messages.watchlist.menuLink, icons.watchlist)}</li>
            </>
          )}
        </ul>
        <div className="my-4 border-t border-line/70" />
        <ul className="flex flex-col gap-1">
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

      <footer className="shrink-0 border-t border-line/70 px-5 py-4 text-xs text-muted">
        © {new Date().getFullYear()} {messages.brand}. {messages.footer.rights}
      </footer>
    </div>
  );
}
