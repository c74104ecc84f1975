/** What a lookup stores in `lookups.result` (tel, email and the detail kinds). */
export interface StoredLookupResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
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
 * A stored result in the shape its search endpoint answered it (without `credits`), so the history
 * page can show it with the same components: tel as the phone search response, email and the
 * detail kinds as `{ data }`. Kinds stored in other shapes (leak, corporate, verification) come back
 * as stored.
 */
export function presentStoredResult(kind: string, result: unknown): unknown {
  if (!isStored(result)) return result;
  const { payloads, errors } = result;
  switch (kind) {
    case 'tel':
      return { ...payloads, errors };
    case 'email':
      return { data: { ...payloads, errors } };
    case 'rc':
    case 'upi':
    case 'challan':
      return { data: detailEnvelope(payloads, errors, kind) };
    default:
      return result;
  }
}
