import type { HistoryDetail } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * GET /api/history/{id}: one of the user's own lookups with its stored result. Reopening is free; the
 * server notes it in the audit trail ('history.view') and answers 410 once the result is purged.
 * Started from a click (a mutation), so it runs once per click and never in the background.
 */
export function getHistoryEntry(id: string): Promise<HistoryDetail> {
  return api.get<HistoryDetail>(`/api/history/${encodeURIComponent(id)}`);
}

export function useOpenHistoryEntry() {
  return useMutation({ mutationFn: getHistoryEntry });
}
