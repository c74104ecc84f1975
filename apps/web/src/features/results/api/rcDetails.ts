import type { DetailLookupResponse, RcDetails } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** POST /api/rcfull-details (spec §7): a vehicle registration's full record; answers `credits`, `data.data`. */
export function fetchRcDetails(idNumber: string): Promise<DetailLookupResponse<RcDetails>> {
  return api.post<DetailLookupResponse<RcDetails>>('/api/rcfull-details', { id_number: idNumber });
}

export function useRcDetails() {
  return useMutation({ mutationFn: fetchRcDetails });
}
