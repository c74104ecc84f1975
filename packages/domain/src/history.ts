import { z } from 'zod';
import { type Page, pageFields } from './accountability.ts';

/** The signed-in user's own records: search history (/api/history) and the credit statement. */

/** Lookup kinds: tel, email, rc, upi, challan, leak, corporate, verification (optionally `kind:type`). */
export const LOOKUP_KIND_PATTERN = /^[a-z][a-z0-9_-]{0,39}(:[a-z0-9_-]{1,40})?$/;

export const historyQuery = z.strictObject({
  ...pageFields,
  kind: z
    .string({ error: 'The kind field must be a string.' })
    .regex(LOOKUP_KIND_PATTERN, 'The kind field is not a lookup kind.')
    .optional(),
});

export interface HistoryEntry {
  id: string;
  kind: string;
  query: string;
  cost: number;
  status: 'pending' | 'complete' | 'refunded';
  cached: boolean;
  case_reference: string | null;
  created_at: string;
  /** Whether GET /api/history/{id} can still answer the stored result. */
  result_available: boolean;
  sandbox: boolean;
}

export interface HistoryDetail {
  id: string;
  kind: string;
  query: string;
  case_reference: string | null;
  created_at: string;
  cost: number;
  cached: boolean;
  sandbox: boolean;
  /**
   * The stored answer in the shape the search endpoint gave it (tel: the phone search response;
   * email: `{ data }`; rc/upi/challan: `{ data }`; other kinds: as stored), without `credits`.
   */
  result: unknown;
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
}

export interface CreditStatement extends Page<StatementEntry> {
  balance: number;
}
