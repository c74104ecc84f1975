import { LOGOUT_DELAY_MS } from '@footprint/domain';
import { useCallback, useState } from 'react';
import { useAuth } from '../../../lib/auth-context.ts';

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/**
 * The logout flow shared by the sidebar, the drawer and the profile menu (spec §2.4): show
 * 'Logging out...', wait about 2 s, then call the server and leave for '/'. A second press while it
 * runs does nothing.
 */
export function useLogout(): { loggingOut: boolean; startLogout: () => void } {
  const { logout } = useAuth();
  const [loggingOut, setLoggingOut] = useState(false);

  const run = useCallback(async () => {
    if (loggingOut) return;
    setLoggingOut(true);
    await wait(LOGOUT_DELAY_MS);
    await logout();
  }, [loggingOut, logout]);

  return { loggingOut, startLogout: () => void run() };
}
