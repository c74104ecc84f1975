import type { PublicVerifyResponse, VerifyCaptureBody, VerifyCaptureResult } from '@footprint/domain';
import { api } from '../../../lib/api.ts';

/** POST /api/verify: only the fingerprint leaves the browser. */
export const verifyHash = (sha256: string) => api.post<PublicVerifyResponse>('/api/verify', { sha256 });

/** POST /api/verify/capture: a capture's manifest, its signature and its files' fingerprints (never the files). */
export const verifyCapture = (body: VerifyCaptureBody) =>
  api.post<VerifyCaptureResult>('/api/verify/capture', body);
