import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';
import { expectPdf } from './pdf.ts';

/** The credit report request of spec §3: consent is always 'Y'. */
export interface CreditReportInput {
  pan: string;
  name: string;
  mobile: string;
  gender: 'male' | 'female';
}

/**
 * POST /api/corporate-intelligence with type 'credit_report' (spec §7): the answer is the PDF itself.
 * A non-PDF success is treated as a failure, since nothing usable could be saved.
 */
export async function requestCreditReport(input: CreditReportInput): Promise<Blob> {
  const blob = await request('/api/corporate-intelligence', {
    method: 'POST',
    body: { type: 'credit_report', data: { ...input, consent: 'Y' } },
    responseType: 'blob',
  });
  return expectPdf(blob);
}

export function useCreditReport() {
  return useMutation({ mutationFn: requestCreditReport });
}
