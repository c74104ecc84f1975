import type { User } from '@footprint/domain';
import { api } from '../../../lib/api.ts';

/**
 * GET /api/user. The AuthProvider (app/AppRoot.tsx) owns the user state and is the only caller; pass
 * `handleUnauthorized: false` when a 401 should just mean "signed out" (public and auth pages).
 */
export function getUser(options: { handleUnauthorized?: boolean; signal?: AbortSignal } = {}): Promise<User> {
  return api.get<User>('/api/user', options);
}
