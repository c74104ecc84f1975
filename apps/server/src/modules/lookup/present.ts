import type { SourceStatus } from '@footprint/domain';

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
 * detail kinds as `{ data }`. Kinds stored in other shapes (leak, corporate, verification) come back
 * as stored.
 */
export function presentStoredResult(kind: string, result: unknown): unknown {
  if (!isStored(result)) return result;
  const { payloads, errors, status } = result;
  // An old result has no statuses: the page rebuilds them from the payloads and errors.
  const meta = status ? { source_status: status } : {};
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
