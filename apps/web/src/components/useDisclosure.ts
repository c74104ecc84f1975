import { type RefObject, useEffect } from 'react';

/**
 * The behaviour of a small disclosure menu (profile menu, 'Save Results'): when it opens, focus moves
 * to its first item; a pointer down or focus outside it closes it, and Escape closes it and returns
 * focus to its toggle.
 */
export function useDisclosure(
  open: boolean,
  setOpen: (open: boolean) => void,
  refs: {
    wrapper: RefObject<HTMLElement | null>;
    toggle: RefObject<HTMLElement | null>;
    firstItem: RefObject<HTMLElement | null>;
  },
): void {
  useEffect(() => {
    if (!open) return;
    refs.firstItem.current?.focus();
    const outside = (event: Event) => {
      if (!refs.wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        refs.toggle.current?.focus();
      }
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', onKey);
    // Tabbing past the end of the menu closes it too.
    document.addEventListener('focusin', outside);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', outside);
    };
  }, [open, setOpen, refs]);
}
