import { findIntelType, type IntelType, toIntelRequestData } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { type IntelPdfAnswer, requestIntelPdf } from '../../intel/index.ts';

/** The credit report request of spec §3: consent is always given ('Y' on the wire). */
export interface CreditReportInput {
  pan: string;
  name: string;
  mobile: string;
  gender: 'male' | 'female';
}

/** The corporate form's 'credit_report' type: the modal sends exactly what that form sends. */
export const creditReportType = findIntelType('corporate', 'credit_report') as IntelType;

/** The request data for the modal's input, as the corporate form would build it. */
export const creditReportData = (input: CreditReportInput) =>
  toIntelRequestData(creditReportType, { ...input, consent: true });

/**
 * POST /api/corporate-intelligence with type 'credit_report' (spec §7), the same call as the corporate
 * form's: the answer is the PDF itself, with the balance after the charge from `X-Credits`.
 */
export function requestCreditReport(
  input: CreditReportInput,
  caseReference?: string,
  legalBasis?: Record<string, unknown>,
): Promise<IntelPdfAnswer> {
  return requestIntelPdf({
    type: creditReportType.type,
    data: creditReportData(input),
    ...(caseReference ? { case_reference: caseReference } : {}),
    ...(legalBasis ? { legal_basis: legalBasis } : {}),
  });
}

export function useCreditReport(caseReference?: string, legalBasis?: Record<string, unknown>) {
  return useMutation({
    mutationFn: (input: CreditReportInput) => requestCreditReport(input, caseReference, legalBasis),
  });
}
