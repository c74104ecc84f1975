import type { AuditEvent, Page } from '@footprint/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const AUDIT_PAGE_SIZE = 25;

/** The audit trail's filters as the address and the API carry them; empty ones are left out. */
export interface AuditFilterValues {
  user?: string;
  action?: string;
  /** YYYY-MM-DD, inclusive. */
  from?: string;
  /** YYYY-MM-DD, inclusive. */
  to?: string;
  q?: string;
  case_reference?: string;
}

export const auditFilterNames = ['user', 'action', 'from', 'to', 'q', 'case_reference'] as const;

/** GET /api/admin/audit?user&action&from&to&q&case_reference&page&per_page, newest first. */
export function listAudit(
  filters: AuditFilterValues,
  page: number,
  signal?: AbortSignal,
): Promise<Page<AuditEvent>> {
  return api.get<Page<AuditEvent>>('/api/admin/audit', {
    query: { ...filters, page, per_page: AUDIT_PAGE_SIZE },
    signal,
  });
}

export function useAudit(filters: AuditFilterValues, page: number) {
  return useQuery({
    queryKey: ['admin', 'audit', filters, page],
    queryFn: ({ signal }) => listAudit(filters, page, signal),
    placeholderData: keepPreviousData,
  });
}
