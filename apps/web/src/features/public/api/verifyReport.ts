import type { PublicVerifyResponse } from '@footprint/domain';
import { api } from '../../../lib/api.ts';

/** POST /api/verify: only the fingerprint leaves the browser. */
export const verifyHash = (sha256: string) => api.post<PublicVerifyResponse>('/api/verify', { sha256 });
