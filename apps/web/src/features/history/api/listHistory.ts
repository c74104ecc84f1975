import type { HistoryEntry, HistoryItem, Page } from '@footprint/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const HISTORY_PAGE_SIZE = 25;
/** The rows of a bulk job shown at a time when its entry is expanded. */
export const JOB_ROWS_PAGE_SIZE = 10;

export interface HistoryParams {
  page: number;
  /** A lookup kind ('tel', 'email', 'leak', ...), or undefined for all. */
  kind?: string | undefined;
  /** Only the searches filed under this case. */
  caseId?: string | undefined;
  /** Only the rows of this bulk job. */
  jobId?: string | undefined;
  /** 'unit': the searches of everyone in the units the user supervises (and below), each with its user. */
  scope?: HistoryScope | undefined;
}

/** Whose searches the list shows: the user's own, or those of the units they supervise. */
export type HistoryScope = 'mine' | 'unit';

/** Who ran a search, on the entries of the `scope=unit` list. */
export interface HistoryUser {
  id: string;
  name: string;
  email: string;
}

/**
 * GET /api/history?page&per_page&kind&case_id&job_id&group=job: the user's own lookups, newest first,
 * each bulk job one entry (its rows are listed by `useJobRows`). With `scope=unit`: the same for
 * everyone in the units the user supervises, each lookup carrying its `user`.
 */
export function listHistory(
  { page, kind, caseId, jobId, scope }: HistoryParams,
  signal?: AbortSignal,
): Promise<Page<HistoryItem>> {
  return api
    .get<Page<HistoryEntry | HistoryItem>>('/api/history', {
      query: {
        page,
        per_page: HISTORY_PAGE_SIZE,
        kind,
        case_id: caseId,
        job_id: jobId,
        group: jobId ? undefined : 'job',
        scope: scope === 'unit' ? 'unit' : undefined,
      },
      signal,
    })
    .then((answer) => ({
      ...answer,
      // A job's own rows come without a type: each is a lookup.
      data: answer.data.map((item): HistoryItem => ('type' in item ? item : { type: 'lookup', ...item })),
    }));
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

/**
 * A page of one bulk job's rows (GET /api/history?job_id), for its expanded entry; in the units' list
 * (`scope=unit`) the job may be someone else's, whose rows only that scope lists.
 */
export function useJobRows(jobId: string, page: number, scope: HistoryScope = 'mine') {
  return useQuery({
    queryKey: ['history', 'job-rows', jobId, page, scope],
    queryFn: ({ signal }) =>
      api.get<Page<HistoryEntry>>('/api/history', {
        query: {
          job_id: jobId,
          page,
          per_page: JOB_ROWS_PAGE_SIZE,
          scope: scope === 'unit' ? 'unit' : undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
