import { useCallback, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * Whether the small-screen drawer is open, and the header button that opens it. The drawer remembers
 * the navigation it was opened on, so any navigation (even to the same path, e.g. Email Search while
 * on the dashboard) closes it without an effect.
 */
export function useMenuDrawer() {
  const location = useLocation();
  const [drawerOpenAt, setDrawerOpenAt] = useState<string | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  const close = useCallback((restoreFocus: boolean) => {
    setDrawerOpenAt(null);
    if (restoreFocus) menuButton.current?.focus();
  }, []);

  return {
    open: drawerOpenAt === location.key,
    show: () => setDrawerOpenAt(location.key),
    close,
    menuButton,
  };
}
