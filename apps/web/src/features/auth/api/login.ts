import type { LoginRequest, OtpRequiredResponse, TokenResponse } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { refusalBody } from '../../../lib/field-errors.ts';

/** POST /api/login. A 403 may mean "trust this device first" (see `otpChallenge`). */
export function login(body: LoginRequest): Promise<TokenResponse> {
  return api.post<TokenResponse>('/api/login', body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

/** The OTP challenge inside a login failure, if that is what the failure is (spec §4: 403 otp_required). */
export function otpChallenge(error: unknown): OtpRequiredResponse | null {
  const body = refusalBody(error, 403) as Partial<OtpRequiredResponse> | null;
  if (body?.otp_required !== true || typeof body.email !== 'string') return null;
  return {
    otp_required: true,
    email: body.email,
    otp_expires_at: typeof body.otp_expires_at === 'string' ? body.otp_expires_at : '',
    message: typeof body.message === 'string' ? body.message : '',
  };
}
