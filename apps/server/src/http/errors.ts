import { messages } from '@footprint/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import {
  DomainError,
  type ErrorCode,
  internalError,
  serviceUnavailable,
  tooManyRequests,
} from '../errors.ts';
import { noteOutage, OUTAGE_RETRY_AFTER_SECONDS, outageOf } from '../outage.ts';
import { RateLimitedError } from '../security/rate-limit.ts';

/**
 * The HTTP status of every code of the catalogue (src/errors.ts), in one place: a code added there
 * without a status here does not compile.
 */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  validation_failed: 422,
  // 400, not 422 (also invalid_search): the spec's browser reads 422 from a search as 'no record
  // found' (spec §4, §8).
  control_characters: 400,
  unauthenticated: 401,
  forbidden: 403,
  account_pending: 403,
  account_rejected: 403,
  account_disabled: 403,
  second_factor_setup_required: 403,
  not_found: 404,
  too_many_requests: 429,
  csrf_mismatch: 419,
  otp_cooldown: 429,
  outbox_loopback_only: 403,
  passkey_wrong_host: 400,
  case_reference_required: 422,
  result_purged: 410,
  no_stored_result: 404,
  case_closed: 409,
  legal_basis_required: 422,
  case_owner_only: 403,
  capture_off: 409,
  capture_not_ready: 409,
  unit_conflict: 409,
  last_admin: 422,
  below_zero: 422,
  not_pending: 409,
  site_check_off: 409,
  too_many_api_keys: 422,
  api_key_cap_reached: 402,
  insufficient_credits: 402,
  // Not an error: the search is held for a supervisor's approval (modules/approvals); the body says where to poll.
  held_for_approval: 202,
  no_source_answered: 502,
  kind_unavailable: 503,
  page_out_of_range: 422,
  invalid_search: 400, // see control_characters
  live_only: 403,
  no_record: 422,
  source_failed: 502,
  reports_busy: 503,
  render_failed: 500,
  too_many_rows: 422,
  unreadable_file: 422,
  file_too_large: 413,
  bulk_busy: 503,
  bad_upload: 400,
  no_valid_row: 422,
  illegal_transition: 409,
  too_many_watches: 422,
  watch_exists: 409,
  media_url_invalid: 400,
  media_host_refused: 403,
  media_address_refused: 403,
  media_redirect_refused: 502,
  media_too_large: 413,
  media_not_image: 415,
  media_upstream_failed: 502,
  media_timeout: 504,
  tile_invalid: 400,
  service_unavailable: 503,
  internal: 500,
};

export const httpStatusOf = (code: ErrorCode): number => HTTP_STATUS[code];

/**
 * A domain error as the API answers it: the status of its code, the body with the spec's keys
 * (`message` first, then the error's fields), and Retry-After whenever the body names `retry_after`.
 */
export function answerOf(error: DomainError): {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  const retryAfter = error.extra.retry_after;
  return {
    status: HTTP_STATUS[error.code],
    headers: retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
    body: { message: error.message, ...error.extra },
  };
}

/**
 * Maps every error to JSON. Client errors keep their message; a 5xx never leaks internals. An
 * unreachable database, Redis or SMTP server is a 503 with Retry-After, logged once per outage by its
 * tracker (outage.ts), not once per request.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | DomainError | RateLimitedError, request, reply) => {
    // A spent rate limit (security/rate-limit.ts) is a 429 with Retry-After.
    const error =
      thrown instanceof RateLimitedError
        ? tooManyRequests(thrown.retryAfterSeconds, thrown.customMessage)
        : thrown;
    if (error instanceof DomainError) {
      const answer = answerOf(error);
      return reply.status(answer.status).headers(answer.headers).send(answer.body);
    }
    // Only server-side failures: a client's own reset while sending its body stays its 4xx.
    const dependency = (error.statusCode ?? 500) >= 500 ? outageOf(error) : undefined;
    if (dependency) {
      noteOutage(dependency, error);
      const answer = answerOf(serviceUnavailable(OUTAGE_RETRY_AFTER_SECONDS));
      return reply.status(answer.status).headers(answer.headers).send(answer.body);
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const message = clientMessage(error);
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, 'unhandled error');
    const answer = answerOf(internalError());
    return reply.status(answer.status).send(answer.body);
  });
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return messages.errors.malformedJson;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return messages.errors.unsupportedMedia;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    default:
      // Fastify's own 4xx messages are safe and specific (bad content length, bad URL, ...).
      return error.message || messages.errors.generic;
  }
}
