import { messages, PAGE_TRANSITION_S } from '@footprint/domain';
import { useAnimate } from 'motion/react-mini';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigationType } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import ParticlesBackground from '../../components/ParticlesBackground.tsx';
import { PublicFooter } from '../../components/PublicFooter.tsx';
import { useDrawer } from '../../components/useDrawer.ts';
import { isPublicPath, paths } from '../../config/paths.ts';
import { prerendered } from '../../lib/prerendered.ts';

const icon = (d: ReactNode) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.75"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    className="size-5 shrink-0"
  >
    {d}
  </svg>
);

/** Spec §2.1: exactly these five entries, in this order. */
const navItems = [
  {
    to: paths.home,
    label: messages.public.nav.home,
    end: true,
    icon: icon(<path d="M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" />),
  },
  {
    to: paths.login,
    label: messages.public.nav.login,
    end: false,
    icon: icon(
      <>
        <path d="M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4" />
        <path d="m10 17 5-5-5-5M15 12H3" />
      </>,
    ),
  },
  {
    to: paths.about,
    label: messages.public.nav.who,
    end: false,
    icon: icon(
      <>
        <circle cx="9" cy="8" r="3.5" />
        <path d="M2.5 20c.6-3.4 3.2-5.5 6.5-5.5s5.9 2.1 6.5 5.5M16 4.8a3.5 3.5 0 0 1 0 6.4M18.5 14.8c1.6.8 2.7 2.6 3 5.2" />
      </>,
    ),
  },
  {
    to: paths.privacy,
    label: messages.public.nav.privacy,
    end: false,
    icon: icon(
      <>
        <path d="M12 3 4.5 6v5.5c0 4.6 3.1 8.3 7.5 9.5 4.4-1.2 7.5-4.9 7.5-9.5V6z" />
        <path d="m9 12 2 2 4-4" />
      </>,
    ),
  },
  {
    to: paths.contact,
    label: messages.public.nav.contact,
    end: false,
    icon: icon(
      <>
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="m3.5 6.5 8.5 6.5 8.5-6.5" />
      </>,
    ),
  },
] as const;

const desktopQuery = '(min-width: 64rem)';

/** The first page of this visit came prerendered (lib/prerendered.ts); pages after it fade in. */
let drawnBeforeScript = prerendered;
const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

/**
 * Fades and scales a page in over PAGE_TRANSITION_S (spec §2.1, §9); only the fade when the visitor asks
 * for reduced motion. Keyed by pathname by its parent, so it runs once per page. motion's mini animate
 * (Web Animations API) keeps the first paint of '/' about 30 kB lighter than the full motion component.
 * The transform ends at 'none' so fixed-position overlays inside a page are never trapped by it.
 */
function PageTransition({ children }: { children: ReactNode }) {
  const [scope, animate] = useAnimate<HTMLDivElement>();
  useLayoutEffect(() => {
    // A prerendered first page is on screen already: fading it out to fade it in would hide it.
    if (drawnBeforeScript) {
      drawnBeforeScript = false;
      return;
    }
    const still = window.matchMedia?.(reducedMotionQuery).matches ?? false;
    const controls = animate(
      scope.current,
      still ? { opacity: [0, 1] } : { opacity: [0, 1], transform: ['scale(0.97)', 'none'] },
      { duration: PAGE_TRANSITION_S, ease: 'easeOut' },
    );
    return () => controls.stop();
  }, [animate, scope]);
  return (
    <div ref={scope} className="flex flex-1 origin-top flex-col">
      {children}
    </div>
  );
}

/**
 * Layout of the public and authentication pages: side navigation (a menu button on small screens),
 * the particle background, and the page fading and scaling in over PAGE_TRANSITION_S (spec §2.1, §9).
 * It renders the page's <main>; marketing and policy pages also get the public footer.
 */
