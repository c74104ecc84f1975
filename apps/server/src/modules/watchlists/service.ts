import type { CreateWatchBody, UpdateWatchBody } from '@footprint/domain';
import type { ListScope } from '../../access/policy.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { createWatchContext, type WatchlistsDeps } from './context.ts';
import { createWatch, listWatches, removeWatch, updateWatch, watchEventsOf } from './manage.ts';
import { runDueWatches, runWatch, runWatchNow } from './run.ts';

export type { WatchlistsDeps } from './context.ts';
export { leakRowsOfKey, type RunResult } from './run.ts';

/**
 * Watchlists: a phone, e-mail, username or leak query run again on its schedule through the existing services,
 * so that each run is a paid search like any other (charged, audited with the watch's id, filed under
 * the case, asked afresh rather than replayed from the cache). Each run's comparable facts are
 * compared with the last run's (domain watchlists.ts); a change is stored as an event and e-mailed.
 * A run the balance does not cover stops the watch and says so once.
 *
 * The scheduling is not here: `runDue` is called by the job queue's tick (jobs.ts), and the routes
 * call `run` for "run now". Both are plain methods tests call directly. The runs are in run.ts, the
 * user's own watches in manage.ts, the stored rows and how they are shown in stored.ts.
 */
export function createWatchlists(deps: WatchlistsDeps) {
  const ctx = createWatchContext(deps);
  return {
    runOne: (watchId: string, client?: ClientContext) => runWatch(ctx, watchId, client),
    runDue: (at?: Date) => runDueWatches(ctx, at),
    create: (user: UserRow, input: CreateWatchBody, client: ClientContext) =>
      createWatch(ctx, user, input, client),
    list: (user: UserRow, scope?: ListScope) => listWatches(ctx, user, scope),
    update: (user: UserRow, id: string, input: UpdateWatchBody, client: ClientContext) =>
      updateWatch(ctx, user, id, input, client),
    remove: (user: UserRow, id: string, client: ClientContext) => removeWatch(ctx, user, id, client),
    events: (user: UserRow, id: string) => watchEventsOf(ctx, user, id),
    run: (user: UserRow, id: string, client: ClientContext) => runWatchNow(ctx, user, id, client),
  };
}

export type Watchlists = ReturnType<typeof createWatchlists>;
