import {
  accountabilityMessages,
  type BlockedAccountStatus,
  type FieldErrors,
  messages,
  toFieldErrors,
} from '@footprint/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { RateLimitedError } from '../security/rate-limit.ts';

/** The one error type. Bodies use the spec's keys: message, error, errors, details, credits. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: {
      errors?: FieldErrors;
      details?: unknown;
      credits?: number;
      [key: string]: unknown;
    } = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return { message: this.message, ...this.extra };
  }
}

export const validationError = (errors: FieldErrors, message: string = messages.errors.validation) =>
  new AppError(422, 'validation_failed', firstMessage(errors) ?? message, { errors });

const firstMessage = (errors: FieldErrors): string | undefined => Object.values(errors)[0]?.[0];

export const unauthenticated = () => new AppError(401, 'unauthenticated', messages.errors.unauthenticated);
export const forbidden = (message: string = messages.errors.forbidden) =>
  new AppError(403, 'forbidden', message);
/**
 * A sign-in refused for the state of the account (pending approval, rejected, disabled). Only ever
 * answered after the right password (or code), so it tells nothing to someone without it.
 */
export const accountBlocked = (status: BlockedAccountStatus) =>
  new AppError(
    403,
    `account_${status}`,
    status === 'pending'
      ? messages.login.accountPending
      : status === 'rejected'
        ? messages.login.accountRejected
        : messages.login.accountDisabled,
    { account_status: status },
  );
/** The deployment requires a second factor and the account has none yet: only the Security page works. */
export const secondFactorSetupRequired = () =>
  new AppError(403, 'second_factor_setup_required', messages.secondFactor.setupRequired, {
    second_factor_setup_required: true,
  });
export const notFound = (message: string = messages.errors.notFound) =>
  new AppError(404, 'not_found', message);
