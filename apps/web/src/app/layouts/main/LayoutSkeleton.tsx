import { Logo } from '../../../components/Logo.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { hasMenuButton, isSidebarHidden } from '../../../config/paths.ts';

/**
 * The frame of the signed-in pages while the user loads (spec §2.3: a spinner): the sidebar column,
 * the header bar with the brand and the menu button's place, and the spinner where the page will be.
 * Each box has the size and place it has in MainLayout, Sidebar and Header, so that nothing moves when
 * the user's layout replaces it; what depends on the user (the menu, the credits, the profile) is not
 * drawn yet. Nothing in it can be focused or pressed, and it is hidden from assistive technology but
 * for the spinner's status.
 *
 * The build prerenders it for the signed-in paths (scripts/prerender.ts), so it is also what those
 * pages paint before any script, for a signed-out visitor too (the app then goes to /login): it shows
 * nothing of anyone's account. It must therefore render the same in Node (no `window`).
 */
export function LayoutSkeleton({ pathname }: { pathname: string }) {
  const sidebarHidden = isSidebarHidden(pathname);
  return (
    <div className="min-h-dvh bg-ink" aria-busy="true">
      {!sidebarHidden && (
        <div
          aria-hidden="true"
          className="fixed inset-y-0 left-0 z-30 hidden w-64 border-r border-line bg-night/90 backdrop-blur lg:block"
        >
          <div className="flex h-16 shrink-0 items-center border-b border-line/70 px-5">
            <Logo />
          </div>
        </div>
      )}
      <div className={`flex min-h-dvh flex-col ${sidebarHidden ? '' : 'lg:pl-64'}`}>
        <div
          aria-hidden="true"
          className="sticky top-0 z-20 flex h-16 shrink-0 items-center gap-3 border-b border-line bg-ink/85 px-4 backdrop-blur-md sm:px-6"
        >
          {hasMenuButton(pathname) && (
            <span className="size-10 shrink-0 rounded-lg border border-line lg:hidden" />
          )}
          <span className={`shrink-0 sm:hidden ${sidebarHidden ? '' : 'lg:hidden'}`}>
            <Logo size="sm" hideTitle />
          </span>
          <span className={`hidden shrink-0 sm:inline-flex ${sidebarHidden ? '' : 'lg:hidden'}`}>
            <Logo size="sm" />
          </span>
        </div>
        <div className="grid flex-1 place-items-center">
          <Spinner size="lg" />
        </div>
      </div>
    </div>
  );
}
