import type { CaseDetail } from '@footprint/domain';
import { request, saveBlob } from '../../../lib/api.ts';
import { caseUrl } from './listCases.ts';

/** GET /api/cases/{id}/bundle: the evidence bundle (a ZIP the server registers for /verify), saved. */
export async function saveCaseBundle(detail: CaseDetail): Promise<void> {
  const { blob, headers } = await request(`${caseUrl(detail.id)}/bundle`, { responseType: 'file' });
  const named = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1];
  saveBlob(blob, named ?? `case-${detail.reference}.zip`);
}
