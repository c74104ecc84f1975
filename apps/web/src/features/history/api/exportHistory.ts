import { useMutation } from '@tanstack/react-query';
import { request, saveBlob } from '../../../lib/api.ts';
import { attachmentName } from '../../../lib/exports.ts';

/**
 * GET /api/history.csv?kind: the user's lookups (with the list's kind filter) as a CSV attachment,
 * saved under the name the server gives it. The server writes the export to the audit trail
 * ('history.export').
 */
export async function saveHistoryCsv(kind: string | undefined): Promise<void> {
  const { blob, headers } = await request('/api/history.csv', {
    method: 'GET',
    query: { kind },
    headers: { Accept: 'text/csv, application/json' },
    responseType: 'file',
  });
  saveBlob(blob, attachmentName(headers, 'history.csv'));
}

export function useExportHistory() {
  return useMutation({ mutationFn: saveHistoryCsv });
}
