import { z } from 'zod';
import type { Page } from '../accountability.ts';
import type { CaseReferencePolicyResponse } from '../case-reference.ts';
import {
  type CreditStatement,
  type HistoryDetail,
  type HistoryEntry,
  LOOKUP_STATUSES,
  type StatementEntry,
} from '../history.ts';
import { bulkJobResponse } from './bulk.ts';
import { fileDownload, isoTimestamp, pageOf } from './common.ts';
import { legalBasisObject } from './legal-basis.ts';

/**
 * The signed-in user's own records: GET /api/history (request: `historyQuery`), GET /api/history/{id},
 * GET /api/credits/statement (`statementQuery`) and GET /api/case-reference-policy; the downloads
 * GET /api/history/{id}/export (`historyExportQuery`) and GET /api/history.csv (`historyCsvQuery`).
 */

const lookupStatus = z
  .enum(LOOKUP_STATUSES)
  .describe('`no_record`: the sources answered and found nothing; a neutral outcome, not a failure.');

const historyEntryObject = z.object({
  id: z.string(),
  user: z
    .object({ id: z.string(), name: z.string(), email: z.string() })
    .optional()
    .describe('Who searched: only in a list asked with `scope=unit`.'),
  kind: z.string(),
  query: z.string().describe('The normalized query the search matched and cached on.'),
  query_typed: z.string().describe('The query as the user typed it (intel: the filled fields).'),
  cost: z.number().int(),
  status: lookupStatus,
  cached: z.boolean(),
  case_reference: z.string().nullable(),
  created_at: isoTimestamp,
  result_available: z.boolean().describe('Whether GET /api/history/{id} can still answer the result.'),
  sandbox: z.boolean(),
  refunded: z.boolean().describe('Whether the charge was given back.'),
});
const historyEntry: z.ZodType<HistoryEntry> = historyEntryObject;

/** With `group=job`: a lookup of no bulk job, as in the plain list, saying it is one. */
const historyLookupItem: z.ZodType<HistoryLookupItem> = historyEntryObject.extend({
  type: z.literal('lookup'),
});

/** With `group=job`: a bulk job as one entry (its rows: `?job_id={job.id}`). */
const historyJobItem = z
  .object({
    type: z.literal('bulk_job'),
    id: z.string().describe('The bulk job id (GET /api/bulk/{id}); its rows: ?job_id={id}.'),
    user: z
      .object({ id: z.string(), name: z.string(), email: z.string() })
      .optional()
      .describe('Who ran it: only in a list asked with `scope=unit`.'),
    created_at: isoTimestamp,
    case_reference: z.string().nullable(),
    job: bulkJobResponse,
  })
  .meta({ id: 'HistoryBulkJob', description: 'A bulk job in the grouped history: one entry for its rows.' });

export type HistoryLookupItem = HistoryEntry & { type: 'lookup' };
export type HistoryJobItem = z.infer<typeof historyJobItem>;
/** An entry of the list asked with `group=job`. */
export type HistoryItem = HistoryLookupItem | HistoryJobItem;

/**
 * A page of the list: lookups (`HistoryEntry`) unless asked with `group=job`, then `HistoryItem`s.
 * The typed entries are tried first, so the serializer never strips `type` off a grouped entry.
 */
export const historyPageResponse: z.ZodType<Page<HistoryEntry | HistoryItem>> = pageOf(
  z.union([historyLookupItem, historyJobItem, historyEntry]),
);

export const historyDetailResponse: z.ZodType<HistoryDetail> = z.object({
  id: z.string(),
  kind: z.string(),
  query: z.string(),
  query_typed: z.string(),
  status: lookupStatus,
  case_reference: z.string().nullable(),
  legal_basis: legalBasisObject
    .optional()
    .describe(
      'The legal basis the search stated itself (`legal_basis` on its request); absent when it stated none.',
    ),
  created_at: isoTimestamp,
  cost: z.number().int(),
  cached: z.boolean(),
  sandbox: z.boolean(),
  user: z
    .object({ id: z.string(), name: z.string(), email: z.string() })
    .optional()
    .describe('Who searched, when it was not the caller (a supervisor reading the work of their units).'),
  result: z
    .unknown()
    .describe('The stored answer in the shape its search endpoint gave it, without `credits`.'),
});

