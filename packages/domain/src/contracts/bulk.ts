import { z } from 'zod';
import { caseReferenceField } from '../case-reference.ts';
import { fileDownload, isoTimestamp } from './common.ts';

/**
 * Bulk lookups (/api/bulk): a list of phone numbers, e-mail addresses or usernames run as one
 * background job, each row charged like a single lookup. The contract the server answers and the /bulk page reads.
 */

export const BULK_MAX_ROWS = 10_000;
export const BULK_TYPES = ['tel', 'email', 'username'] as const;
export type BulkType = (typeof BULK_TYPES)[number];
/**
 * `awaiting_approval`: a job of more rows than the admin's approval_bulk_rows waits for a supervisor
 * before it is queued; `not_approved`: its request was rejected or expired, and no row ran.
 */
export const BULK_STATUSES = [
  'awaiting_approval',
  'queued',
  'running',
  'paused',
  'done',
  'cancelled',
  'stopped',
  'not_approved',
] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];
/** What became of one row. `skipped`: the job was cancelled or stopped before the row ran. */
export const BULK_ROW_STATUSES = [
  'pending',
  'success',
  'no_record',
  'cached',
  'failed',
  'insufficient_credits',
  'skipped',
] as const;
export type BulkRowStatus = (typeof BULK_ROW_STATUSES)[number];
export const BULK_RESULT_FORMATS = ['csv', 'json', 'xlsx'] as const;

/**
 * POST /api/bulk and POST /api/bulk/preview with a JSON body (a file goes as multipart/form-data with
 * the fields `file`, `type` and optionally `case_reference`). A phone number without a dial code takes
 * the default country's (India, 91); a username is read as GET /api/username reads it (a leading '@'
 * dropped).
 */
export const bulkBody = z.strictObject({
  type: z.enum(BULK_TYPES, { error: 'The type field must be tel, email or username.' }),
  values: z
    .array(z.string({ error: 'Each value must be text.' }), { error: 'The values field is required.' })
    .min(1, 'The list holds no value.')
    .max(BULK_MAX_ROWS, `A bulk lookup takes at most ${BULK_MAX_ROWS.toLocaleString('en')} rows.`),
  case_reference: caseReferenceField,
});
export type BulkBody = z.infer<typeof bulkBody>;

/** The same list as an upload (multipart/form-data): documentation only, the route reads the parts. */
export const bulkUpload = z
  .object({
    file: z.string().meta({
      format: 'binary',
      contentMediaType: 'application/octet-stream',
      description:
        'The list: a CSV or XLSX file, the first column or the column headed phone, number, email or username.',
    }),
    type: z.enum(BULK_TYPES),
    case_reference: z.string().max(100).optional(),
  })
  .describe('The list as an upload: the file and the fields type and case_reference.');

/** A row of the list that will not run, and why (line numbers count from 1, as a spreadsheet does). */
const invalidRow = z.object({ line: z.number().int(), value: z.string(), error: z.string() });

/** What a list would cost before it is run (POST /api/bulk/preview). Nothing is charged or stored. */
export const bulkPreviewResponse = z
  .object({
    type: z.enum(BULK_TYPES),
    total: z.number().int().describe('Rows read, before validation and folding.'),
    valid: z.number().int().describe('Distinct valid queries: the rows that will run.'),
    duplicates: z.number().int().describe('Rows folded into an earlier identical query.'),
    invalid: z.array(invalidRow),
    cost_per_row: z.number().int(),
    cost: z
      .number()
      .int()
      .describe('The most the job can cost: valid × cost per row (cached rows are free).'),
    balance: z.number().int(),
  })
  .meta({ id: 'BulkPreview' });
export type BulkPreview = z.infer<typeof bulkPreviewResponse>;

/** GET /api/bulk/{id} (the spec's fields first), and each entry of GET /api/bulk. */
export const bulkJobResponse = z
  .object({
    id: z.string(),
    status: z.enum(BULK_STATUSES),
    total: z.number().int().describe('Rows that run (valid, distinct).'),
    done: z.number().int().describe('Rows finished, whatever their outcome.'),
    charged: z.number().int().describe('Rows that cost credits.'),
    failed: z.number().int().describe('Rows no source answered (refunded) or refused.'),
    type: z.enum(BULK_TYPES),
    name: z.string().describe('The uploaded file name, or "Pasted list".'),
    credits_spent: z.number().int(),
    case_reference: z.string().nullable(),
    stop_reason: z.string().nullable().describe('Why a stopped job stopped (credits ran out).'),
    approval_id: z
      .string()
      .nullable()
      .optional()
      .describe(
        "The request for a supervisor's approval it waits for, or waited for (GET /api/approvals/{id}); null when it needed none.",
      ),
    created_at: isoTimestamp,
    finished_at: isoTimestamp.nullable(),
    user: z
      .object({ id: z.string(), name: z.string(), email: z.string() })
      .optional()
      .describe(
        "Whose it is: in a list of the caller's units (scope=unit), on the entries that are not the caller's.",
      ),
  })
  .meta({ id: 'BulkJob', description: 'A bulk lookup: its status and progress.' });
