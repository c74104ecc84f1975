import { messages } from '@footprint/domain';
import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';
import { useDrawer } from '../../../components/useDrawer.ts';
import { icons } from './icons.tsx';

/** From this width the sidebar is a fixed column and the drawer closes itself. */
const desktopQuery = '(min-width: 64rem)';

const focusableSelector =
  'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** The sidebar as a modal drawer on small screens: Escape, the backdrop and the close button close it. */
export function MobileDrawer({
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
