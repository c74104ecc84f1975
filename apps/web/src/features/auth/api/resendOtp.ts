import type { ResendOtpRequest, ResendOtpResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** POST /api/resend-otp: a fresh code and its new expiry. */
export function resendOtp(body: ResendOtpRequest): Promise<ResendOtpResponse> {
  return api.post<ResendOtpResponse>('/api/resend-otp', body);
}

export function useResendOtp() {
  return useMutation({ mutationFn: resendOtp });
}
