import type { BulkJob } from '@footprint/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import { bulkListKey } from './listBulkJobs.ts';
import { type BulkInput, bodyOf } from './previewBulk.ts';

/** POST /api/bulk: starts the job (202) on the very input the preview priced; the list then shows it. */
export function useStartBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkInput) => request<BulkJob>('/api/bulk', { method: 'POST', body: bodyOf(input) }),
    onSuccess: (job) => {
      queryClient.setQueryData<BulkJob[]>(bulkListKey, (jobs) => [
        job,
        ...(jobs ?? []).filter((j) => j.id !== job.id),
      ]);
      void queryClient.invalidateQueries({ queryKey: bulkListKey });
    },
  });
}
