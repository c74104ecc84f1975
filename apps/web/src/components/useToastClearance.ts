import { useCallback } from 'react';

/**
 * Toasts open at the top right, under the header (spec: top-right, 5 s). A page whose actions sit in a
 * bar right under the header (the results pages: New Search, the reports, Add to case) would have them
 * covered by the toast that greets it. Give such a bar the ref this returns: while the bar is on the
 * page, its height is published as `--toast-clearance` on the document and toasts open below it
 * (styles.css), kept current as the bar wraps or grows, and removed with the bar.
 */
export function useToastClearance(): (bar: HTMLElement | null) => (() => void) | undefined {
  return useCallback((bar: HTMLElement | null) => {
    if (!bar) return undefined;
    const root = document.documentElement;
    const update = () => root.style.setProperty('--toast-clearance', `${bar.offsetHeight}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toast-clearance');
    };
  }, []);
}
