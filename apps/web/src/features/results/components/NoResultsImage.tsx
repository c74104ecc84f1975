import { messages } from '@footprint/domain';

export function NoResultsImage() {
  return (
    <svg
      viewBox="0 0 160 120"
      role="img"
      aria-label={messages.results.noResults}
      className="h-32 w-auto sm:h-40"
    >
      <rect
        x="18"
        y="22"
        width="92"
        height="70"
        rx="10"
        className="fill-surface-2 stroke-line"
        strokeWidth="2"
      />
      <rect x="30" y="38" width="48" height="6" rx="3" className="fill-line" />
      <rect x="30" y="52" width="64" height="6" rx="3" className="fill-line" />
      <rect x="30" y="66" width="36" height="6" rx="3" className="fill-line" />
      <circle cx="106" cy="72" r="24" className="fill-ink stroke-accent" strokeWidth="5" />
      <path d="m123 89 18 18" className="stroke-accent" strokeWidth="8" strokeLinecap="round" />
      <path d="m97 63 18 18M115 63 97 81" className="stroke-muted" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
