import type { ChallanData, DetailLookupResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * POST /api/rc-challan-details (spec §7): traffic challans of a registration; `data.data.challan_details`.
 * The case reference of the search (the investigation it is for) goes in the body when there is one;
 * `fresh` asks the source again (charged) rather than reusing a recent identical lookup.
 */
export function fetchChallanDetails(
  rcNumber: string,
  caseReference?: string,
  fresh?: boolean,
): Promise<DetailLookupResponse<ChallanData>> {
  return api.post<DetailLookupResponse<ChallanData>>('/api/rc-challan-details', {
    rc_number: rcNumber,
    case_reference: caseReference,
    fresh,
  });
}

export function useChallanDetails() {
  return useMutation({
    mutationFn: ({ id, caseReference, fresh }: { id: string; caseReference?: string; fresh?: boolean }) =>
      fetchChallanDetails(id, caseReference, fresh),
  });
}
