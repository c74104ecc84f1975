import type { ResetPasswordRequest } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api, getCsrfCookie } from '../../../lib/api.ts';

/**
 * POST /api/reset-password, after the CSRF cookie call (spec §7). An invalid or expired token comes
 * back as a 422 with `errors.email`.
 */
export async function resetPassword(body: ResetPasswordRequest): Promise<{ status: string }> {
  await getCsrfCookie();
  return api.post<{ status: string }>('/api/reset-password', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
