import type { ReactNode } from 'react';

/**
 * The frame of a wide table: on a narrow screen the table scrolls sideways inside it rather than
 * stretching the page. The frame is a named, focusable region so a keyboard can scroll it too. With
 * `stickyEnds` the row's action (the last column) and, on wide screens, its first column stay in the
 * frame while the columns between them scroll.
 */
export function TableScroller({
  label,
  children,
  busy = false,
  stickyEnds = false,
}: {
  /** The region's accessible name, e.g. 'Lookups'. */
  label: string;
  children: ReactNode;
  /** Dims the rows while a new page loads over the old one. */
  busy?: boolean;
  /** Keeps the first and last columns in view (styles.css `.table-scroll-ends`). */
  stickyEnds?: boolean;
}) {
  return (
    <section
      className={stickyEnds ? 'table-scroll table-scroll-ends' : 'table-scroll'}
      aria-label={label}
      aria-busy={busy}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
      tabIndex={0}
    >
      {children}
    </section>
  );
}

export default TableScroller;
