import type { ReusedFrom, SourceStatus } from '@footprint/domain';

/** What a lookup stores in `lookups.result` (tel, email and the detail kinds). */
export interface StoredLookupResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  /** What became of every source; absent from results stored before it was kept. */
  status?: Record<string, SourceStatus>;
}

const isStored = (value: unknown): value is StoredLookupResult =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredLookupResult).payloads === 'object' &&
  typeof (value as StoredLookupResult).errors === 'object';

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

/** A detail lookup answers `data` as the vendor envelope (spec §7: the browser reads data.data). */
export const detailEnvelope = (
  payloads: Record<string, unknown>,
  errors: Record<string, string>,
  source: string,
) =>
  payloads[source] ?? {
    data: null,
    status_code: 404,
    success: false,
    message: errors[source] ?? 'No record found.',
    message_code: 'not_found',
  };

/**
 * A stored result in the shape its search endpoint answered it (without `credits`; with
 * `source_status` when it was kept), so the history page can show it with the same components: tel as the phone search response, email and the
 * detail kinds as `{ data }`, each with `answered_at` and `reused_from` when `time` is given. Kinds
 * stored in other shapes (leak, corporate, verification) come back as stored.
 */
export function presentStoredResult(kind: string, result: unknown, time?: AnswerTime): unknown {
  if (!isStored(result)) return result;
  const { payloads, errors, status } = result;
  // An old result has no statuses: the page rebuilds them from the payloads and errors.
  const meta = { ...(status ? { source_status: status } : {}), ...time };
  switch (kind) {
    case 'tel':
      return { ...payloads, errors, ...meta };
    case 'email':
      return { data: { ...payloads, errors }, ...meta };
    case 'rc':
    case 'upi':
    case 'challan':
      return { data: detailEnvelope(payloads, errors, kind), ...meta };
    default:
      return result;
  }
}
