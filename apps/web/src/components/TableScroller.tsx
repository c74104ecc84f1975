import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

/**
 * Whether the element's content is wider than its frame, followed as the frame and its content resize
 * (the window, a phone turned, rows loaded).
 */
function useOverflows(enabled: boolean) {
  const ref = useRef<HTMLElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const check = () => setOverflows(element.scrollWidth - element.clientWidth > 1);
    check();
    const resized = new ResizeObserver(check);
    resized.observe(element);
    for (const child of Array.from(element.children)) resized.observe(child);
    return () => resized.disconnect();
  }, [enabled]);
  return { ref, overflows: enabled && overflows };
}

/**
 * The frame of a wide table: on a narrow screen the table scrolls sideways inside it rather than
 * stretching the page. The frame is a named, focusable region so a keyboard can scroll it too. With
 * `stickyEnds` the row's action (the last column) and, on wide screens, its first column stay in the
 * frame while the columns between them scroll. With `scrollHint`, a line under the frame says so while
 * some columns are out of it (a phone, a narrow window), and a shade marks the frame's right edge.
 */
export function TableScroller({
  label,
  children,
  busy = false,
  stickyEnds = false,
  scrollHint,
}: {
  /** The region's accessible name, e.g. 'Lookups'. */
  label: string;
  children: ReactNode;
  /** Dims the rows while a new page loads over the old one. */
  busy?: boolean;
  /** Keeps the first and last columns in view (styles.css `.table-scroll-ends`). */
  stickyEnds?: boolean;
  /** Shown under the frame while the table is wider than it, e.g. 'Scroll the table sideways…'. */
  scrollHint?: string;
}) {
  const { ref, overflows } = useOverflows(Boolean(scrollHint));
  const hintId = useId();
  const classes = ['table-scroll', stickyEnds && 'table-scroll-ends', overflows && 'table-scroll-more']
    .filter(Boolean)
    .join(' ');
  return (
    <>
      <section
        ref={ref}
        className={classes}
        aria-label={label}
        aria-busy={busy}
        aria-describedby={overflows ? hintId : undefined}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        tabIndex={0}
      >
        {children}
      </section>
      {overflows && (
        <p id={hintId} className="mt-1.5 flex items-center gap-1.5 px-1 text-xs text-muted">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-4 shrink-0"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M7 8l-4 4 4 4M17 8l4 4-4 4M3 12h18" />
          </svg>
          {scrollHint}
        </p>
      )}
    </>
  );
}

export default TableScroller;
