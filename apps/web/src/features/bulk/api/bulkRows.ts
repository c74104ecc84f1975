import type { BulkRow } from '@footprint/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { bulkJobUrl, bulkKey } from './listBulkJobs.ts';

export const BULK_ROWS_PAGE_SIZE = 100;

/** GET /api/bulk/{id}/rows?page=N: 100 rows a page. */
export const useBulkRows = (id: string, page: number) =>
  useQuery({
    queryKey: [...bulkKey, 'rows', id, page],
    queryFn: ({ signal }) =>
      api.get<{ data: BulkRow[]; total: number }>(`${bulkJobUrl(id)}/rows`, { query: { page }, signal }),
    placeholderData: keepPreviousData,
  });
