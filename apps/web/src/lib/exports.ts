import type { ExportFormat } from '@footprint/domain';
import { request, saveBlob } from './api.ts';

/** The file name a download's Content-Disposition gives ('attachment; filename="x.csv"'), or `fallback`. */
export function attachmentName(headers: Headers, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/**
 * GET /api/history/{id}/export: one of the user's lookups as CSV or JSON, made by the server from
 * what it stored (free, audited as 'lookup.export'), saved under the name the server gives it.
 */
export async function saveLookupExport(lookupId: string, format: ExportFormat): Promise<void> {
  const { blob, headers } = await request(`/api/history/${encodeURIComponent(lookupId)}/export`, {
    method: 'GET',
    query: { format },
    headers: { Accept: format === 'csv' ? 'text/csv, application/json' : 'application/json' },
    responseType: 'file',
  });
  saveBlob(blob, attachmentName(headers, `lookup-${lookupId}.${format}`));
}
