import {
  accountabilityMessages,
  type BlockedAccountStatus,
  BULK_MAX_ROWS,
  type BulkStatus,
  captureMessages,
  casesMessages,
  type FieldErrors,
  messages,
  type SearchApproval,
  toFieldErrors,
} from '@footprint/domain';
import type { z } from 'zod';

/*
 * The error catalogue: every refusal the server raises, by a stable code and a named factory. It knows
 * no HTTP: http/errors.ts maps each code to its status (and Retry-After) in one table, so a service,
 * the bulk worker or the CLI decide on `error.code`, and a new code without a status does not compile.
 * The codes stay on the server: the answers carry the message and the body fields, not the code.
 */

export const ERROR_CODES = [
  // Input, accounts, sessions and CSRF
  'validation_failed',
  'control_characters',
  'unauthenticated',
  'forbidden',
  'account_pending',
  'account_rejected',
  'account_disabled',
  'second_factor_setup_required',
  'not_found',
  'too_many_requests',
  'csrf_mismatch',
  'otp_cooldown',
  'outbox_loopback_only',
  'passkey_wrong_host',
  // Case reference, history, cases
  'case_reference_required',
  'result_purged',
  'no_stored_result',
  'case_closed',
  'legal_basis_required',
  'case_owner_only',
  'capture_off',
  'capture_not_ready',
  // Units
  'unit_conflict',
  // Admin
  'last_admin',
  'below_zero',
  'not_pending',
  'site_check_off',
  // API keys
  'too_many_api_keys',
  'api_key_cap_reached',
  // Paid searches and reports
  'insufficient_credits',
  'held_for_approval',
  'no_source_answered',
  'kind_unavailable',
  'page_out_of_range',
  'invalid_search',
  'live_only',
  'no_record',
  'source_failed',
  'reports_busy',
  'render_failed',
  // Bulk lookups
  'too_many_rows',
  'unreadable_file',
  'file_too_large',
  'bulk_busy',
  'bad_upload',
  'no_valid_row',
  'illegal_transition',
  // Watchlists
  'too_many_watches',
  'watch_exists',
  // Media and map tiles
  'media_url_invalid',
  'media_host_refused',
  'media_address_refused',
  'media_redirect_refused',
  'media_too_large',
  'media_not_image',
  'media_upstream_failed',
  'media_timeout',
  'tile_invalid',
  // The database, Redis or the SMTP server unreachable for a moment (outage.ts).
  'service_unavailable',
  // Anything unforeseen: the edge answers it with a generic message and logs it.
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The refusals of the picture fetcher (modules/media/fetcher.ts). */
export type MediaErrorCode = Extract<ErrorCode, `media_${string}`>;

/** Body fields beside the message, with the spec's keys (`errors`, `error`, `details`, `credits`, …). */
export interface ErrorFields {
  errors?: FieldErrors;
  details?: unknown;
  credits?: number;
  /** Seconds; the edge also sends it as the Retry-After header. */
  retry_after?: number;
  [key: string]: unknown;
}

/** The one error type: a code of the catalogue, the message a person reads, and the body fields. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: ErrorFields = {},
  ) {
    super(message);
  }
}

const firstMessage = (errors: FieldErrors): string | undefined => Object.values(errors)[0]?.[0];

/** One message on one field: the message is also the field's. */
const onField = (field: string, message: string): ErrorFields => ({ errors: { [field]: [message] } });

// ---------- input, accounts, sessions and CSRF ----------

export const validationError = (errors: FieldErrors, message: string = messages.errors.validation) =>
  new DomainError('validation_failed', firstMessage(errors) ?? message, { errors });

/**
 * A passkey ceremony started from a page open at another origin than APP_URL (the relying party):
 * the browser would refuse it, or the server would not verify it. Says where passkeys work.
 */
export const passkeyWrongHost = (appUrl: string, openedAt: string) => {
  const message = messages.security.passkeys.wrongHost(appUrl, openedAt);
  return new DomainError('passkey_wrong_host', message, {
    errors: { response: [message] },
    passkey_url: appUrl,
  });
};

/** Parses input with a domain schema; a failure is `validation_failed` with the spec's `errors` object. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(toFieldErrors(result.error));
  return result.data;
}

const controlCharacterMessage = (where: string) => `${where} must not contain control characters.`;

/** A header, cookie, path, key or value holding a control character (http/input-guard.ts). */
export const controlCharacters = (field: string, where: string) => {
  const message = controlCharacterMessage(where);
  return new DomainError('control_characters', message, onField(field, message));
};

export const unauthenticated = () => new DomainError('unauthenticated', messages.errors.unauthenticated);
export const forbidden = (message: string = messages.errors.forbidden) =>
  new DomainError('forbidden', message);
/**
 * A sign-in refused for the state of the account (pending approval, rejected, disabled). Only ever
 * answered after the right password (or code), so it tells nothing to someone without it.
 */
export const accountBlocked = (status: BlockedAccountStatus) =>
  new DomainError(
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
  new DomainError('second_factor_setup_required', messages.secondFactor.setupRequired, {
    second_factor_setup_required: true,
  });
export const notFound = (message: string = messages.errors.notFound) => new DomainError('not_found', message);
export const tooManyRequests = (retryAfterSeconds: number, message?: string) =>
  new DomainError('too_many_requests', message ?? messages.errors.tooManyRequests(retryAfterSeconds), {
    retry_after: retryAfterSeconds,
  });

export const csrfMismatch = () => new DomainError('csrf_mismatch', messages.errors.csrfMismatch);

/** A new OTP asked for before the resend cooldown is over. */
export const otpCooldown = (retryAfterSeconds: number) =>
  new DomainError('otp_cooldown', messages.otp.cooldown(retryAfterSeconds), {
    retry_after: retryAfterSeconds,
  });

const OUTBOX_LOOPBACK_ONLY =
  "The development outbox answers only requests from this machine (127.0.0.1 or ::1) addressed to localhost, a loopback address or APP_URL's host, never through a proxy.";

/** The development outbox asked from another machine or through a proxy (modules/mail/routes.ts). */
export const outboxLoopbackOnly = () => new DomainError('outbox_loopback_only', OUTBOX_LOOPBACK_ONLY);

/**
 * A dependency (the database, Redis, the SMTP server) is unreachable for now: try again after
 * `retry_after` seconds. Only the edge raises it, from an error outage.ts classifies.
 */
export const serviceUnavailable = (retryAfterSeconds: number) =>
  new DomainError('service_unavailable', messages.errors.serviceUnavailable, {
    retry_after: retryAfterSeconds,
  });

/** Anything that is not a refusal: the answer names no internals. */
export const internalError = () => new DomainError('internal', messages.errors.internal);

// ---------- case reference, history and cases ----------

/** The deployment requires a case reference and the search had none. */
export const caseReferenceRequired = () =>
  new DomainError(
    'case_reference_required',
    messages.caseReference.required,
    onField('case_reference', messages.caseReference.required),
  );

/** Reopening a result that the retention purge removed. */
export const resultPurged = () =>
  new DomainError(
    'result_purged',
    accountabilityMessages.resultPurged,
    onField('id', accountabilityMessages.resultPurged),
  );

/** A lookup of the caller's that has no stored result (pending, refunded). */
export const noStoredResult = () =>
  new DomainError('no_stored_result', accountabilityMessages.noStoredResult);

/**
 * A change to a closed case. Filing a search under a closed case's reference names it on the
 * `case_reference` field; a note or an item added to a closed case has no field to name.
 */
export const closedCase = (reference?: string) =>
  reference === undefined
    ? new DomainError('case_closed', casesMessages.closed)
    : new DomainError(
        'case_closed',
        casesMessages.closedCase(reference),
        onField('case_reference', casesMessages.closedCase(reference)),
      );

/** A capture asked of a server where capturing pages is off (CAPTURE_ENABLED) or has no browser. */
export const captureOff = () => new DomainError('capture_off', captureMessages.unavailable);
/** A capture's files or removal asked before it finished, after it failed or once removed. */
export const captureNotReady = () => new DomainError('capture_not_ready', captureMessages.notDone);

/** A search filed under a case whose legal basis is not recorded yet. */
export const legalBasisMissing = (reference: string) =>
  new DomainError(
    'legal_basis_required',
    casesMessages.legalBasisMissing(reference),
    onField('case_reference', casesMessages.legalBasisMissing(reference)),
  );

/** A new case without the legal basis the deployment requires. */
export const legalBasisRequired = () =>
  new DomainError(
    'legal_basis_required',
    casesMessages.legalBasisRequired,
    onField('case_reference', casesMessages.legalBasisRequired),
  );

/** A change only the case's owner may make. */
export const caseOwnerOnly = () => new DomainError('case_owner_only', casesMessages.ownerOnly);

// ---------- units ----------

/**
 * A change to the tree or a membership that the tree's state refuses (a unit not empty, the default
 * unit, a move under itself, a name taken, a user's last unit); `field` names the input at fault.
 */
export const unitConflict = (message: string, field?: string) =>
  new DomainError('unit_conflict', message, field ? onField(field, message) : {});

// ---------- admin ----------

/** Demoting or disabling the last active admin; `field` is the one that would have done it. */
export const lastAdmin = (field: 'role' | 'status') =>
  new DomainError(
    'last_admin',
    accountabilityMessages.lastAdmin,
    onField(field, accountabilityMessages.lastAdmin),
  );

/** A deduction that would take the balance below zero; nothing was changed. */
export const belowZero = (balance: number) =>
  new DomainError('below_zero', accountabilityMessages.belowZero(balance), {
    ...onField('amount', accountabilityMessages.belowZero(balance)),
    credits: balance,
  });

/** Approving or rejecting an account that is not waiting for a decision. */
export const notPending = (status: string) =>
  new DomainError('not_pending', accountabilityMessages.notPending(status));

// ---------- API keys (docs/api.md) ----------

/** The account already holds its maximum of active keys. */
export const tooManyApiKeys = (max: number) =>
  new DomainError(
    'too_many_api_keys',
    messages.apiKeys.tooMany(max),
    onField('name', messages.apiKeys.tooMany(max)),
  );

/** The search would take the key past its monthly credit cap; nothing was charged. */
export const apiKeyCapReached = (cap: number, spent: number, credits: number) =>
  new DomainError('api_key_cap_reached', messages.apiKeys.capReached(cap, spent), {
    credits,
    monthly_credit_cap: cap,
    credits_this_month: spent,
  });

// ---------- paid searches (the searches module and the lookup, leak and intel services) ----------

/** The balance does not cover the search; `credits` is the balance. */
/**
 * A balance that cannot pay. For a member of a unit pool, the message and `pool` say whether the pool
 * or their monthly allowance ran out (modules/credits shortfallOf).
 */
export const insufficientCredits = (
  credits: number,
  pool?: {
    unitId: string;
    unitName: string;
    ranOut: 'pool' | 'allowance';
    pool: number;
    allowance: number;
    used: number;
  } | null,
) => {
  if (!pool) return new DomainError('insufficient_credits', messages.credits.insufficient, { credits });
  const message =
    pool.ranOut === 'pool'
      ? messages.credits.poolRanOut(pool.unitName, pool.pool, credits)
      : messages.credits.allowanceRanOut(pool.unitName, pool.used, pool.allowance, credits);
  return new DomainError('insufficient_credits', message, {
    credits,
    pool: {
      unit_id: pool.unitId,
      unit: pool.unitName,
      ran_out: pool.ranOut,
      balance: pool.pool,
      monthly_allowance: pool.allowance,
      used_this_month: pool.used,
    },
  });
};

/** A sensitive search held for a supervisor's approval: a 202 naming the request and where to poll it. */
export const heldForApproval = (message: string, approval: SearchApproval) =>
  new DomainError('held_for_approval', message, {
    status: 'pending',
    approval,
    poll: `/api/approvals/${approval.id}`,
  });

/** Not one source answered a phone, e-mail or detail lookup; the charge was refunded. */
export const noSourceAnswered = (credits: number, errorsBySource: Record<string, string>) =>
  new DomainError('no_source_answered', 'No source answered this lookup. Your credits were refunded.', {
    credits,
    errors_by_source: errorsBySource,
  });

/**
 * No source of this kind is configured in this deployment (the sandbox is off and no vendor answers
 * it). Nothing is charged or written.
 */
export const kindUnavailable = (label: string) =>
  new DomainError(
    'kind_unavailable',
    `${label} searches are not available in this deployment: no source for them is configured. No credits were charged.`,
  );

/** The catalogue's self-check asked for while the site check is off (SITE_CHECK_ENABLED). */
export const siteCheckOff = () =>
  new DomainError(
    'site_check_off',
    'The site check is off in this deployment (SITE_CHECK_ENABLED): there is no catalogue to check.',
  );

/** A leak search page past the last one; the charge was refunded. */
export const pageOutOfRange = (message: string, credits: number) =>
  new DomainError('page_out_of_range', message, { ...onField('page', message), credits });

/** A search the source cannot take (`error` repeats the message, as the spec's browser reads it). */
export const invalidSearch = (message: string, errors?: FieldErrors) =>
  new DomainError('invalid_search', message, { error: message, ...(errors ? { errors } : {}) });

/** Trial accounts never reach a corporate or verification source. */
export const liveOnly = () =>
  new DomainError('live_only', messages.upgrade.body, { error: messages.upgrade.body });

/** The source answered that it holds no record; the charge was refunded. */
export const noRecord = (credits: number, lookupId: string) =>
  new DomainError('no_record', messages.intel.noRecord, { credits, lookup_id: lookupId });

/** The source did not answer; the charge was refunded. */
export const sourceFailed = (credits: number, lookupId: string) =>
  new DomainError('source_failed', messages.intel.upstreamFailed, { credits, lookup_id: lookupId });

// ---------- reports ----------

/**
 * Every report thread is busy and the report queue is full (REPORT_THREADS, REPORT_QUEUE); try again
 * after `retry_after` seconds. Nothing was drawn; a paid credit report was refunded (`credits`).
 */
export const reportsBusy = (
  retryAfterSeconds: number,
  extra: { credits?: number; lookup_id?: string } = {},
) =>
  new DomainError(
    'reports_busy',
    `Reports are busy right now. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.${extra.credits === undefined ? '' : ' Your credits were refunded.'}`,
    { retry_after: retryAfterSeconds, ...extra },
  );

/** The credit report could not be drawn; the charge was refunded. */
export const renderFailed = (credits: number, lookupId: string) =>
  new DomainError('render_failed', messages.creditReport.failed, { credits, lookup_id: lookupId });

// ---------- bulk lookups ----------

/** A list longer than BULK_MAX_ROWS, pasted or uploaded. */
export const tooManyRows = () =>
  new DomainError(
    'too_many_rows',
    messages.bulkJobs.tooManyRows(BULK_MAX_ROWS),
    onField('values', messages.bulkJobs.tooManyRows(BULK_MAX_ROWS)),
  );

/** An upload that is neither a readable CSV nor an XLSX workbook. */
export const unreadableFile = () => new DomainError('unreadable_file', messages.bulkJobs.unreadableFile);

/** An upload over the size limit (modules/bulk/parse.ts BULK_FILE_MAX_BYTES). */
export const fileTooLarge = (megabytes: number) =>
  new DomainError('file_too_large', messages.bulkJobs.fileTooLarge(megabytes));

/** A workbook that inflates past the limit (modules/bulk/parse.ts BULK_XLSX_LIMITS), whatever its size. */
export const workbookTooLarge = (megabytes: number) =>
  new DomainError('file_too_large', messages.bulkJobs.workbookTooLarge(megabytes));

/** A workbook (a zip archive) of more entries than any list needs. */
export const workbookTooManyParts = (max: number) =>
  new DomainError('file_too_large', messages.bulkJobs.workbookTooManyParts(max));

/** A cell longer than a spreadsheet cell may be (32,767 characters). */
export const cellTooLong = (max: number) =>
  new DomainError('unreadable_file', messages.bulkJobs.cellTooLong(max));

/** Every upload reader is busy and the few waiting places are taken: try again after `retry_after`. */
export const bulkBusy = (retryAfterSeconds: number) =>
  new DomainError('bulk_busy', messages.bulkJobs.busy(retryAfterSeconds), { retry_after: retryAfterSeconds });

/** A multipart body the parser refused (its own message: truncated, too many parts, …). */
export const badUpload = (message: string) => new DomainError('bad_upload', message);

/** A list in which not one value is a valid number or address; `invalid` shows the first refused ones. */
export const noValidRow = (message: string, invalid: unknown[]) =>
  new DomainError('no_valid_row', message, { ...onField('values', message), invalid });

/** Pausing, resuming or cancelling a job whose state does not allow it; `status` is the job's. */
export const illegalTransition = (action: string, status: BulkStatus) =>
  new DomainError('illegal_transition', messages.bulkJobs.illegalTransition(action, status), { status });

// ---------- watchlists ----------

/** The account already watches its maximum. */
export const tooManyWatches = (max: number) =>
  new DomainError(
    'too_many_watches',
    messages.watchlist.tooMany(max),
    onField('query', messages.watchlist.tooMany(max)),
  );

/** The same kind and query is watched already. */
export const watchExists = () =>
  new DomainError(
    'watch_exists',
    messages.watchlist.duplicate,
    onField('query', messages.watchlist.duplicate),
  );

// ---------- media and map tiles ----------

const MEDIA_URL_INVALID = 'The url parameter must be an http or https address.';

/** GET /api/media without a usable url parameter. */
export const mediaUrlInvalid = () =>
  new DomainError('media_url_invalid', MEDIA_URL_INVALID, onField('url', MEDIA_URL_INVALID));

/** A refusal of the picture fetcher, with its own code and message (modules/media/fetcher.ts). */
export const mediaRefused = (code: MediaErrorCode, message: string) => new DomainError(code, message);

/** Map tile coordinates outside the zoom's grid. */
export const tileInvalid = () => new DomainError('tile_invalid', 'No such tile.');
