import type { ReactNode } from 'react';

/**
 * The frame of a wide table: on a narrow screen the table scrolls sideways inside it rather than
 * stretching the page. The frame is a named, focusable region so a keyboard can scroll it too.
 */
export function TableScroller({
  label,
  children,
  busy = false,
}: {
  /** The region's accessible name, e.g. 'Lookups'. */
  label: string;
  children: ReactNode;
  /** Dims the rows while a new page loads over the old one. */
  busy?: boolean;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className="table-scroll" aria-label={label} aria-busy={busy} tabIndex={0}>
      {children}
    </section>
  );
}

export default TableScroller;