export type BulkJob = z.infer<typeof bulkJobResponse>;
export const bulkJobListResponse = z.object({ data: z.array(bulkJobResponse) });

/** One row of a job's results: what the results files hold, a line per row. */
export const bulkRowResponse = z
  .object({
    line: z.number().int(),
    input: z.string().describe('The value as the list had it.'),
    query: z.string().describe('The normalized query that ran.'),
    status: z.enum(BULK_ROW_STATUSES),
    lookup_id: z.string().nullable().describe('Opens the row’s full result (GET /api/history/{id}).'),
    name: z.string().nullable(),
    emails: z.array(z.string()),
    phones: z.array(z.string()),
    addresses: z.array(z.string()),
    sources_answered: z.array(z.string()),
    cost: z.number().int(),
    accounts: z
      .array(
        z.object({
          site: z.string().describe('The site’s name (GitHub).'),
          url: z
            .string()
            .describe('The profile’s address on it (empty when the source that found it gave none).'),
        }),
      )
      .describe(
        'A username row: the accounts its sources found (the site check’s found sites, then a vendor account search’s others), each as its site and profile address (empty for phone and e-mail rows, and for a name found nowhere).',
      ),
  })
  .meta({ id: 'BulkRow', description: 'One row of a bulk lookup and what became of it.' });
export type BulkRow = z.infer<typeof bulkRowResponse>;
export const bulkRowsResponse = z.object({ data: z.array(bulkRowResponse), total: z.number().int() });

/** The job id in /api/bulk/{id}/… (a malformed or another user's id answers 404). */
export const bulkIdParams = z.object({ id: z.string().describe('The bulk job id.') });

/** GET /api/bulk/{id}/rows?page= (100 rows a page, from 1). */
export const bulkRowsQuery = z.strictObject({
  page: z.coerce
    .number({ error: 'The page field must be a number.' })
    .int('The page field must be a whole number.')
    .min(1, 'The page field must be at least 1.')
    .max(1000, 'The page field must not be greater than 1000.')
    .default(1),
});

/** GET /api/bulk/{id}/results?format= (csv by default). */
export const bulkResultsQuery = z.strictObject({
  format: z
    .enum(BULK_RESULT_FORMATS, { error: 'The format field must be csv, json or xlsx.' })
    .default('csv'),
});

/** The results file: a line per row (the columns of `bulkRowResponse`), as an attachment. */
export const bulkResultsResponse = {
  description:
    'The job\u2019s rows as an attachment named bulk-<name>-<date>.<csv|json|xlsx>: line, input, query, ' +
    'status, name, emails, phones, addresses, sources answered, cost, lookup id; for a username job: ' +
    'line, input, query, status, accounts found (a count), accounts ("Site url; …"), sources answered, ' +
    'cost, lookup id. CSV cells that a spreadsheet would read as a formula are neutralised; JSON is ' +
    '`{ job, data }`.',
  content: {
    ...fileDownload('text/csv', '').content,
    'application/json': {
      schema: z
        .object({
          job: z.object({
            id: z.string(),
            type: z.enum(BULK_TYPES),
            name: z.string(),
            case_reference: z.string().nullable(),
          }),
          data: z.array(bulkRowResponse),
        })
        .meta({ id: 'BulkResults', description: 'The JSON results file: the job and its rows.' }),
    },
    ...fileDownload('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '').content,
  },
};

/** GET /api/bulk/{id}/events: server-sent events, a `data:` line with the job (bulkJobResponse) per change. */
export const bulkEventsResponse = fileDownload(
  'text/event-stream',
  'Server-sent events: `data: <job JSON>` at each change (at most about 4 a second), a comment line as a ' +
    'heartbeat every 15 s; the stream ends after the job reaches done, cancelled or stopped.',
);
