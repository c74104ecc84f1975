import { messages, SESSION_CHECK_INTERVAL_MS, type TokenResponse, type User } from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router';
import { isAuthPath, isPublicPath, paths } from '../config/paths.ts';
import { getUser } from '../features/auth/api/getUser.ts';
import { logout as logoutRequest } from '../features/auth/api/logout.ts';
import { isApiError, setUnauthorizedHandler } from '../lib/api.ts';
import { AuthContext, type AuthContextValue } from '../lib/auth-context.ts';
import { DEFAULT_SEARCH_TYPE, type SearchType, SearchTypeContext } from '../lib/search-type.ts';
import { clearSession, getToken, isTokenExpired, saveSession } from '../lib/session.ts';

/**
 * The root route element: session state, the app-wide search type, the 401 rule, the scroll position
 * and the toasts. Everything below it (public, standalone and main layouts) reads these through `lib/`
 * hooks.
 */

/** The toast area loads on its own, once the page is up (Toasts.tsx). */
const Toasts = lazy(() => import('./Toasts.tsx'));

/** A toast from the shell, which keeps the toast library out of the entry chunk. */
function notify(kind: 'error' | 'warning', text: string, options?: { toastId: string }): void {
  void import('react-toastify').then(({ toast }) => toast[kind](text, options));
}

/** Survives the hard redirect so the "session expired" notice is still seen on /login. */
const EXPIRED_NOTICE_KEY = 'footprint:session-expired';

/** Spec §4: the 401 rule fires at most once per page load. */
let sessionExpiryHandled = false;

/** Read once per page load, before any effect runs twice under StrictMode. */
const expiredNoticePending: boolean = (() => {
  try {
    const pending = window.sessionStorage.getItem(EXPIRED_NOTICE_KEY) !== null;
    window.sessionStorage.removeItem(EXPIRED_NOTICE_KEY);
    return pending;
  } catch {
    return false;
  }
})();

/**
 * Any 401 on any call (spec §4, §8): forget the token, say so, and hard-redirect to /login, so that no
 * state of the dead session survives in memory.
 */
function expireSession(): void {
  if (sessionExpiryHandled) return;
  sessionExpiryHandled = true;
  clearSession();
  notify('error', messages.session.expired);
  try {
    window.sessionStorage.setItem(EXPIRED_NOTICE_KEY, '1');
  } catch {
    // Without sessionStorage the toast above is all the user gets.
  }
  window.location.assign(paths.login);
}

/** Pages a signed-out visitor may stay on, where a dead stored token is just dropped silently. */
const isOpenPath = (pathname: string): boolean =>
  isPublicPath(pathname) ||
  isAuthPath(pathname) ||
  pathname === paths.forgotPassword ||
  pathname === paths.otp;

function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(() => getToken() !== null);
  const [signingOut, setSigningOut] = useState(false);
  const initialPath = useRef(pathname);

  useEffect(() => {
    setUnauthorizedHandler(expireSession);
    return () => setUnauthorizedHandler(null);
  }, []);

  // After the hard redirect of the 401 rule: repeat the notice the previous page had no time to show.
  useEffect(() => {
    if (!expiredNoticePending) return;
    const timer = window.setTimeout(() =>
      notify('error', messages.session.expired, { toastId: EXPIRED_NOTICE_KEY }),
    );
    return () => window.clearTimeout(timer);
  }, []);

  // Spec §4: at load, a stored token is used to fetch the user; with none, loading ends at once.
  useEffect(() => {
    if (!getToken()) {
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    // On open pages a 401 only means "signed out"; elsewhere the 401 rule (toast + /login) applies.
    const open = isOpenPath(initialPath.current);
    getUser({ handleUnauthorized: !open, signal: controller.signal })
      .then((fetched) => {
        if (!controller.signal.aborted) setUser(fetched);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // The 401 rule has already started the hard redirect to /login: leave the page as it is (still
        // loading) so no guard races it with a client-side navigation of its own.
        if (sessionExpiryHandled) return;
        if (isApiError(error) && error.status === 401) {
          clearSession();
          setUser(null);
        }
        // Other failures (server unreachable, 5xx) keep the token: it may still be good on the next load.
      })
      .finally(() => {
        if (!controller.signal.aborted && !sessionExpiryHandled) setLoading(false);
      });
    return () => controller.abort();
  }, []);

  const mergeUser = useCallback<AuthContextValue['mergeUser']>((patch) => {
    setUser((current) => (current ? ({ ...current, ...patch } as User) : current));
  }, []);

  const refetch = useCallback(async (): Promise<User | null> => {
    if (!getToken()) {
      setUser(null);
      return null;
    }
    try {
      const fetched = await getUser();
      setUser(fetched);
      return fetched;
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        setUser(null);
        return null;
      }
      throw error;
    }
  }, []);

  const login = useCallback(async (session: TokenResponse): Promise<User> => {
    saveSession(session.token, session.expires_at);
    try {
      const fetched = await getUser();
      setUser(fetched);
      return fetched;
    } catch (error) {
      clearSession();
      throw error;
    }
  }, []);

  const logout = useCallback(async (): Promise<void> => {
    try {
      await logoutRequest();
    } catch {
      // Spec §4: a failed logout call is ignored; the local session ends regardless.
    }
    clearSession();
    // The user is dropped only once '/' is on screen (effect below): were it dropped first, the guard of
    // the signed-in page still showing would send the visitor to /login instead.
    setSigningOut(true);
    await navigate(paths.home);
  }, [navigate]);

  useEffect(() => {
    if (!signingOut || pathname !== paths.home) return;
    setUser(null);
    queryClient.clear();
    setSigningOut(false);
  }, [signingOut, pathname, queryClient]);

  // Spec §4: every 60 s the stored expiry is checked; a passed expiry logs out with a warning.
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (getToken() && isTokenExpired()) {
        notify('warning', messages.session.expired);
        void logout();
      }
    }, SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [logout]);

  const value = useMemo<AuthContextValue>(
    () => ({ user, loading, setUser, mergeUser, refetch, login, logout }),
    [user, loading, mergeUser, refetch, login, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

function SearchTypeProvider({ children }: { children: ReactNode }) {
  const [searchType, setSearchType] = useState<SearchType>(DEFAULT_SEARCH_TYPE);
  const value = useMemo(() => ({ searchType, setSearchType }), [searchType]);
  return <SearchTypeContext.Provider value={value}>{children}</SearchTypeContext.Provider>;
}

/** Mounts the toast area once the browser is idle after the first paint, not in its way. */
function LateToasts() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => setReady(true), { timeout: 1500 });
    return () => cancel(handle);
  }, []);
  return ready ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

export default function AppRoot() {
  return (
    <AuthProvider>
      <SearchTypeProvider>
        {/* Every navigation opens its page at the top (on a phone the last page's scroll would hide the
            new one's start); Back and Forward return to where that page was left. */}
        <ScrollRestoration />
        <Outlet />
        <LateToasts />
      </SearchTypeProvider>
    </AuthProvider>
  );
}
