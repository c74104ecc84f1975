import type { BulkJob, BulkPreview, BulkRow, BulkType } from '@footprint/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request, saveBlob } from '../../lib/api.ts';
import { attachmentName } from '../../lib/exports.ts';
import type { BulkAction } from './list.ts';

/** The /api/bulk calls of the /bulk page. */

export const bulkKey = ['bulk'] as const;
const listKey = [...bulkKey, 'list'] as const;
const rowsKey = (id: string, page: number) => [...bulkKey, 'rows', id, page] as const;
const base = (id: string) => `/api/bulk/${encodeURIComponent(id)}`;

/** What the form sends: a pasted list as JSON, or an uploaded file as multipart/form-data. */
export type BulkInput =
  | { source: 'paste'; type: BulkType; values: string[]; caseReference?: string | undefined }
  | { source: 'file'; type: BulkType; file: File; caseReference?: string | undefined };

/** The body of a preview or start call; exported for the unit tests. */
export function bodyOf(input: BulkInput): unknown {
  if (input.source === 'paste') {
    return {
      type: input.type,
      values: input.values,
      ...(input.caseReference ? { case_reference: input.caseReference } : {}),
    };
  }
  const form = new FormData();
  form.append('type', input.type);
  if (input.caseReference) form.append('case_reference', input.caseReference);
  // The file goes last: a multipart reader may stop at the file and read the fields before it only.
  form.append('file', input.file, input.file.name);
  return form;
}

/** POST /api/bulk/preview: what the list would do and cost; nothing is charged or stored. */
export const usePreviewBulk = () =>
  useMutation({
    mutationFn: (input: BulkInput) =>
      request<BulkPreview>('/api/bulk/preview', { method: 'POST', body: bodyOf(input) }),
  });

/** POST /api/bulk: starts the job (202); the list then shows it. */
export function useStartBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkInput) => request<BulkJob>('/api/bulk', { method: 'POST', body: bodyOf(input) }),
    onSuccess: (job) => {
      queryClient.setQueryData<BulkJob[]>(listKey, (jobs) => [
        job,
        ...(jobs ?? []).filter((j) => j.id !== job.id),
      ]);
      void queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
}

/** GET /api/bulk: the user's jobs, newest first. */
export const useBulkJobs = () =>
  useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => api.get<{ data: BulkJob[] }>('/api/bulk', { signal }).then((r) => r.data),
  });

/** Puts a newer state of one job into the list (from its event stream or an action's answer). */
export function useUpdateJobInList() {
  const queryClient = useQueryClient();
  return (job: BulkJob) =>
    queryClient.setQueryData<BulkJob[]>(listKey, (jobs) => jobs?.map((j) => (j.id === job.id ? job : j)));
}

/** POST /api/bulk/{id}/pause | resume | cancel; a 409 says the job's status does not allow it. */
export function useJobAction() {
  const update = useUpdateJobInList();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: BulkAction }) =>
      request<BulkJob>(`${base(id)}/${action}`, { method: 'POST', body: {} }),
    onSuccess: update,
  });
}

export const BULK_ROWS_PAGE_SIZE = 100;

/** GET /api/bulk/{id}/rows?page=N: 100 rows a page. */
export const useBulkRows = (id: string, page: number) =>
  useQuery({
    queryKey: rowsKey(id, page),
    queryFn: ({ signal }) =>
      api.get<{ data: BulkRow[]; total: number }>(`${base(id)}/rows`, { query: { page }, signal }),
    placeholderData: keepPreviousData,
  });

const accepts: Record<string, string> = {
  csv: 'text/csv, application/json',
  json: 'application/json',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json',
};

/** GET /api/bulk/{id}/results?format=…: the results file, saved under the name the server gives it. */
export async function saveBulkResults(job: BulkJob, format: 'csv' | 'json' | 'xlsx'): Promise<void> {
  const { blob, headers } = await request(`${base(job.id)}/results`, {
    method: 'GET',
    query: { format },
    headers: { Accept: accepts[format] ?? 'application/json' },
    responseType: 'file',
  });
  saveBlob(blob, attachmentName(headers, `bulk-${job.id}.${format}`));
}
