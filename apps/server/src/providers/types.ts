/**
 * A provider answers one source of one or more query kinds. The runner calls every provider of a kind
 * in parallel, each with its own timeout and circuit breaker, and keeps each one's payload or error.
 */

import type { DetailKind, LookupKind, ProviderKind } from '@footprint/domain';

export type { ProviderKind };
/** The lookups of the search, results and detail screens (a part of the domain's SearchKind). */
export type QueryKind = LookupKind | DetailKind;

export interface ProviderQuery {
  kind: ProviderKind;
  /**
   * The normalized query: tel → dial code + 10 digits ('919876543210'); email → lower-case address;
   * rc → upper-case registration without separators ('MH12AB1234'); upi → the UPI id as given;
   * corporate:* and verification:* → the canonical query text ('id_number=…&year=2024').
   */
  value: string;
  /** Corporate and verification searches: the validated form fields (trimmed; checkboxes as booleans). */
  params?: Readonly<Record<string, string | boolean>>;
}

export interface Provider {
  /** Stable id for metrics and logs, e.g. 'sandbox:wpData' or 'hibp:hibpData'. */
  id: string;
  /** The answer key this provider fills, e.g. 'wpData' (spec §3). */
  source: string;
  kinds: readonly ProviderKind[];
  /** Overrides the runner's default timeout (8 s). */
  timeoutMs?: number;
  /** Resolves with the source's payload (spec §3 shape), or throws. Must stop work when `signal` aborts. */
  fetch(query: ProviderQuery, signal: AbortSignal): Promise<unknown>;
  /** True for synthetic data; answers that used one are marked 'Sandbox data — synthetic'. */
  sandbox: boolean;
  /** The vendor behind a live provider: its name for the source panel and its price per call. */
  vendor?: VendorInfo;
}

/** Who answers a live source, and what one call costs in the vendor's own currency. */
export interface VendorInfo {
  /** Stable id, e.g. 'gravatar'. */
  id: string;
  /** Its name as shown to users and operators, e.g. 'Gravatar'. */
  name: string;
  /** Price of one call (configured by the operator; 0 when not set). */
  costPerCall: number;
  /** ISO 4217 code of that price, e.g. 'USD'. */
  currency: string;
}

/** The source has no record for this query: an answer, not a failure (a lookup whose every answering source says so is refunded: README, "Credits"). */
export class SourceNotFoundError extends Error {
  constructor(message = 'No record found.') {
    super(message);
    this.name = 'SourceNotFoundError';
  }
}

/** The source failed (bad status, malformed body, refused): counts against its circuit breaker. */
export class SourceFailedError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SourceFailedError';
  }
}

/**
 * The vendor refused our credentials (401/403): the deployment is misconfigured. The user sees the
 * source as failed; operators see it flagged on the Providers screen.
 */
export class SourceMisconfiguredError extends SourceFailedError {
  constructor(message: string, status?: number) {
    super(message, status);
    this.name = 'SourceMisconfiguredError';
  }
}

/**
 * The vendor is rate limiting us (429). `retryAfterMs` is its Retry-After: the runner does not call
 * the vendor again before it has passed, answering `rate_limited` instead.
 */
export class SourceRateLimitedError extends SourceFailedError {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message, 429);
    this.name = 'SourceRateLimitedError';
  }
}
