import { z } from 'zod';
import { accountabilityMessages, type Page, pageFields } from './accountability.ts';
import type { LegalBasis } from './cases/legal-basis.ts';

/** The signed-in user's own records: search history (/api/history) and the credit statement. */

/** Lookup kinds: tel, email, rc, upi, challan, leak, corporate, verification (optionally `kind:type`). */
export const LOOKUP_KIND_PATTERN = /^[a-z][a-z0-9_-]{0,39}(:[a-z0-9_-]{1,40})?$/;

/** An id as the database writes it (any UUID form; one that is not yours is answered 404). */
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `group=job`: a bulk job's rows are one entry of the list (`type: 'bulk_job'`) and every other entry
 * says `type: 'lookup'`. Opt-in, so a caller that does not ask still reads a list of lookups, one per
 * search, each with a lookup id GET /api/history/{id} opens.
 */
export const HISTORY_GROUPS = ['job'] as const;

/** Whose searches GET /api/history lists: the caller's own, or those of the units they supervise. */
export const HISTORY_SCOPES = ['mine', 'unit'] as const;
export type HistoryScope = (typeof HISTORY_SCOPES)[number];

export const historyQuery = z.strictObject({
  ...pageFields,
  kind: z
    .string({ error: 'The kind field must be a string.' })
    .regex(LOOKUP_KIND_PATTERN, 'The kind field is not a lookup kind.')
    .optional(),
  case_id: z
    .string({ error: accountabilityMessages.historyCaseId })
    .regex(ID_PATTERN, accountabilityMessages.historyCaseId)
    .optional(),
  job_id: z
    .string({ error: accountabilityMessages.historyJobId })
    .regex(ID_PATTERN, accountabilityMessages.historyJobId)
    .optional(),
  group: z.enum(HISTORY_GROUPS, { error: accountabilityMessages.historyGroup }).optional(),
  /** `unit`: the searches of everyone in the units the caller supervises (and below); else their own. */
  scope: z.enum(HISTORY_SCOPES, { error: 'The scope must be mine or unit.' }).optional(),
});
export type HistoryQuery = z.infer<typeof historyQuery>;

/** GET /api/bulk and GET /api/watches: `unit` lists the work of everyone in the units the caller supervises. */
export const listScopeQuery = z.strictObject({
  scope: z.enum(HISTORY_SCOPES, { error: 'The scope must be mine or unit.' }).optional(),
});

/** The file formats a stored result downloads as: GET /api/history/{id}/export?format=csv|json|xlsx. */
export const EXPORT_FORMATS = ['csv', 'json', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const historyExportQuery = z.strictObject({
  format: z.enum(EXPORT_FORMATS, { error: accountabilityMessages.exportFormat }),
});

/** GET /api/history.csv: the lookups list with the same kind filter as /api/history, unpaged. */
export const historyCsvQuery = historyQuery.pick({ kind: true });

/** What became of a lookup: `no_record` means its sources answered and found nothing. */
export const LOOKUP_STATUSES = ['pending', 'complete', 'no_record', 'refunded'] as const;
export type LookupStatus = (typeof LOOKUP_STATUSES)[number];

/** A lookup whose stored result can be reopened: answered, whether it found something or not. */
export const isAnswered = (status: string): boolean => status === 'complete' || status === 'no_record';

export interface HistoryEntry {
  id: string;
  /** Who searched: only in a list asked with `scope=unit`. */
  user?: { id: string; name: string; email: string };
  kind: string;
  /** The normalized query the search matched and cached on. */
  query: string;
  /** The query as the user typed it (for intel, the filled fields: 'RC Number: MH12AB1234'). */
  query_typed: string;
  cost: number;
  /** `no_record`: the sources answered and found nothing (not a failure). */
  status: LookupStatus;
  cached: boolean;
  case_reference: string | null;
  created_at: string;
  /** Whether GET /api/history/{id} can still answer the stored result. */
  result_available: boolean;
  sandbox: boolean;
  /** Whether the charge was given back (a refunded search, or an intel search that found no record). */
  refunded: boolean;
}

export interface HistoryDetail {
  id: string;
  kind: string;
  query: string;
  query_typed: string;
  status: LookupStatus;
  case_reference: string | null;
  /** The legal basis the search stated itself (`legal_basis` on its request); absent when it stated none. */
  legal_basis?: LegalBasis;
  created_at: string;
  cost: number;
  cached: boolean;
  sandbox: boolean;
  /**
   * The stored answer in the shape the search endpoint gave it (tel: the phone search response;
   * email: `{ data }`; rc/upi/challan: `{ data }`; other kinds: as stored), without `credits`.
   */
  result: unknown;
  /** Who searched, when it was not the caller (a supervisor reading their people's work). */
  user?: { id: string; name: string; email: string };
}

export const statementQuery = z.strictObject({ ...pageFields });

export interface StatementEntry {
  id: number;
  at: string;
  delta: number;
  balance_after: number;
  kind: 'grant' | 'charge' | 'refund' | 'adjustment';
  reason: string;
  lookup_id: string | null;
  /** The unit whose credit pool paid (or was topped up); then balance_after is the pool's. Null: the user's own. */
  unit_id: string | null;
  unit_name: string | null;
  /** A unit pool's statement only: whose search the row charged or refunded. */
  user?: { id: string; name: string; email: string };
}

export interface CreditStatement extends Page<StatementEntry> {
  balance: number;
}
