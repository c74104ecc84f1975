import type { Watch, WatchSchedule } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { useWatchMutation, watchUrl } from './listWatches.ts';

/** PATCH /api/watches/{id}: its schedule, or pause and resume. */
export const useUpdateWatch = () =>
  useWatchMutation(
    ({ id, ...patch }: { id: string; schedule?: WatchSchedule; status?: 'active' | 'paused' }) =>
      request<Watch>(watchUrl(id), { method: 'PATCH', body: patch }),
  );
