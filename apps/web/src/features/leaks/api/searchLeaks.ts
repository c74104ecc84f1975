import { LEAK_PAGE_SIZE, type LeakRow, type LeakSearchResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface LeakSearchInput {
  /** The rows as the page holds them (spec §3 'Leak search row'); the server reads `type` and `value`. */
  fields: LeakRow[];
  /** 1-based. */
  page: number;
  /** The case reference of the search (the investigation it is for), trimmed; left out of the body when absent. */
  caseReference?: string;
  /** The legal basis the search states itself; left out of the body when absent. */
  legalBasis?: Record<string, unknown> | undefined;
}

/**
 * POST /api/leak-data-finder/?page={page}&per_page={size} (spec §7). A new query is charged once; asking
 * for another page of the same rows is free on the server (`cached: true`).
 */
export function searchLeaks({
  fields,
  page,
  caseReference,
  legalBasis,
}: LeakSearchInput): Promise<LeakSearchResponse> {
  return api.post<LeakSearchResponse>(
    '/api/leak-data-finder/',
    { fields, case_reference: caseReference, ...(legalBasis ? { legal_basis: legalBasis } : {}) },
    { query: { page, per_page: LEAK_PAGE_SIZE } },
  );
}

/** A paid call: a mutation, never cached or retried by the query layer, so one click is one charge. */
export function useSearchLeaks() {
  return useMutation({ mutationFn: searchLeaks });
}
