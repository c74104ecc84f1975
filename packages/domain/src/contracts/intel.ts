import { z } from 'zod';
import { fileDownload, openObject } from './common.ts';

/**
 * Responses of POST /api/corporate-intelligence and POST /api/verification-id (request:
 * `intelRequestSchema`, parsed by the service so that refused attempts reach the audit trail).
 */

/** The JSON answer: the vendor's record under `data`. */
export const intelResponse = z.object({
  data: openObject("The vendor's record (its `data` object), as it came."),
  credits: z.number().int(),
  lookup_id: z.string(),
  sandbox: z.boolean(),
});

/** The credit report type answers a PDF, with the balance in X-Credits. */
export const intelPdfResponse = fileDownload(
  'application/pdf',
  'The credit report: the balance is in X-Credits, the ids in X-Lookup-Id, X-Report-Id, X-Report-Sha256.',
);
