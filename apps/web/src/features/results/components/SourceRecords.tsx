import { messages } from '@footprint/domain';
import type { ReactNode } from 'react';

const t = messages.results;

/** The raw per-source records, folded away: every value as each source gave it. */
export function SourceRecords({ children, forceOpen }: { children: ReactNode; forceOpen?: boolean }) {
  return (
    <details className="source-records group" open={forceOpen || undefined}>
      <summary className="source-panel-summary">
        <span className="results-heading">{t.sourceRecords}</span>
        <span className="min-w-0 text-xs text-muted">{t.sourceRecordsHint}</span>
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
          focusable="false"
          className="ml-auto size-4 shrink-0 transition-transform group-open:rotate-180"
        >
          <path d="m6 9 6 6 6-6" />
        </svg>
      </summary>
      <div className="space-y-6 px-1 pt-4 pb-2 sm:px-2">{children}</div>
    </details>
  );
}
