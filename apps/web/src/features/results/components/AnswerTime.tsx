import { messages } from '@footprint/domain';
import { Icon } from '../../../components/Icon.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import type { AnsweredLine } from '../answered.ts';

const refreshPath = 'M20 11a8 8 0 0 0-14.9-3.9M4 4v4h4M4 13a8 8 0 0 0 14.9 3.9M20 20v-4h-4';

/**
 * 'Answered 04 Mar 2025, 10:32' under the searched value, or for a reused answer 'Answered …, reused'
 * with the case reference of the lookup it reuses; then, when given, the Refresh button.
 */
export function AnswerTime({
  line,
  refresh,
  className = '',
}: {
  line: AnsweredLine;
  refresh?: { onClick: () => void; busy: boolean } | undefined;
  className?: string;
}) {
  const t = messages.answerTime;
  return (
    <p className={`flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted ${className}`}>
      <time dateTime={line.iso} title={line.title} className={line.reused ? 'text-amber-300' : undefined}>
        {line.text}
      </time>
      {line.reusedCase && (
        <span
          className="source-chip chip-slate max-w-full overflow-hidden text-ellipsis"
          title={line.reusedCase}
        >
          {line.reusedCase}
        </span>
      )}
      {refresh && (
        <button
          type="button"
          className="btn-chip gap-1 disabled:cursor-not-allowed disabled:opacity-60"
          title={t.refreshLabel}
          onClick={refresh.onClick}
          disabled={refresh.busy}
        >
          {refresh.busy ? (
            <Spinner size="sm" decorative />
          ) : (
            <Icon d={refreshPath} className="size-3.5" strokeWidth={2} />
          )}
          {refresh.busy ? t.refreshing : t.refresh}
        </button>
      )}
    </p>
  );
}