export const tooManyRequests = (retryAfterSeconds: number, message?: string) =>
  new AppError(
    429,
    'too_many_requests',
    message ?? messages.errors.tooManyRequests(retryAfterSeconds),
    { retry_after: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );

// ---------- the catalogue: accounts, sessions and CSRF ----------

export const csrfMismatch = () => new AppError(419, 'csrf_mismatch', messages.errors.csrfMismatch);

/** A new OTP asked for before the resend cooldown is over. */
export const otpCooldown = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'otp_cooldown',
    messages.otp.cooldown(retryAfterSeconds),
    { retry_after: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );

// ---------- the catalogue: case reference, history and reports ----------

/** The deployment requires a case reference and the search had none. */
export const caseReferenceRequired = () =>
  new AppError(422, 'case_reference_required', messages.caseReference.required, {
    errors: { case_reference: [messages.caseReference.required] },
  });

/** Reopening a result that the retention purge removed. */
export const resultPurged = () =>
  new AppError(410, 'result_purged', accountabilityMessages.resultPurged, {
    errors: { id: [accountabilityMessages.resultPurged] },
  });

/** A lookup of the caller's that has no stored result (pending, refunded). */
export const noStoredResult = () =>
  new AppError(404, 'no_stored_result', accountabilityMessages.noStoredResult);

// ---------- the catalogue: admin ----------

/** Demoting or disabling the last active admin; `field` is the one that would have done it. */
export const lastAdmin = (field: 'role' | 'status') =>
  new AppError(422, 'last_admin', accountabilityMessages.lastAdmin, {
    errors: { [field]: [accountabilityMessages.lastAdmin] },
  });

/** A deduction that would take the balance below zero; nothing was changed. */
export const belowZero = (balance: number) =>
  new AppError(422, 'below_zero', accountabilityMessages.belowZero(balance), {
    errors: { amount: [accountabilityMessages.belowZero(balance)] },
    credits: balance,
  });

// ---------- API keys (docs/api.md) ----------

/** 422: the account already holds its maximum of active keys. */
export const tooManyApiKeys = (max: number) =>
  new AppError(422, 'too_many_api_keys', messages.apiKeys.tooMany(max), {
    errors: { name: [messages.apiKeys.tooMany(max)] },
  });

/** 402: the search would take the key past its monthly credit cap; nothing was charged. */
export const apiKeyCapReached = (cap: number, spent: number, credits: number) =>
  new AppError(402, 'api_key_cap_reached', messages.apiKeys.capReached(cap, spent), {
    credits,
    monthly_credit_cap: cap,
    credits_this_month: spent,
  });

// ---------- end of the catalogue ----------
// Searches: the refusals of a paid search (the searches module and the lookup, leak and intel services).

/** 402: the balance does not cover the search; `credits` is the balance. */
export const insufficientCredits = (credits: number) =>
  new AppError(402, 'insufficient_credits', messages.credits.insufficient, { credits });

/** 502: not one source answered a phone, e-mail or detail lookup; the charge was refunded. */
export const noSourceAnswered = (credits: number, errorsBySource: Record<string, string>) =>
  new AppError(502, 'no_source_answered', 'No source answered this lookup. Your credits were refunded.', {
    credits,
    errors_by_source: errorsBySource,
  });

/**
 * 503: no source of this kind is configured in this deployment (the sandbox is off and no vendor
 * answers it). Nothing is charged or written.
 */
export const kindUnavailable = (label: string) =>
  new AppError(
    503,
    'kind_unavailable',
    `${label} searches are not available in this deployment: no source for them is configured. No credits were charged.`,
  );

/** 422: a leak search page past the last one; the charge was refunded. */
export const pageOutOfRange = (message: string, credits: number) =>
  new AppError(422, 'page_out_of_range', message, { errors: { page: [message] }, credits });

/**
 * 400, not 422: the spec's browser reads 422 as 'no record found' (spec §4, §8). `errors`, per field
 * as every other form answers them (`data.id_number`, `type`, ...), when the input names its fields.
 */
export const invalidSearch = (message: string, errors?: FieldErrors) =>
  new AppError(400, 'invalid_search', message, { error: message, ...(errors ? { errors } : {}) });

/** 403: trial accounts never reach a corporate or verification source. */
export const liveOnly = () =>
  new AppError(403, 'live_only', messages.upgrade.body, { error: messages.upgrade.body });

/** 422: the source answered that it holds no record; the charge was refunded. */
export const noRecord = (credits: number, lookupId: string) =>
  new AppError(422, 'no_record', messages.intel.noRecord, { credits, lookup_id: lookupId });

/** 502: the source did not answer; the charge was refunded. */
export const sourceFailed = (credits: number, lookupId: string) =>
  new AppError(502, 'source_failed', messages.intel.upstreamFailed, { credits, lookup_id: lookupId });

/**
 * 503: every report thread is busy and the report queue is full (REPORT_THREADS, REPORT_QUEUE); try
 * again after Retry-After seconds. Nothing was drawn; a paid credit report was refunded (`credits`).
 */
export const reportsBusy = (
  retryAfterSeconds: number,
  extra: { credits?: number; lookup_id?: string } = {},
) =>
  new AppError(
    503,
    'reports_busy',
    `Reports are busy right now. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.${extra.credits === undefined ? '' : ' Your credits were refunded.'}`,
    { retry_after: retryAfterSeconds, ...extra },
    { 'retry-after': String(retryAfterSeconds) },
  );

/** 500: the credit report could not be drawn; the charge was refunded. */
export const renderFailed = (credits: number, lookupId: string) =>
  new AppError(500, 'render_failed', messages.creditReport.failed, { credits, lookup_id: lookupId });

// End of Searches.

/** Parses input with a domain schema; a failure is a 422 with the spec's `errors` object. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(toFieldErrors(result.error));
  return result.data;
}

/**
 * Maps every error to JSON. Client errors keep their message; a 5xx never leaks internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | AppError | RateLimitedError, request, reply) => {
    // A spent rate limit (security/rate-limit.ts) is a 429 with Retry-After.
    const error =
      thrown instanceof RateLimitedError
        ? tooManyRequests(thrown.retryAfterSeconds, thrown.customMessage)
        : thrown;
    if (error instanceof AppError) {
      return reply.status(error.status).headers(error.headers).send(error.body());
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const message = clientMessage(error);
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: messages.errors.internal });
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
