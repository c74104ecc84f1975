import type { ForgotPasswordRequest } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api, getCsrfCookie } from '../../../lib/api.ts';

/** POST /forgot-password, after the CSRF cookie call the endpoint requires (spec §7). */
export async function forgotPassword(body: ForgotPasswordRequest): Promise<{ status: string }> {
  await getCsrfCookie();
  return api.post<{ status: string }>('/forgot-password', body);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
