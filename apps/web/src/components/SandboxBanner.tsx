import { SANDBOX_BANNER } from '@footprint/domain';
import { Icon } from './Icon.tsx';

/**
 * 'Sandbox data — synthetic': shown above an answer only when some value it shows came from a sandbox
 * source (the domain's `showsSyntheticData`), never merely because the deployment runs the sandbox.
 */
export function SandboxBanner({ className = '' }: { className?: string }) {
  return (
    <p role="note" className={`sandbox-banner ${className}`.trim()}>
      <Icon
        d="M9 3h6M10 3v6.5L4.5 18a2 2 0 0 0 1.7 3h11.6a2 2 0 0 0 1.7-3L14 9.5V3M7 15h10"
        className="size-4"
        strokeWidth={2}
      />
      {SANDBOX_BANNER}
    </p>
  );
}
