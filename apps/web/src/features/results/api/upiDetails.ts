import type { DetailLookupResponse, UpiDetails } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * POST /api/upifull-details (spec §7): the holder behind a UPI id; answers `credits`, `data.data`.
 * The case reference of the search (the investigation it is for) goes in the body when there is one;
 * `fresh` asks the source again (charged) rather than reusing a recent identical lookup.
 */
export function fetchUpiDetails(
  upiId: string,
  caseReference?: string,
  fresh?: boolean,
): Promise<DetailLookupResponse<UpiDetails>> {
  return api.post<DetailLookupResponse<UpiDetails>>('/api/upifull-details', {
    upi_id: upiId,
    case_reference: caseReference,
    fresh,
  });
}

export function useUpiDetails() {
  return useMutation({
    mutationFn: ({ id, caseReference, fresh }: { id: string; caseReference?: string; fresh?: boolean }) =>
      fetchUpiDetails(id, caseReference, fresh),
  });
}
