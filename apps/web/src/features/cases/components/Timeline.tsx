import { type CaseDetail, messages } from '@footprint/domain';
import { useId } from 'react';
import { formatDate, formatDateTime } from '../../../lib/datetime.ts';

const t = messages.cases;

/** The dated facts of the case, oldest first. */
export function Timeline({ detail }: { detail: CaseDetail }) {
  const id = useId();
  const entries = detail.timeline ?? [];
  const when = (at: string) => (at.length === 10 ? formatDate(at) : formatDateTime(at));
  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.timelineTitle} <span className="section-count">{entries.length}</span>
      </h2>
      <p className="mt-1 text-sm text-muted">{t.timelineLead}</p>
      {entries.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t.timelineEmpty}</p>
      ) : (
        <ol className="timeline mt-3" aria-label={t.timelineTitle}>
          {entries.map((entry) => (
            // The server drops duplicate entries: the four fields together are unique.
            <li
              key={`${entry.lookup_id}|${entry.at}|${entry.source}|${entry.label}`}
              className="timeline-item"
            >
              <p className="timeline-date">{when(entry.at)}</p>
              <p className="text-sm text-text">{entry.label}</p>
              <p className="timeline-source text-xs text-muted">
                {entry.source === 'Footprint' ? t.timelineSearch : entry.source}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
