import type { ReactNode } from 'react';

/** Drawings that more than one control uses. */
export const iconPaths = {
  download: 'M12 4v11M7.5 10.5 12 15l4.5-4.5M5 19h14',
  chevron: 'm6 9 6 6 6-6',
} as const;

/**
 * The app's line icons: a 24×24 stroke drawing in the current text colour, hidden from assistive
 * technology (the control around it carries the name). Give the drawing as `d` (one path) or as
 * children (several shapes).
 */
export function Icon({
  d,
  children,
  className = 'size-4',
  strokeWidth = 1.75,
}: {
  d?: string;
  children?: ReactNode;
  className?: string;
  strokeWidth?: number;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={`${className} shrink-0`}
    >
      {d ? <path d={d} /> : children}
    </svg>
  );
}

/**
 * The chevron of a control that opens and closes: it turns over while `open` (or, with `turn`, on a
 * class of its own, such as a `<details>` group's `group-open:rotate-180`).
 */
export function Chevron({
  open = false,
  turn,
  className = 'size-4',
  strokeWidth = 2,
}: {
  open?: boolean;
  turn?: string;
  className?: string;
  strokeWidth?: number;
}) {
  return (
    <Icon
      d={iconPaths.chevron}
      strokeWidth={strokeWidth}
      className={`${className} transition-transform ${turn ?? (open ? 'rotate-180' : '')}`}
    />
  );
}
