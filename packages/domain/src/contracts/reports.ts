import { z } from 'zod';
import { fileDownload, isoTimestamp } from './common.ts';

/**
 * Reports: POST /api/generate-report, /api/generate-ai-report and /api/generate-{rc,upi,challan}-report
 * answer a PDF; GET /api/reports/{id}/verify checks one; POST /api/verify checks a file's hash for
 * anyone (the public /verify page).
 */

export const reportPdfResponse = fileDownload(
  'application/pdf',
  'The report as a PDF; its id and SHA-256 are in X-Report-Id and X-Report-Sha256.',
);

const userInputField = z
  .string({ error: 'The user input field is required.' })
  .trim()
  .min(1, { error: 'The user input field is required.', abort: true })
  .max(100, 'The user input field must not be greater than 100 characters.');

// The browser sends the results it shows; they are never trusted, only their lookup id is read.
const resultsField = z
  .unknown()
  .optional()
  .meta({
    type: 'object',
    description:
      "The lookup's answer as the client shows it; only `lookup_id` is read (the report is drawn from what the server stored).",
    properties: {
      lookup_id: { type: 'string', description: 'The id of the lookup (its answer’s `lookup_id`).' },
    },
    required: ['lookup_id'],
  });

/**
 * POST /api/generate-report: the PDF of a phone, e-mail or username lookup. `userInput` is the value
 * as typed (a username with or without its leading '@').
 */
export const lookupReportRequest = z.strictObject({
  userInput: userInputField,
  type: z.enum(['tel', 'email', 'username'], { error: 'The type field must be tel, email or username.' }),
  results: resultsField,
});

/** POST /api/generate-ai-report: the written analysis of a merged profile, so a phone or e-mail lookup only. */
export const aiReportRequest = z.strictObject({
  userInput: userInputField,
  type: z.enum(['tel', 'email'], { error: 'The type field must be tel or email.' }),
  results: resultsField,
});

/** POST /api/generate-{rc,upi,challan}-report: the record the modal shows; only its id is read. */
export const detailReportRequest = z.strictObject({
  data: z.record(z.string(), z.unknown(), { error: 'The data field must be an object.' }),
});

/** 64 hex digits: the SHA-256 of a file. */
const sha256Field = z
  .string({ error: 'The sha256 field is required.' })
  .regex(/^[0-9a-fA-F]{64}$/, 'The sha256 field must be 64 hex digits.');

/** GET /api/reports/{id}/verify?sha256= */
export const reportVerifyQuery = z.strictObject({ sha256: sha256Field });

/**
 * The report's owner and admins get every field. Anyone else signed in learns only whether the hash
 * matches and, when it does, when the report was made: who made it, for what lookup and under which
 * file name stay with the owner.
 */
export const reportVerifyResponse = z
  .object({
    report_id: z.string(),
    valid: z.boolean().describe('True when the given SHA-256 is the one of the file generated.'),
    generated_at: isoTimestamp
      .optional()
      .describe('When the report was made; for someone other than its owner or an admin, only when `valid`.'),
    kind: z.string().optional().describe("The report's owner and admins only."),
    file_name: z.string().optional().describe("The report's owner and admins only."),
    generated_by: z
      .object({ name: z.string(), email: z.string() })
      .optional()
      .describe("The report's owner and admins only."),
    lookup_id: z.string().nullable().optional().describe("The report's owner and admins only."),
  })
  .meta({ id: 'ReportCheck' });

/** POST /api/verify: anyone holding a report file checks it by its SHA-256 (computed in the browser). */
export const publicVerifyRequest = z.strictObject({ sha256: sha256Field });
export type PublicVerifyRequest = z.input<typeof publicVerifyRequest>;

export const publicVerifyResponse = z.object({
  valid: z.boolean().describe('True when this server generated a report file with exactly this SHA-256.'),
  generated_at: isoTimestamp.optional().describe('When that report was made; only when `valid`.'),
});
export type PublicVerifyResponse = z.infer<typeof publicVerifyResponse>;
