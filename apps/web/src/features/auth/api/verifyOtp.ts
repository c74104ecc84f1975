import type { TokenResponse, VerifyOtpRequest } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** POST /api/verify-email-otp: trusts this device and signs in. */
export function verifyOtp(body: VerifyOtpRequest): Promise<TokenResponse> {
  return api.post<TokenResponse>('/api/verify-email-otp', body);
}

export function useVerifyOtp() {
  return useMutation({ mutationFn: verifyOtp });
}
