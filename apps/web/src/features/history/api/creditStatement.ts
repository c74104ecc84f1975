import type { CreditStatement } from '@footprint/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const STATEMENT_PAGE_SIZE = 25;

/** GET /api/credits/statement?page&per_page: the balance and the ledger entries, newest first. */
export function getCreditStatement(page: number, signal?: AbortSignal): Promise<CreditStatement> {
  return api.get<CreditStatement>('/api/credits/statement', {
    query: { page, per_page: STATEMENT_PAGE_SIZE },
    signal,
  });
}

export function useCreditStatement(page: number) {
  return useQuery({
    queryKey: ['credit-statement', page] as const,
    queryFn: ({ signal }) => getCreditStatement(page, signal),
    placeholderData: keepPreviousData,
  });
}
