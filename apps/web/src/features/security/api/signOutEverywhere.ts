import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** POST /api/security/sign-out-everywhere: ends every session of the user, this one included. */
export const useSignOutEverywhere = () =>
  useMutation({ mutationFn: () => api.post<{ message: string }>('/api/security/sign-out-everywhere') });
