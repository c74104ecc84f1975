import { messages } from '@footprint/domain';
import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import { focusableSelector, rememberFocus } from './focus.ts';

/**
 * A modal dialog rendered over the page: `role="dialog"`, `aria-modal`, labelled by its title, focus
 * kept inside while open and given back to whatever had it before (`rememberFocus`: its row or section
 * when that control is gone), Escape and the backdrop close it,
 * and the page behind does not scroll. Render it only while it is open.
 */

/** Open modals, so that nested ones lock and unlock page scroll once. */
let openCount = 0;
/** Open modals in the order they opened: only the top one answers keys that reach the document. */
const openStack: object[] = [];
let savedOverflow = '';
let savedPadding = '';

function lockScroll(): void {
  openCount += 1;
  if (openCount > 1) return;
  const root = document.documentElement;
  // The scrollbar disappears with overflow hidden; pad by its width so the page does not jump sideways.
  const scrollbar = window.innerWidth - root.clientWidth;
  savedOverflow = root.style.overflow;
  savedPadding = root.style.paddingRight;
  root.style.overflow = 'hidden';
  if (scrollbar > 0) root.style.paddingRight = `${scrollbar}px`;
}

function unlockScroll(): void {
  openCount = Math.max(0, openCount - 1);
  if (openCount > 0) return;
  const root = document.documentElement;
  root.style.overflow = savedOverflow;
  root.style.paddingRight = savedPadding;
}

export interface ModalProps {
  /** Shown as the dialog's heading and used as its accessible name. */
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons after the body; a 'Close' button is always added last. */
  actions?: ReactNode;
  /** Where focus goes on open; by default the first focusable element of the body, else 'Close'. */
  initialFocus?: RefObject<HTMLElement | null>;
  size?: 'md' | 'lg' | 'xl';
  /** 'bare' drops the frame (for the full-size image view): only the content and a close button. */
  variant?: 'card' | 'bare';
  /** Optional text under the title, tied to the dialog as its description. */
  description?: ReactNode;
  /** Hides the footer 'Close' button (the header close button stays). */
  hideFooterClose?: boolean;
}

const widths = { md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-4xl' } as const;

function CloseIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      aria-hidden="true"
      focusable="false"
      className="size-5"
    >
      <path d="M6 6l12 12M18 6 6 18" />
    </svg>
  );
}

export function Modal({
  title,
  onClose,
  children,
  actions,
  initialFocus,
  size = 'md',
  variant = 'card',
  description,
  hideFooterClose = false,
}: ModalProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const descriptionId = `${id}-description`;
  const panel = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const headerClose = useRef<HTMLButtonElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useLayoutEffect(() => {
    lockScroll();
    return unlockScroll;
  }, []);

  // A body taller than the dialog scrolls; with nothing focusable in it (RC details, a long challan
  // list) the keyboard could not reach the rest, so the body itself takes the focus while it overflows.
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const element = body.current;
    if (!element || variant === 'bare') return;
    const check = () => setOverflowing(element.scrollHeight > element.clientHeight + 1);
    check();
    const resized = new ResizeObserver(check);
    resized.observe(element);
    const changed = new MutationObserver(check);
    changed.observe(element, { childList: true, subtree: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, [variant]);

  useEffect(() => {
    // Noted before the focus moves in: closing gives it back to the control that opened the dialog,
    // or, when that control is gone or disabled by then, to the row or section it was in.
    const giveBack = rememberFocus();
    const target =
      initialFocus?.current ??
      body.current?.querySelector<HTMLElement>(focusableSelector) ??
      closeButton.current ??
      headerClose.current;
    target?.focus();
    return giveBack;
  }, [initialFocus]);

  // Focus can leave the dialog without a key: a click on a toast's close button, or on a control that
  // then goes away. Escape still closes it, and Tab brings focus back into it.
  useEffect(() => {
    const self = {};
    openStack.push(self);
    const onDocumentKey = (event: globalThis.KeyboardEvent) => {
      if (openStack[openStack.length - 1] !== self || event.defaultPrevented) return;
      if (!panel.current || panel.current.contains(document.activeElement)) return;
      if (event.key === 'Escape') {
        onCloseRef.current();
      } else if (event.key === 'Tab') {
        event.preventDefault();
        const items = Array.from(panel.current.querySelectorAll<HTMLElement>(focusableSelector)).filter(
          (el) => el.offsetParent !== null,
        );
        (event.shiftKey ? items[items.length - 1] : items[0])?.focus();
      }
    };
    document.addEventListener('keydown', onDocumentKey);
    return () => {
      document.removeEventListener('keydown', onDocumentKey);
      openStack.splice(openStack.indexOf(self), 1);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(focusableSelector)).filter(
      (el) => el.offsetParent !== null || el === document.activeElement,
    );
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    const onPanel = active === panel.current || !panel.current.contains(active);
    if (event.shiftKey && (active === first || onPanel)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || onPanel)) {
      event.preventDefault();
      first.focus();
    }
  };

  const bare = variant === 'bare';

  return createPortal(
    <div className="fixed inset-0 z-[90] flex items-end justify-center sm:items-center sm:p-6">
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        className={`backdrop-enter absolute inset-0 cursor-default ${bare ? 'bg-ink/95' : 'bg-ink/80 backdrop-blur-sm'}`}
        onClick={() => onCloseRef.current()}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        // A click on the dialog's text keeps the focus in the dialog rather than dropping it on the page.
        tabIndex={-1}
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        onKeyDown={onKeyDown}
        className={
          bare
            ? 'modal-enter relative flex max-h-dvh w-full max-w-5xl flex-col items-center p-4 outline-none'
            : `modal-enter relative flex max-h-[92dvh] outline-none w-full ${widths[size]} flex-col overflow-hidden rounded-t-2xl border border-line bg-surface shadow-2xl shadow-black/60 sm:rounded-2xl`
        }
      >
        <div
          className={
            bare
              ? 'flex w-full items-center justify-between gap-3 pb-3'
              : 'flex items-start justify-between gap-3 border-b border-line px-5 py-4'
          }
        >
          <div className="min-w-0">
            <h2 id={titleId} className="truncate text-base font-semibold text-text sm:text-lg">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="mt-0.5 truncate text-xs text-muted sm:text-sm">
                {description}
              </p>
            )}
          </div>
          <button
            ref={headerClose}
            type="button"
            aria-label={bare ? messages.details.close : `${messages.details.close} dialog`}
            onClick={() => onCloseRef.current()}
            className="-mr-1 inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-accent"
          >
            <CloseIcon />
          </button>
        </div>
        <div
          ref={body}
          {...(overflowing ? { tabIndex: 0, role: 'region', 'aria-labelledby': titleId } : {})}
          className={
            bare
              ? 'flex min-h-0 w-full flex-1 justify-center'
              : 'min-h-0 flex-1 overflow-y-auto px-5 py-4 focus-visible:outline-offset-[-2px]'
          }
        >
          {children}
        </div>
        {!bare && (actions || !hideFooterClose) && (
          <div className="flex flex-wrap items-center justify-end gap-2 border-t border-line bg-night/60 px-5 py-3">
            {actions}
            {!hideFooterClose && (
              <button
                ref={closeButton}
                type="button"
                className="btn-ghost"
                onClick={() => onCloseRef.current()}
              >
                {messages.details.close}
              </button>
            )}
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
}

export default Modal;
