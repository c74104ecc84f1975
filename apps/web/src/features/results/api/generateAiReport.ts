import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import type { ReportInput } from './generateReport.ts';
import { expectPdf } from './pdf.ts';

/** POST /api/generate-ai-report: a narrative PDF, saved by the caller as ai-generated-report-{input}.pdf. */
export function generateAiReport(input: ReportInput): Promise<Blob> {
  return request('/api/generate-ai-report', { method: 'POST', body: input, responseType: 'blob' }).then(
    expectPdf,
  );
}

export function useGenerateAiReport() {
  return useMutation({ mutationFn: generateAiReport });
}
