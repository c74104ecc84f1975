import { LOGOUT_DELAY_MS, messages, type User } from '@footprint/domain';
import {
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { Icon } from '../../components/Icon.tsx';
import { Logo } from '../../components/Logo.tsx';
import { PageSpinner, Spinner } from '../../components/Spinner.tsx';
import { useDisclosure } from '../../components/useDisclosure.ts';
import { useDrawer } from '../../components/useDrawer.ts';
import { isSidebarHidden, paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';
import { type SearchType, useSearchType } from '../../lib/search-type.ts';

/**
 * Layout of the signed-in pages (spec §2.4): the guard, the sidebar (a drawer on small screens), the
 * header with credits and the profile menu, and the shared logout flow.
 */

const desktopQuery = '(min-width: 64rem)';

/** Pages whose small-screen header carries the menu button (spec §2.4). */
const menuButtonPaths: readonly string[] = [
  paths.dashboard,
  paths.leakFinder,
  paths.corporate,
  paths.verification,
];

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

const icons = {
  email: (
    <Icon className="size-5">
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3.5 6.5 8.5 6.5 8.5-6.5" />
    </Icon>
  ),
  tel: (
    <Icon className="size-5">
      <path d="M5 4h3.5l1.5 4.5-2 1.5a11 11 0 0 0 6 6l1.5-2 4.5 1.5V19a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z" />
    </Icon>
  ),
  leak: (
    <Icon className="size-5">
      <ellipse cx="12" cy="5.5" rx="7.5" ry="2.5" />
      <path d="M4.5 5.5v6c0 1.4 3.4 2.5 7.5 2.5s7.5-1.1 7.5-2.5v-6M4.5 11.5v6c0 1.4 3.4 2.5 7.5 2.5 1 0 1.9-.1 2.8-.2" />
      <circle cx="18" cy="18" r="2.5" />
      <path d="m20 20 1.5 1.5" />
    </Icon>
  ),
  corporate: (
    <Icon className="size-5">
      <path d="M4 21V5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v16M15 9h4a1 1 0 0 1 1 1v11M2.5 21h19" />
      <path d="M8 8h3M8 12h3M8 16h3" />
    </Icon>
  ),
  verified: (
    <Icon className="size-5">
      <rect x="3" y="4.5" width="18" height="15" rx="2" />
      <circle cx="9" cy="11" r="2.25" />
      <path d="M5.5 16.5c.5-1.7 1.8-2.6 3.5-2.6s3 .9 3.5 2.6M15 10h3M15 13.5h3" />
    </Icon>
  ),
  logout: (
    <Icon className="size-5">
      <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
    </Icon>
  ),
  help: (
    <Icon className="size-5">
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9.3a2.6 2.6 0 0 1 5 .9c0 1.7-2.5 2.3-2.5 3.8M12 17.2v.1" />
    </Icon>
  ),
  menu: (
    <Icon className="size-5">
      <path d="M4 7h16M4 12h16M4 17h16" />
    </Icon>
  ),
  close: (
    <Icon className="size-5">
      <path d="M6 6l12 12M18 6 6 18" />
    </Icon>
  ),
  coins: (
    <Icon className="size-4">
      <ellipse cx="9" cy="7" rx="6" ry="3" />
      <path d="M3 7v5c0 1.7 2.7 3 6 3s6-1.3 6-3V7M9 15v2c0 1.7 2.7 3 6 3s6-1.3 6-3v-5c0-1.6-2.4-2.9-5.5-3" />
    </Icon>
  ),
  chevron: (
    <Icon className="size-4">
      <path d="m6 9 6 6 6-6" />
    </Icon>
  ),
  history: (
    <Icon className="size-5">
      <path d="M3.5 12a8.5 8.5 0 1 0 2.5-6L3.5 8.5M3.5 4v4.5H8" />
      <path d="M12 7.5V12l3 2" />
    </Icon>
  ),
  admin: (
    <Icon className="size-5">
      <path d="M12 3 4.5 6v5.5c0 4.5 3.2 8.3 7.5 9.5 4.3-1.2 7.5-5 7.5-9.5V6z" />
      <path d="m9 12 2 2 4-4" />
    </Icon>
  ),
};

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

function Sidebar({ variant, signedIn, loggingOut, onLogout, onNavigate, closeButton }: SidebarProps) {
  const { pathname } = useLocation();
  const { searchType, setSearchType } = useSearchType();
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

const focusableSelector =
  'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** The sidebar as a modal drawer on small screens: Escape, the backdrop and the close button close it. */
function MobileDrawer({
  onClose,
  children,
}: {
  onClose: (restoreFocus: boolean) => void;
  children: (closeButton: ReactNode) => ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeRef.current?.focus();
  }, []);
  useDrawer(true, onClose, desktopQuery);

  // Keeps Tab inside the drawer while it is open.
  const trapFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(focusableSelector));
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const closeButton = (
    <button
      ref={closeRef}
      type="button"
      aria-label={messages.layout.closeMenu}
      className="inline-flex size-10 items-center justify-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-accent"
      onClick={() => onClose(true)}
    >
      {icons.close}
    </button>
  );

  return (
    <div className="lg:hidden">
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        className="backdrop-enter fixed inset-0 z-40 cursor-default bg-ink/75 backdrop-blur-sm"
        onClick={() => onClose(true)}
      />
      <div
        ref={panel}
        id="main-nav-drawer"
        role="dialog"
        aria-modal="true"
        aria-label={messages.layout.menu}
        onKeyDown={trapFocus}
        className="drawer-enter fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] border-r border-line bg-night shadow-2xl shadow-black/60"
      >
        {children(closeButton)}
      </div>
    </div>
  );
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('') || '?';

const menuItemClass =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-medium text-text transition-colors hover:bg-surface-2 hover:text-accent';

/**
 * The profile button and its dropdown: name, e-mail and Logout (spec §2.4), with 'Search history' and,
 * for admins, 'Admin' above Logout (issue 7), so that the sidebar stays as the spec shows it.
 */
function ProfileMenu({
  user,
  loggingOut,
  onLogout,
}: {
  user: User;
  loggingOut: boolean;
  onLogout: () => void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const firstLink = useRef<HTMLAnchorElement>(null);

  useDisclosure(
    open,
    setOpen,
    useMemo(() => ({ wrapper, toggle, firstItem: firstLink }), []),
  );

  return (
    <div ref={wrapper} className="relative">
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={messages.layout.profileMenu(user.name)}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex items-center gap-2 rounded-full border border-line bg-surface-2/60 py-1 pr-2 pl-1 text-sm text-text transition-colors hover:border-accent"
      >
        <span
          aria-hidden="true"
          className="inline-flex size-8 items-center justify-center rounded-full bg-accent-soft text-xs font-bold text-accent"
        >
          {initials(user.name)}
        </span>
        <span className="hidden max-w-40 truncate font-medium sm:inline">{user.name}</span>
        <span className={`text-muted transition-transform ${open ? 'rotate-180' : ''}`}>{icons.chevron}</span>
      </button>

      {open && (
        <div
          id={id}
          className="dropdown-enter absolute right-0 z-50 mt-2 w-72 max-w-[calc(100vw-2rem)] overflow-hidden rounded-xl border border-line bg-surface shadow-2xl shadow-black/50"
        >
          <div className="flex items-center gap-3 border-b border-line px-4 py-4">
            <span
              aria-hidden="true"
              className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-soft text-sm font-bold text-accent"
            >
              {initials(user.name)}
            </span>
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold text-text">{user.name}</p>
              <p className="truncate text-xs text-muted" title={user.email}>
                {user.email}
              </p>
            </div>
          </div>
          <div className="p-2">
            <Link ref={firstLink} to={paths.history} className={menuItemClass} onClick={() => setOpen(false)}>
              {icons.history}
              {messages.history.menuLink}
            </Link>
            {user.role === 'admin' && (
              <Link to={paths.admin} className={menuItemClass} onClick={() => setOpen(false)}>
                {icons.admin}
                {messages.admin.menuLink}
              </Link>
            )}
            <div className="my-1.5 border-t border-line" />
            <button
              type="button"
              onClick={onLogout}
              disabled={loggingOut}
              className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-medium text-text transition-colors hover:bg-danger/10 hover:text-danger disabled:cursor-wait disabled:opacity-80"
            >
              {loggingOut ? (
                <span className="flex size-5 items-center justify-center">
                  <Spinner size="sm" decorative />
                </span>
              ) : (
                icons.logout
              )}
              {loggingOut ? messages.logout.inProgress : messages.mainNav.logout}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

export default function MainLayout() {
  const { user, loading, logout } = useAuth();
  const location = useLocation();
  const { pathname } = location;
  // The drawer remembers the navigation it was opened on, so any navigation (even to the same path,
  // e.g. Email Search while on the dashboard) closes it without an effect.
  const [drawerOpenAt, setDrawerOpenAt] = useState<string | null>(null);
  const drawerOpen = drawerOpenAt === location.key;
  const menuButton = useRef<HTMLButtonElement>(null);
  const [loggingOut, setLoggingOut] = useState(false);

  const closeDrawer = useCallback((restoreFocus: boolean) => {
    setDrawerOpenAt(null);
    if (restoreFocus) menuButton.current?.focus();
  }, []);

  // Spec §2.4: show 'Logging out...', wait about 2 s, then call the server and leave for '/'.
  const startLogout = useCallback(async () => {
    if (loggingOut) return;
    setLoggingOut(true);
    await wait(LOGOUT_DELAY_MS);
    await logout();
  }, [loggingOut, logout]);

  if (loading) return <PageSpinner />;
  if (!user) {
    if (pathname.startsWith('/password-reset')) return <Outlet />;
    return <Navigate to={paths.login} replace />;
  }

  const sidebarHidden = isSidebarHidden(pathname);
  const showMenuButton = menuButtonPaths.includes(pathname);

  return (
    <div className="min-h-dvh bg-ink">
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:rounded-lg focus:bg-accent focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-ink"
      >
        {messages.layout.skipToContent}
      </a>

      {!sidebarHidden && (
        <aside className="fixed inset-y-0 left-0 z-30 hidden w-64 border-r border-line bg-night/90 backdrop-blur lg:block">
          <Sidebar variant="desktop" signedIn loggingOut={loggingOut} onLogout={() => void startLogout()} />
        </aside>
      )}

      {drawerOpen && (
        <MobileDrawer onClose={closeDrawer}>
          {(closeButton) => (
            <Sidebar
              variant="mobile"
              signedIn
              loggingOut={loggingOut}
              onLogout={() => void startLogout()}
              onNavigate={() => closeDrawer(false)}
              closeButton={closeButton}
            />
          )}
        </MobileDrawer>
      )}

      <div className={`flex min-h-dvh flex-col ${sidebarHidden ? '' : 'lg:pl-64'}`}>
        <header className="sticky top-0 z-20 flex h-16 shrink-0 items-center gap-3 border-b border-line bg-ink/85 px-4 backdrop-blur-md sm:px-6">
          {showMenuButton && (
            <button
              ref={menuButton}
              type="button"
              aria-label={messages.layout.openMenu}
              aria-expanded={drawerOpen}
              aria-controls="main-nav-drawer"
              aria-haspopup="dialog"
              onClick={() => setDrawerOpenAt(location.key)}
              className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-line text-text transition-colors hover:border-accent hover:text-accent lg:hidden"
            >
              {icons.menu}
            </button>
          )}
          {/* The sidebar carries the brand on wide screens; narrow phones get the mark alone. */}
          <span className={`shrink-0 sm:hidden ${sidebarHidden ? '' : 'lg:hidden'}`}>
            <Logo to={paths.dashboard} size="sm" hideTitle />
          </span>
          <span className={`hidden shrink-0 sm:inline-flex ${sidebarHidden ? '' : 'lg:hidden'}`}>
            <Logo to={paths.dashboard} size="sm" />
          </span>

          <div className="ml-auto flex items-center gap-2 sm:gap-3">
            <p className="inline-flex items-center gap-1.5 rounded-full border border-accent/30 bg-accent-soft/40 px-2.5 py-1.5 sm:px-3 text-xs font-semibold whitespace-nowrap text-accent sm:text-sm">
              {icons.coins}
              {messages.credits.label(user.credits)}
            </p>
            <ProfileMenu user={user} loggingOut={loggingOut} onLogout={() => void startLogout()} />
          </div>
        </header>

        <main id="main-content" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
          <Outlet />
        </main>
      </div>

      <p role="status" className="sr-only">
        {loggingOut ? messages.logout.inProgress : ''}
      </p>
    </div>
  );
}
