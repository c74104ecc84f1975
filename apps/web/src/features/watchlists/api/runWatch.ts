import type { WatchRun } from '@footprint/domain';
import { request } from '../../../lib/api.ts';
import { useWatchMutation, watchUrl } from './listWatches.ts';

/** POST /api/watches/{id}/run: runs the watched search now, a paid search like any other. */
export const useRunWatch = () =>
  useWatchMutation((id: string) => request<WatchRun>(`${watchUrl(id)}/run`, { method: 'POST', body: {} }));
