import type { BulkJob } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import type { BulkAction } from '../list.ts';
import { bulkJobUrl, useUpdateJobInList } from './listBulkJobs.ts';

/** POST /api/bulk/{id}/pause | resume | cancel; a 409 says the job's status does not allow it. */
export function useJobAction() {
  const update = useUpdateJobInList();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: BulkAction }) =>
      request<BulkJob>(`${bulkJobUrl(id)}/${action}`, { method: 'POST', body: {} }),
    onSuccess: update,
  });
}
