import { messages } from '@footprint/domain';
import { Navigate, Outlet, useLocation } from 'react-router';
import { hasMenuButton, isSidebarHidden, paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';
import { Header } from './main/Header.tsx';
import { LayoutSkeleton } from './main/LayoutSkeleton.tsx';
import { MobileDrawer } from './main/MobileDrawer.tsx';
import { Sidebar } from './main/Sidebar.tsx';
import { useLogout } from './main/useLogout.ts';
import { useMenuDrawer } from './main/useMenuDrawer.ts';

/**
 * Layout of the signed-in pages (spec §2.4): the guard, the sidebar (a drawer on small screens), the
 * header with credits and the profile menu, and the shared logout flow. Each piece lives in main/.
 */

export default function MainLayout() {
  const { user, loading } = useAuth();
  const { pathname } = useLocation();
  const drawer = useMenuDrawer();
  const { loggingOut, startLogout } = useLogout();

  // Spec §2.3: the spinner while the user loads, in the frame the page will have (the same markup the
  // build prerenders for these paths, scripts/prerender.ts), so the frame painted before any script
  // stays where it is when the app takes over.
  if (loading) return <LayoutSkeleton pathname={pathname} />;
  if (!user) {
    if (pathname.startsWith('/password-reset')) return <Outlet />;
    return <Navigate to={paths.login} replace />;
  }

  // The deployment requires a second factor and this account has none: the Security page until it has.
  if (user.second_factor_setup_required && pathname !== paths.security) {
    return <Navigate to={paths.security} replace />;
  }

  const sidebarHidden = isSidebarHidden(pathname);
  const showMenuButton = hasMenuButton(pathname);

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
          <Sidebar variant="desktop" signedIn loggingOut={loggingOut} onLogout={startLogout} />
        </aside>
      )}

      {drawer.open && (
        <MobileDrawer onClose={drawer.close}>
          {(closeButton) => (
            <Sidebar
              variant="mobile"
              signedIn
              loggingOut={loggingOut}
              onLogout={startLogout}
              onNavigate={() => drawer.close(false)}
              closeButton={closeButton}
            />
          )}
        </MobileDrawer>
      )}

      <div className={`flex min-h-dvh flex-col ${sidebarHidden ? '' : 'lg:pl-64'}`}>
        <Header
          user={user}
          sidebarHidden={sidebarHidden}
          menuButton={
            showMenuButton
              ? { ref: drawer.menuButton, expanded: drawer.open, onClick: drawer.show }
              : undefined
          }
          loggingOut={loggingOut}
          onLogout={startLogout}
        />

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
