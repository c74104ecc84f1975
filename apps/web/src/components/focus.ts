/**
 * Where the keyboard focus goes back to when something that took it goes away (a dialog closing), and
 * how to move it to content that replaced the control the user was on. Shared by every dialog
 * (`Modal`), so that focus never drops to the page's body (WCAG 2.4.3 focus order).
 */

/** The element that had the focus last, so that an opener disabled while it worked is still known. */
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (event) => {
      if (event.target instanceof HTMLElement) lastFocused = event.target;
    },
    true,
  );
}

/** Whether `el` can take the focus now: on the page, shown, not disabled and not inert. */
export function canFocus(el: Element | null | undefined): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.isConnected || el === document.body) return false;
  if (el.matches(':disabled') || el.closest('[inert]')) return false;
  return el.getClientRects().length > 0;
}

/**
 * What has the focus, or had it last: a button that started a request and was disabled meanwhile
 * has lost the focus to the body, yet is still what the user acted on.
 */
export function focusedOrLast(): HTMLElement | null {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body) return active;
  return lastFocused?.isConnected ? lastFocused : null;
}

/**
 * Focuses `el`, making it focusable by script (tabindex -1) when it is not by itself: a heading, a
 * list item, a section. Returns whether it has the focus now.
 */
export function focusElement(el: HTMLElement | null | undefined, options?: FocusOptions): boolean {
  if (!el?.isConnected) return false;
  if (!el.matches(focusableSelector) && !el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.focus(options);
  return document.activeElement === el;
}

export const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** The containers around a control that still make sense to land on when the control is gone. */
const containers = 'li, tr, article, section, form, fieldset, [role="region"], [role="dialog"]';

/** How long after a dialog closed a vanishing target is still followed (a list read again, say). */
const WATCH_MS = 4000;

/**
 * Notes what has the focus now (or had it last), to give the focus back later: call it before moving
 * the focus away, and call what it returns when done. The focus goes back to that element when it can
 * still take it; when it was removed or disabled meanwhile (a revoked key's Revoke button, a cancelled
 * job's Cancel), to the nearest container around it that is still on the page (its row, card or
 * section), else to the page's main heading. For a few seconds after, if that element goes away
 * while it has the focus (the list it was in is read again), the focus moves on the same way.
 */
export function rememberFocus(opener: HTMLElement | null = focusedOrLast()): () => void {
  const around: HTMLElement[] = [];
  for (let node = opener?.parentElement; node && node !== document.body; node = node.parentElement) {
    if (node.matches(containers)) around.push(node);
  }
  const land = (): boolean => {
    if (canFocus(opener)) {
      opener.focus();
      if (document.activeElement === opener) return true;
    }
    for (const container of around) {
      if (container.isConnected && container.getClientRects().length > 0 && focusElement(container)) {
        return true;
      }
    }
    const main = document.querySelector<HTMLElement>('main');
    return focusElement(main?.querySelector<HTMLElement>('h1') ?? main);
  };
  return () => {
    if (!land()) return;
    const target = document.activeElement;
    const lost = () => {
      const active = document.activeElement;
      return !active || active === document.body;
    };
    const watch = new MutationObserver(() => {
      if (document.activeElement !== target && !lost()) {
        stop();
      } else if (lost()) {
        stop();
        land();
      }
    });
    const stop = () => {
      watch.disconnect();
      clearTimeout(timer);
    };
    const timer = setTimeout(stop, WATCH_MS);
    watch.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['disabled'],
    });
  };
}
