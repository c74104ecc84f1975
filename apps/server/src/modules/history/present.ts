import { type HistoryDetail, type HistoryEntry, isAnswered } from '@footprint/domain';
import type { LookupRow } from '../../db/schema.ts';
import { presentAnswerTime, presentStoredResult, type ReusedLookup } from '../lookup/present.ts';

/** A lookup row as the history list reads it, with whether its result is still kept. */
export type HistoryListRow = Pick<
  LookupRow,
  | 'id'
  | 'kind'
  | 'query'
  | 'queryTyped'
  | 'cost'
  | 'status'
  | 'cacheOf'
  | 'caseReference'
  | 'createdAt'
  | 'sandbox'
> & { kept: unknown; refunded: unknown; holder?: { id: string; name: string; email: string } | null };

/**
 * One line of the history list: the result is available only for an answered lookup still kept; a
 * list of the units' searches (`scope=unit`) names who searched.
 */
export const presentHistoryEntry = (row: HistoryListRow, scope?: 'mine' | 'unit'): HistoryEntry => ({
  id: row.id,
  ...(scope === 'unit' && row.holder ? { user: row.holder } : {}),
  kind: row.kind,
  query: row.query,
  query_typed: row.queryTyped,
  cost: row.cost,
  status: row.status,
  cached: row.cacheOf !== null,
  case_reference: row.caseReference,
  created_at: row.createdAt.toISOString(),
  result_available: isAnswered(row.status) && Boolean(row.kept),
  sandbox: row.sandbox,
  refunded: Boolean(row.refunded),
});

/**
 * A reopened lookup with its stored result (for a cache hit, the result of the lookup it reused) in
 * the shape its search endpoint answered it, saying when its sources answered and what it reused.
 */
export const presentHistoryDetail = (
  lookup: LookupRow,
  result: unknown,
  time: {
    answeredAt: Date;
    reusedFrom: ReusedLookup | null;
    holder?: { id: string; name: string; email: string } | undefined;
  },
): HistoryDetail => ({
  id: lookup.id,
  ...(time.holder ? { user: time.holder } : {}),
  kind: lookup.kind,
  query: lookup.query,
  query_typed: lookup.queryTyped,
  status: lookup.status,
  case_reference: lookup.caseReference,
  ...(lookup.legalBasis ? { legal_basis: lookup.legalBasis } : {}),
  created_at: lookup.createdAt.toISOString(),
  cost: lookup.cost,
  cached: lookup.cacheOf !== null,
  sandbox: lookup.sandbox,
  result: presentStoredResult(lookup.kind, result, presentAnswerTime(time.answeredAt, time.reusedFrom)),
});
