import { declarationOf, isStoredLookupResult, type ReusedFrom } from '@footprint/domain';

/** The paid lookup a reused answer replays, as the server knows it. */
export interface ReusedLookup {
  lookupId: string;
  caseReference: string | null;
}

/** What every lookup answer says of its time: when its sources answered, and what it reuses. */
export interface AnswerTime {
  answered_at: string;
  reused_from: ReusedFrom | null;
}

/** `answered_at` and `reused_from` of a lookup answer (live, or reopened from history). */
export const presentAnswerTime = (answeredAt: Date, reusedFrom: ReusedLookup | null): AnswerTime => ({
  answered_at: answeredAt.toISOString(),
  reused_from: reusedFrom
    ? { lookup_id: reusedFrom.lookupId, case_reference: reusedFrom.caseReference }
    : null,
});

/**
 * A stored result in the shape its search endpoint answered it (without `credits`; with
 * `source_status` when it was kept), so the history page can show it with the same components, with
 * `answered_at` and `reused_from` when `time` is given. The kind's declaration knows the shape; kinds
 * stored in other shapes (leak, corporate, verification) come back as stored.
 */
export function presentStoredResult(kind: string, result: unknown, time?: AnswerTime): unknown {
  const declaration = declarationOf(kind);
  if (!declaration || !isStoredLookupResult(result)) return result;
  // An old result has no statuses: the page rebuilds them from the payloads and errors.
  const meta = { ...(result.status ? { source_status: result.status } : {}), ...time };
  return declaration.reopen(result, meta);
}
