import { request } from '../../../lib/api.ts';
import { useWatchMutation, watchUrl } from './listWatches.ts';

/** DELETE /api/watches/{id}. */
export const useDeleteWatch = () =>
  useWatchMutation((id: string) => request<void>(watchUrl(id), { method: 'DELETE' }));
