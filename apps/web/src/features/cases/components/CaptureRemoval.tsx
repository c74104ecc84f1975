import { type CaseCapture, messages } from '@footprint/domain';
import { formatDateTime } from '../../../lib/datetime.ts';

const t = messages.captures;

/**
 * Who removed a capture's files, when and why, and that its manifest stays: on the capture's own page,
 * and compactly under the capture in the case's list.
 */
export function CaptureRemoval({
  removal,
  compact = false,
}: {
  removal: NonNullable<CaseCapture['removal']>;
  compact?: boolean;
}) {
  return (
    <div
      className={
        compact
          ? 'mt-2 rounded-md border border-line bg-night/40 px-3 py-2 text-xs'
          : 'mt-4 rounded-md border border-line bg-surface px-3 py-2 text-sm'
      }
    >
      <p className="text-text">{t.removedBy(removal.by.name, formatDateTime(removal.at))}</p>
      <p className="mt-0.5 break-words text-text">
        <span className="text-muted">{t.removedReason}:</span> {removal.reason}
      </p>
      <p className={compact ? 'mt-0.5 text-muted' : 'mt-0.5 text-xs text-muted'}>{t.removedNote}</p>
    </div>
  );
}
