import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import type { AuditFilterValues } from './listAudit.ts';

/**
 * GET /api/admin/audit.csv with the same filters: the matching events as a CSV attachment. The server
 * writes the export itself to the audit trail ('admin.audit.export').
 */
export function exportAudit(filters: AuditFilterValues): Promise<Blob> {
  return request('/api/admin/audit.csv', {
    method: 'GET',
    query: { ...filters },
    headers: { Accept: 'text/csv, application/json' },
    responseType: 'blob',
  });
}

export function useExportAudit() {
  return useMutation({ mutationFn: exportAudit });
}
