import { messages, type SourceLabel, type TimelineEvent } from '@footprint/domain';
import { useId } from 'react';
import { SourceChip } from './SourceChip.tsx';

const t = messages.results;

/** The dated events of the answer, oldest first. */
export function Timeline({ events }: { events: TimelineEvent[] }) {
  const id = useId();
  if (events.length === 0) return null;
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <h2 id={id} className="section-title">
        {t.timeline}
        <span className="section-count">{events.length}</span>
      </h2>
      <ol className="timeline mt-3">
        {events.map((event) => (
          <li key={`${event.date}|${event.event}|${event.source}`} className="timeline-item">
            <span className="timeline-date">{event.date}</span>
            <span className="min-w-0 text-sm break-words text-text">{event.event}</span>
            <span className="timeline-source">
              <SourceChip source={event.source as SourceLabel} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
