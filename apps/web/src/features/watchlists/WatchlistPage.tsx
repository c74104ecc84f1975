import { messages } from '@footprint/domain';
import { useState } from 'react';
import { QueryView } from '../../components/LoadError.tsx';
import { useWatches } from './api/listWatches.ts';
import { EventsPanel } from './components/EventsPanel.tsx';
import { WatchCard } from './components/WatchCard.tsx';

/**
 * /watchlist (beyond the spec): the live user's watched searches. Each runs again on its schedule,
 * charged like a lookup; a run that finds a change is listed under its watch and e-mailed. A watch
 * stopped because credits ran out says so and resumes after a top-up.
 */

const t = messages.watchlist;

export default function WatchlistPage() {
  const watches = useWatches();
  const [selected, setSelected] = useState<string | null>(null);
  const list = watches.data ?? [];
  const shown = list.find((watch) => watch.id === selected) ?? list[0] ?? null;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <p className="eyebrow">{t.eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <section aria-label={t.title} className="min-w-0">
          <QueryView
            query={watches}
            failed={messages.history.loadFailed}
            retryLabel={messages.history.retry}
            empty={t.empty}
            isEmpty={(data) => data.length === 0}
          >
            {(data) => (
              <ul className="flex flex-col gap-3">
                {data.map((watch) => (
                  <WatchCard
                    key={watch.id}
                    watch={watch}
                    selected={shown?.id === watch.id}
                    onSelect={() => setSelected(watch.id)}
                  />
                ))}
              </ul>
            )}
          </QueryView>
        </section>
        {shown && <EventsPanel watch={shown} />}
      </div>
    </div>
  );
}
