import type { ReactNode } from 'react';

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
