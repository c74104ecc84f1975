import { messages, type Watch } from '@footprint/domain';
import { useId } from 'react';
import { QueryView } from '../../../components/LoadError.tsx';
import { useWatchEvents } from '../api/watchEvents.ts';
import { shownQuery } from '../format.ts';
import { EventItem } from './EventItem.tsx';

const t = messages.watchlist;

export function EventsPanel({ watch }: { watch: Watch }) {
  const id = useId();
  const events = useWatchEvents(watch.id);
  return (
    <section aria-labelledby={`${id}-title`} className="card h-fit px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.events}
      </h2>
      <p className="mt-1 text-xs break-all text-muted">
        {t.kinds[watch.kind]} · <span className="font-mono">{shownQuery(watch)}</span>
      </p>
      <div className="mt-3">
        <QueryView
          query={events}
          failed={messages.history.loadFailed}
          retryLabel={messages.history.retry}
          empty={t.noEvents}
          isEmpty={(data) => data.length === 0}
        >
          {(data) => (
            <ol className="flex flex-col divide-y divide-line/70">
              {data.map((event) => (
                <EventItem key={event.id} event={event} />
              ))}
            </ol>
          )}
        </QueryView>
      </div>
    </section>
  );
}
