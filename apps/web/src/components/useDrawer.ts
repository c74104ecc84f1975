import { useEffect } from 'react';

/**
 * The behaviour shared by the mobile navigation drawers: Escape closes (returning focus), widening to
 * the desktop breakpoint closes (without moving focus), and the page behind does not scroll.
 */
export function useDrawer(open: boolean, close: (restoreFocus: boolean) => void, desktopQuery: string): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    const desktop = window.matchMedia(desktopQuery);
    const onDesktop = () => {
      if (desktop.matches) close(false);
    };
    const root = document.documentElement;
    const previousOverflow = root.style.overflow;
    root.style.overflow = 'hidden';
    document.addEventListener('keydown', onKey);
    desktop.addEventListener('change', onDesktop);
    return () => {
      root.style.overflow = previousOverflow;
      document.removeEventListener('keydown', onKey);
      desktop.removeEventListener('change', onDesktop);
    };
  }, [open, close, desktopQuery]);
}
