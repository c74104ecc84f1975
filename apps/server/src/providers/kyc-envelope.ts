import { isRecord } from '@footprint/domain';

/**
 * The KYC vendor's envelope (`{ data, status_code, success, message, message_code }`): its record, or
 * null when the envelope is the vendor's "no record". A record answer is `data` as an object with
 * success not false and a 2xx status; 404 and 422 envelopes, `success: false` and a null `data` are
 * "no record". The detail lookups (RC, UPI, challan) and the intel searches judge their one source's
 * answer by it, which the charging rule reads (a record is charged, "no record" is not).
 */
export function kycRecordOf(payload: unknown): Record<string, unknown> | null {
  if (!isRecord(payload) || !isRecord(payload.data)) return null;
  if (payload.success === false) return null;
  const status = payload.status_code;
  if (typeof status === 'number' && (status < 200 || status >= 300)) return null;
  return payload.data;
}

/** The vendor's own words for a "no record" envelope ('' when it gave none). */
export const kycMessageOf = (payload: unknown): string =>
  isRecord(payload) && typeof payload.message === 'string' ? payload.message.slice(0, 200) : '';

/** Whether a payload is the KYC vendor's envelope (its four keys), whatever it holds. */
export const isKycEnvelope = (payload: unknown): boolean =>
  isRecord(payload) && ['data', 'status_code', 'success', 'message_code'].every((key) => key in payload);
