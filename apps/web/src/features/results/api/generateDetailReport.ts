import { type DetailKind, SEARCH_KIND_DECLARATIONS } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import { expectPdf } from './pdf.ts';

export type { DetailKind };

export interface DetailReportInput {
  kind: DetailKind;
  /** The detail record as the modal shows it (`data.data` of the lookup). */
  data: unknown;
}

/**
 * POST /api/generate-rc-report, /api/generate-upi-report or /api/generate-challan-report (spec §7):
 * the modal's record as a PDF, saved by the caller as {kind}-details-{id}.pdf.
 */
export function generateDetailReport({ kind, data }: DetailReportInput): Promise<Blob> {
  return request(SEARCH_KIND_DECLARATIONS[kind].reportPath!, {
    method: 'POST',
    body: { data },
    responseType: 'blob',
  }).then(expectPdf);
}

export function useGenerateDetailReport() {
  return useMutation({ mutationFn: generateDetailReport });
}
