import type { BulkJob } from '@footprint/domain';
import { request, saveBlob } from '../../../lib/api.ts';
import { attachmentName } from '../../../lib/exports.ts';
import { bulkJobUrl } from './listBulkJobs.ts';

const accepts: Record<string, string> = {
  csv: 'text/csv, application/json',
  json: 'application/json',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json',
};

/** GET /api/bulk/{id}/results?format=…: the results file, saved under the name the server gives it. */
export async function saveBulkResults(job: BulkJob, format: 'csv' | 'json' | 'xlsx'): Promise<void> {
  const { blob, headers } = await request(`${bulkJobUrl(job.id)}/results`, {
    method: 'GET',
    query: { format },
    headers: { Accept: accepts[format] ?? 'application/json' },
    responseType: 'file',
  });
  saveBlob(blob, attachmentName(headers, `bulk-${job.id}.${format}`));
}
