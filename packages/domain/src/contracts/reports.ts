import { z } from 'zod';
import { fileDownload, isoTimestamp } from './common.ts';

/**
 * Reports: POST /api/generate-report, /api/generate-ai-report and /api/generate-{rc,upi,challan}-report
 * answer a PDF; GET /api/reports/{id}/verify checks one.
 */

export const reportPdfResponse = fileDownload(
  'application/pdf',
  'The report as a PDF; its id and SHA-256 are in X-Report-Id and X-Report-Sha256.',
);

/** POST /api/generate-report and /api/generate-ai-report. */
export const lookupReportRequest = z.strictObject({
  userInput: z
    .string({ error: 'The user input field is required.' })
    .trim()
    .min(1, { error: 'The user input field is required.', abort: true })
    .max(100, 'The user input field must not be greater than 100 characters.'),
  type: z.enum(['tel', 'email'], { error: 'The type field must be tel or email.' }),
  // The browser sends the results it shows; they are never trusted, only their lookup id is read.
  results: z.unknown().optional(),
});

/** POST /api/generate-{rc,upi,challan}-report: the record the modal shows; only its id is read. */
export const detailReportRequest = z.strictObject({
  data: z.record(z.string(), z.unknown(), { error: 'The data field must be an object.' }),
});

/** GET /api/reports/{id}/verify?sha256= */
export const reportVerifyQuery = z.strictObject({
  sha256: z
    .string({ error: 'The sha256 field is required.' })
    .regex(/^[0-9a-fA-F]{64}$/, 'The sha256 field must be 64 hex digits.'),
});

export const reportVerifyResponse = z.object({
  report_id: z.string(),
  valid: z.boolean().describe('True when the given SHA-256 is the one of the file generated.'),
  kind: z.string(),
  file_name: z.string(),
  generated_at: isoTimestamp,
  generated_by: z.object({ name: z.string(), email: z.string() }),
  lookup_id: z.string().nullable(),
});
