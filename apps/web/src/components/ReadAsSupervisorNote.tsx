import { messages } from '@footprint/domain';
import { Icon } from './Icon.tsx';

/** Who ran a search the signed-in user reads as their supervisor (GET /api/history/{id} `user`). */
export interface Searcher {
  name: string;
  email: string;
}

const eye = 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z';

/**
 * 'Search by NAME (email), read as their supervisor.' above a reopened result that is someone else's,
 * with, when given, what that leaves out (`hint`: the reports and Add to case are theirs alone).
 */
export function ReadAsSupervisorNote({
  searcher,
  hint,
  className = '',
}: {
  searcher: Searcher;
  hint?: string;
  className?: string;
}) {
  const u = messages.units.history;
  return (
    <div
      role="note"
      className={`flex items-start gap-2.5 rounded-lg border border-accent/40 bg-accent-soft/30 px-3 py-2 text-sm text-text ${className}`.trim()}
    >
      <Icon d={eye} className="mt-0.5 size-4 text-accent" strokeWidth={2} />
      <div className="min-w-0">
        <p className="font-medium break-words">{u.readAs(searcher.name, searcher.email)}</p>
        {hint && <p className="mt-0.5 text-xs text-muted">{hint}</p>}
      </div>
    </div>
  );
}
