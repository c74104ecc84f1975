import { messages } from '@footprint/domain';
import type { ReactNode } from 'react';
import { Chevron } from '../../../components/Icon.tsx';

const t = messages.results;

/** The raw per-source records, folded away: every value as each source gave it. */
export function SourceRecords({ children, forceOpen }: { children: ReactNode; forceOpen?: boolean }) {
  return (
    <details className="source-records group" open={forceOpen || undefined}>
      <summary className="source-panel-summary">
        <span className="results-heading">{t.sourceRecords}</span>
        <span className="min-w-0 text-xs text-muted">{t.sourceRecordsHint}</span>
        <Chevron className="ml-auto size-4" turn="group-open:rotate-180" />
      </summary>
      <div className="space-y-6 px-1 pt-4 pb-2 sm:px-2">{children}</div>
    </details>
  );
}
