import type { DetailLookupResponse, UpiDetails } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** POST /api/upifull-details (spec §7): the holder behind a UPI id; answers `credits`, `data.data`. */
export function fetchUpiDetails(upiId: string): Promise<DetailLookupResponse<UpiDetails>> {
  return api.post<DetailLookupResponse<UpiDetails>>('/api/upifull-details', { upi_id: upiId });
}

export function useUpiDetails() {
  return useMutation({ mutationFn: fetchUpiDetails });
}
