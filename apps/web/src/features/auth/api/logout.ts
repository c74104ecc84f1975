import { api } from '../../../lib/api.ts';

/**
 * POST /api/logout. Callers ignore its failure (spec §4), and a 401 here only means the token was
 * already dead, so it must not trigger the "session expired" redirect.
 */
export function logout(): Promise<{ message: string }> {
  return api.post<{ message: string }>('/api/logout', {}, { handleUnauthorized: false });
}
