import type { DetailLookupResponse, RcDetails } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * POST /api/rcfull-details (spec §7): a vehicle registration's full record; answers `credits`, `data.data`.
 * The case reference of the search (the investigation it is for) goes in the body when there is one;
 * `fresh` asks the source again (charged) rather than reusing a recent identical lookup.
 */
export function fetchRcDetails(
  idNumber: string,
  caseReference?: string,
  fresh?: boolean,
): Promise<DetailLookupResponse<RcDetails>> {
  return api.post<DetailLookupResponse<RcDetails>>('/api/rcfull-details', {
    id_number: idNumber,
    case_reference: caseReference,
    fresh,
  });
}

export function useRcDetails() {
  return useMutation({
    mutationFn: ({ id, caseReference, fresh }: { id: string; caseReference?: string; fresh?: boolean }) =>
      fetchRcDetails(id, caseReference, fresh),
  });
}
