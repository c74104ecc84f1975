import type { HistoryEntry, Page } from '@footprint/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const HISTORY_PAGE_SIZE = 25;

export interface HistoryParams {
  page: number;
  /** A lookup kind ('tel', 'email', 'leak', ...), or undefined for all. */
  kind?: string;
}

/** GET /api/history?page&per_page&kind: the user's own lookups, newest first. */
export function listHistory(
  { page, kind }: HistoryParams,
  signal?: AbortSignal,
): Promise<Page<HistoryEntry>> {
  return api.get<Page<HistoryEntry>>('/api/history', {
    query: { page, per_page: HISTORY_PAGE_SIZE, kind },
    signal,
  });
}

export const historyKey = (params: HistoryParams) => ['history', params] as const;

/** The previous page stays on screen while the next one loads, so the table does not jump. */
export function useHistory(params: HistoryParams) {
  return useQuery({
    queryKey: historyKey(params),
    queryFn: ({ signal }) => listHistory(params, signal),
    placeholderData: keepPreviousData,
  });
}
