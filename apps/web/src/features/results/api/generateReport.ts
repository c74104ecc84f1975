import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import { expectPdf } from './pdf.ts';

/** Body of both report calls (spec §7): what was searched, how, and the results as shown. */
export interface ReportInput {
  userInput: string;
  /** A username has the PDF only; the AI report is written of a phone's or an address's profile. */
  type: 'tel' | 'email' | 'username';
  results: unknown;
}

/** POST /api/generate-report: the results as a PDF, saved by the caller (report-{input}.pdf; a username's username-report-{input}.pdf). */
export function generateReport(input: ReportInput): Promise<Blob> {
  return request('/api/generate-report', { method: 'POST', body: input, responseType: 'blob' }).then(
    expectPdf,
  );
}

export function useGenerateReport() {
  return useMutation({ mutationFn: generateReport });
}
