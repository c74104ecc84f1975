import type { HistoryDetail, HistoryEntry } from '@footprint/domain';
import type { LookupRow } from '../../db/schema.ts';
import { presentAnswerTime, presentStoredResult, type ReusedLookup } from '../lookup/present.ts';

/** A lookup row as the history list reads it, with whether its result is still kept. */
export type HistoryListRow = Pick<
  LookupRow,
  'id' | 'kind' | 'query' | 'cost' | 'status' | 'cacheOf' | 'caseReference' | 'createdAt' | 'sandbox'
> & { kept: unknown };

/** One line of the history list: the result is available only for a complete lookup still kept. */
export const presentHistoryEntry = (row: HistoryListRow): HistoryEntry => ({
  id: row.id,
  kind: row.kind,
  query: row.query,
  cost: row.cost,
  status: row.status,
  cached: row.cacheOf !== null,
  case_reference: row.caseReference,
  created_at: row.createdAt.toISOString(),
  result_available: row.status === 'complete' && Boolean(row.kept),
  sandbox: row.sandbox,
});

/**
 * A reopened lookup with its stored result (for a cache hit, the result of the lookup it reused) in
 * the shape its search endpoint answered it, saying when its sources answered and what it reused.
 */
export const presentHistoryDetail = (
  lookup: LookupRow,
  result: unknown,
  time: { answeredAt: Date; reusedFrom: ReusedLookup | null },
): HistoryDetail => ({
  id: lookup.id,
  kind: lookup.kind,
  query: lookup.query,
  case_reference: lookup.caseReference,
  created_at: lookup.createdAt.toISOString(),
  cost: lookup.cost,
  cached: lookup.cacheOf !== null,
  sandbox: lookup.sandbox,
  result: presentStoredResult(lookup.kind, result, presentAnswerTime(time.answeredAt, time.reusedFrom)),
});
