import { CASE_EXPORTS, type CaseDetail, type CaseExportFormat } from '@footprint/domain';
import { request, saveBlob } from '../../../lib/api.ts';
import { caseUrl } from './listCases.ts';

/** GET /api/cases/{id}/export/{format}: the case in one export format (CASE_EXPORTS), saved under the server's name. */
export async function saveCaseExport(detail: CaseDetail, format: CaseExportFormat): Promise<void> {
  const { blob, headers } = await request(`${caseUrl(detail.id)}/export/${format}`, { responseType: 'file' });
  const named = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1];
  saveBlob(blob, named ?? `case-${detail.reference}.${CASE_EXPORTS[format].extension}`);
}
