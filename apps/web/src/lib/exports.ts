import type { ExportFormat } from '@footprint/domain';
import { request, saveBlob } from './api.ts';

/** The file name a download's Content-Disposition gives ('attachment; filename="x.csv"'), or `fallback`. */
export function attachmentName(headers: Headers, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

const ACCEPT: Record<ExportFormat, string> = {
  csv: 'text/csv, application/json',
  json: 'application/json',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json',
};

/**
 * GET /api/history/{id}/export: one of the user's lookups as CSV, JSON or XLSX, made by the server from
 * what it stored (free, audited as 'lookup.export' with the file's SHA-256), saved under the name the
 * server gives it. A leak search's file holds every match up to the cap, not only the page shown.
 */
export async function saveLookupExport(lookupId: string, format: ExportFormat): Promise<void> {
  const { blob, headers } = await request(`/api/history/${encodeURIComponent(lookupId)}/export`, {
    method: 'GET',
    query: { format },
    headers: { Accept: ACCEPT[format] },
    responseType: 'file',
  });
  saveBlob(blob, attachmentName(headers, `lookup-${lookupId}.${format}`));
}