/** One ledger row (the statement and the admin API). */
export const statementEntryResponse: z.ZodType<StatementEntry> = z
  .object({
    id: z.number().int(),
    at: isoTimestamp,
    delta: z.number().int(),
    balance_after: z.number().int(),
    kind: z.enum(['grant', 'charge', 'refund', 'adjustment']),
    reason: z.string(),
    lookup_id: z.string().nullable(),
    unit_id: z
      .string()
      .nullable()
      .describe(
        "The unit whose credit pool paid or was topped up; balance_after is then the pool's. Null: the user's own balance.",
      ),
    unit_name: z.string().nullable(),
    user: z
      .object({ id: z.string(), name: z.string(), email: z.string() })
      .optional()
      .describe("A unit pool's statement only: whose search the row charged or refunded."),
  })
  .meta({ id: 'StatementEntry' });

export const creditStatementResponse: z.ZodType<CreditStatement> = z.object({
  balance: z.number().int(),
  data: z.array(statementEntryResponse),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});

export const caseReferencePolicyResponse: z.ZodType<CaseReferencePolicyResponse> = z.object({
  required: z.boolean(),
  legal_basis_required: z
    .boolean()
    .optional()
    .describe(
      'Whether every search needs a legal basis: that of its case, or one it states itself (`legal_basis`).',
    ),
});

/** One stored result as a download: CSV, JSON or XLSX (docs/capabilities.md, 'Exports'). */
export const historyExportResponse = {
  description:
    'The stored result as an attachment named <kind>-<query>-<date>.<csv|json|xlsx>. Every CSV starts with a ' +
    'header block of `# key,value` lines (lookup_id, kind, query, query_typed, case_reference, searched_at, ' +
    'answered_at, reused, reused_from, sandbox, exported_at; a leak search adds matches, records_in_file, cap, ' +
    'note) and a blank line, then one table. Phone and e-mail: `part,section,attribute,value,sources,' +
    'corroboration,confidence,answered_at,source_labels,provenance`, the merged profile (`part` merged, one ' +
    'row per merged value) then the source records (`part` source). Leak search: every match up to the cap, ' +
    'streamed, `source,breach_date,name,email,phone,username,address,other`. Detail, corporate, ' +
    'verification: `section,row,label,value` in the results page order and format. JSON: `{ lookup_id, ' +
    'kind, query, query_typed, created_at, case_reference, result }` with the header fields and the parts ' +
    'beside them. XLSX: an About sheet, then one sheet per part.',
  content: {
    ...fileDownload('text/csv', '').content,
    ...fileDownload('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '').content,
    'application/json': {
      // Documentation only: the file is sent as it was written, never encoded with a schema.
      schema: z.unknown().meta({
        type: 'object',
        description: 'The JSON file.',
        properties: {
          lookup_id: { type: 'string' },
          kind: { type: 'string' },
          query: { type: 'string' },
          query_typed: { type: ['string', 'null'] },
          created_at: { type: 'string', format: 'date-time' },
          case_reference: { type: ['string', 'null'] },
          answered_at: { type: 'string', format: 'date-time' },
          reused: { type: 'boolean' },
          result: { description: 'The stored answer, in the shape its search endpoint gave it.' },
          merged_profile: { type: 'array', description: 'Phone, e-mail: one entry per merged value.' },
          source_records: {
            type: 'array',
            description: 'Phone, e-mail: every value as each source gave it.',
          },
          records: { type: 'array', description: 'Leak search: every match up to the cap.' },
          fields: { type: 'array', description: 'Detail, corporate, verification: label/value lines.' },
          tables: { type: 'array', description: 'Detail, corporate, verification: lists of records.' },
        },
        required: ['lookup_id', 'kind', 'query', 'created_at', 'result'],
      }),
    },
  },
};

export const historyCsvResponse = fileDownload(
  'text/csv',
  "The caller's lookups as CSV, newest first (same kind filter as /api/history); the row count is in X-History-Rows.",
);
