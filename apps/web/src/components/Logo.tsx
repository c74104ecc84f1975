import { messages } from '@footprint/domain';
import { Link } from 'react-router';

type LogoSize = 'sm' | 'md' | 'lg';

const markSize: Record<LogoSize, string> = { sm: 'size-7', md: 'size-9', lg: 'size-12' };
const titleSize: Record<LogoSize, string> = { sm: 'text-base', md: 'text-lg', lg: 'text-2xl' };

/** One right footprint drawn around the origin, toes up; mirror it with a negative x scale for the left. */
function Foot({ transform, className }: { transform: string; className?: string }) {
  return (
    <g transform={transform} className={className}>
      <path d="M0-6C3-6 4.2-3 3.8 0 3.5 2.5 2.6 3.5 2.7 5.5 2.8 7.8 1.5 9 0 9S-2.8 7.8-2.6 5.8C-2.4 3.8-3.6 2.4-3.8 0-4.1-3-3-6 0-6Z" />
      <circle cx="-2.3" cy="-8.9" r="1.5" />
      <circle cx="0.4" cy="-9.7" r="1.15" />
      <circle cx="2.3" cy="-9.1" r="1" />
      <circle cx="3.8" cy="-7.8" r="0.85" />
    </g>
  );
}

/** The footprints mark alone: decorative, so it is hidden from assistive technology. */
export function LogoMark({ className = 'size-9' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" fill="none" aria-hidden="true" focusable="false" className={className}>
      <rect
        x="0.75"
        y="0.75"
        width="30.5"
        height="30.5"
        rx="8"
        className="fill-accent-soft/70 stroke-accent/40"
      />
      <g className="fill-accent">
        <Foot transform="translate(10.4 18.8) rotate(-10) scale(-0.85 0.85)" />
        <Foot transform="translate(21.6 12.4) rotate(10) scale(0.85)" className="opacity-75" />
      </g>
    </svg>
  );
}

export interface LogoProps {
  /** When set, the mark and the brand title form one link to this path (spec §2.2: on /login it goes to /). */
  to?: string;
  size?: LogoSize;
  /** Show only the mark; the brand name stays available to screen readers. */
  hideTitle?: boolean;
  className?: string;
  onClick?: () => void;
}

/** The brand: footprints mark plus the branded title "Footprint". */
export function Logo({ to, size = 'md', hideTitle = false, className = '', onClick }: LogoProps) {
  const content = (
    <>
      <LogoMark className={`${markSize[size]} shrink-0`} />
      <span
        className={`${titleSize[size]} font-semibold tracking-tight text-text ${hideTitle ? 'sr-only' : ''}`}
      >
        {messages.brand.slice(0, 4)}
        <span className="text-accent">{messages.brand.slice(4)}</span>
      </span>
    </>
  );
  const base = `inline-flex items-center gap-2.5 ${className}`;
  if (to === undefined) return <span className={base}>{content}</span>;
  return (
    <Link to={to} onClick={onClick} className={`${base} rounded-lg transition-opacity hover:opacity-90`}>
      {content}
    </Link>
  );
}

export default Logo;
