import type { ChallanData, DetailLookupResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** POST /api/rc-challan-details (spec §7): traffic challans of a registration; `data.data.challan_details`. */
export function fetchChallanDetails(rcNumber: string): Promise<DetailLookupResponse<ChallanData>> {
  return api.post<DetailLookupResponse<ChallanData>>('/api/rc-challan-details', { rc_number: rcNumber });
}

export function useChallanDetails() {
  return useMutation({ mutationFn: fetchChallanDetails });
}