export default function PublicLayout() {
  const { pathname } = useLocation();
  // The drawer remembers where it was opened, so any navigation closes it without an effect.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === pathname;
  const menuButton = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const navigationType = useNavigationType();

  // A new page starts at its top; back and forward keep the browser's own scroll restoration.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs on each page change, which pathname marks.
  useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);

  const close = useCallback((restoreFocus: boolean) => {
    setOpenAt(null);
    if (restoreFocus) menuButton.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const links = panel.current?.querySelector('nav');
    (links?.querySelector<HTMLElement>('a[aria-current="page"]') ?? links?.querySelector('a'))?.focus();
    // Tabbing out of the drawer closes it, rather than leaving it over the page the focus went to.
    const onFocus = (event: FocusEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !menuButton.current?.contains(target)) close(false);
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [open, close]);
  useDrawer(open, close, desktopQuery);

  return (
    <div className="relative min-h-dvh">
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:rounded-lg focus:bg-accent focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-ink"
      >
        {messages.layout.skipToContent}
      </a>
      <ParticlesBackground />

      <header className="sticky top-0 z-30 lg:fixed lg:inset-y-0 lg:left-0 lg:w-64">
        {/* Top bar on small screens */}
        <div className="flex h-16 items-center justify-between border-b border-line/80 bg-ink/80 px-4 backdrop-blur-md lg:hidden">
          <Logo to={paths.home} size="sm" />
          <button
            ref={menuButton}
            type="button"
            className="inline-flex size-10 items-center justify-center rounded-lg border border-line text-text transition-colors hover:border-accent hover:text-accent"
            aria-expanded={open}
            aria-controls="public-nav-panel"
            onClick={() => (open ? close(false) : setOpenAt(pathname))}
          >
            <span className="sr-only">{messages.layout.menu}</span>
            <svg
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              aria-hidden="true"
              className="size-5"
            >
              <path d="M4 7h16M4 12h16M4 17h16" />
            </svg>
          </button>
        </div>

        {open && (
          <button
            type="button"
            tabIndex={-1}
            aria-hidden="true"
            className="backdrop-enter fixed inset-0 z-40 cursor-default bg-ink/70 backdrop-blur-sm lg:hidden"
            onClick={() => close(true)}
          />
        )}

        <div
          id="public-nav-panel"
          ref={panel}
          className={`${open ? 'drawer-enter flex' : 'hidden'} fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] flex-col border-r border-line bg-night/95 shadow-2xl shadow-black/50 backdrop-blur-md lg:relative lg:flex lg:h-full lg:w-64 lg:max-w-none lg:bg-night/70 lg:shadow-none`}
        >
          <div className="flex h-16 items-center justify-between px-5 lg:h-20">
            <Logo to={paths.home} />
            <button
              type="button"
              className="inline-flex size-9 items-center justify-center rounded-lg text-muted transition-colors hover:text-accent lg:hidden"
              onClick={() => close(true)}
            >
              <span className="sr-only">{messages.layout.closeMenu}</span>
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                aria-hidden="true"
                className="size-5"
              >
                <path d="M6 6l12 12M18 6 6 18" />
              </svg>
            </button>
          </div>

          <nav aria-label={messages.layout.mainNav} className="flex-1 overflow-y-auto px-3 py-4">
            <ul className="flex flex-col gap-1">
              {navItems.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.end}
                    onClick={() => setOpenAt(null)}
                    className={({ isActive }) =>
                      `group flex items-center gap-3 rounded-lg border-l-2 px-3 py-2.5 text-sm font-semibold tracking-[0.14em] transition-colors ${
                        isActive
                          ? 'border-accent bg-accent-soft/70 text-accent'
                          : 'border-transparent text-muted hover:bg-surface-2/80 hover:text-text'
                      }`
                    }
                  >
                    {item.icon}
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>

          <p className="border-t border-line/80 px-5 py-5 text-[0.625rem] font-semibold tracking-[0.12em] whitespace-nowrap text-muted">
            {messages.taglines.footprint}
          </p>
        </div>
      </header>

      <div className="flex min-h-[calc(100dvh-4rem)] flex-col lg:min-h-dvh lg:pl-64">
        <PageTransition key={pathname}>
          <main id="main-content" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
            <Outlet />
          </main>
          {isPublicPath(pathname) && <PublicFooter />}
        </PageTransition>
      </div>
    </div>
  );
}
