import { messages } from '@footprint/domain';

const sizes = {
  sm: 'size-4 border-2',
  md: 'size-8 border-[3px]',
  lg: 'size-12 border-4',
} as const;

export interface SpinnerProps {
  size?: keyof typeof sizes;
  /** Read by screen readers; the spinner itself is decorative. */
  label?: string;
  className?: string;
  /** Inside a control that already says what is happening: hidden from assistive technology. */
  decorative?: boolean;
}

/** A small rotating ring announced as a status ("Loading" by default). */
export function Spinner({
  size = 'md',
  label = messages.layout.loading,
  className = '',
  decorative = false,
}: SpinnerProps) {
  if (decorative) {
    return (
      <span
        aria-hidden="true"
        className={`${sizes[size]} inline-block shrink-0 animate-spin rounded-full border-current/25 border-t-current ${className}`}
      />
    );
  }
  return (
    <span role="status" className={`inline-flex items-center justify-center ${className}`}>
      <span
        aria-hidden="true"
        className={`${sizes[size]} animate-spin rounded-full border-accent/25 border-t-accent motion-reduce:animate-[spin_1.5s_linear_infinite]`}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Fills the viewport while a whole page waits (auth state, lazy routes). */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="grid min-h-dvh place-items-center bg-ink">
      <Spinner size="lg" label={label} />
    </div>
  );
}

export default Spinner;
