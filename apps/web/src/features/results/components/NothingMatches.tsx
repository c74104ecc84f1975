import { messages } from '@footprint/domain';

const t = messages.results;

/** The filter matched nothing: says so, with a way back. */
export function NothingMatches({ query, onClear }: { query: string; onClear: () => void }) {
  return (
    <div role="status" className="card flex flex-col items-center gap-3 p-8 text-center">
      <p className="text-sm font-semibold text-text">{t.nothingMatches(query.trim())}</p>
      <button type="button" className="btn-ghost" onClick={onClear}>
        {t.clearFilter}
      </button>
    </div>
  );
}
