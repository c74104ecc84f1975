import { setMaxListeners } from 'node:events';
import { type SourceMode, type SourceState, type SourceStatus, sourcesOfKind } from '@footprint/domain';
import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  TaskCancelledError,
} from 'cockatiel';
import { type SourceModes, sourceModes } from './modes.ts';
import {
  type Provider,
  type ProviderKind,
  type ProviderQuery,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
} from './types.ts';

export interface RunnerOptions {
  /** Default per-provider timeout; a provider's own `timeoutMs` wins. */
  timeoutMs: number;
  /** Consecutive failures that open a provider's breaker. */
  breakerFailures: number;
  /** How long an open breaker waits before letting one trial call through. */
  halfOpenAfterMs: number;
  /**
   * The sources a kind has in the catalogue (default: the domain's). A source with no provider is
   * `not_configured` in every answer of that kind.
   */
  sourcesOf?: (kind: ProviderKind) => readonly string[];
  /** Told of every call that reached a vendor (for the usage and spend records). */
  onCall?: (call: ProviderCall) => void;
}

/** One call that reached a provider: who, how it ended and how long it took. */
export interface ProviderCall {
  provider: Provider;
  state: SourceState;
  ms: number;
  at: Date;
}

/** What one lookup got from its sources: a payload or an error per source key. */
export interface FanOutResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  /** Sources that gave a definite answer (a payload, or "no record"). */
  answered: string[];
  /** True when any answer came from a sandbox provider. */
  sandbox: boolean;
  /** Every source of the kind: what became of it and who answers it. */
  status: Record<string, SourceStatus>;
}

export interface ProviderStats {
  id: string;
  source: string;
  kinds: readonly ProviderKind[];
  sandbox: boolean;
  calls: number;
  failures: number;
  timeouts: number;
  notFound: number;
  rejectedOpen: number;
  rateLimited: number;
  latency: { p50: number | null; p95: number | null; p99: number | null };
  breaker: 'closed' | 'open' | 'half-open' | 'isolated';
  /** The vendor refused our credentials on its last call: an operator must fix its variables. */
  misconfigured: boolean;
  /** The last failure, with its reason as the provider gave it (for operators only). */
  lastError: { at: string; message: string } | null;
  /** While the vendor's Retry-After runs, calls answer `rate_limited` without reaching it. */
  pausedUntil: string | null;
}

/** What the user reads for a source without a payload. */
export const SOURCE_MESSAGES = {
  not_found: 'No record found.',
  not_configured: 'Not configured in this deployment.',
  rate_limited: 'Source is rate limited; try again later.',
  failed: 'Source failed to answer.',
  timed_out: 'Source did not answer in time.',
  open: 'Source temporarily unavailable.',
} as const;

const LATENCY_WINDOW = 1000;

class ProviderSlot {
  calls = 0;
  failures = 0;
  timeouts = 0;
  notFound = 0;
  rejectedOpen = 0;
  rateLimited = 0;
  misconfigured = false;
  lastError: { at: Date; message: string } | null = null;
  pausedUntil = 0;
  private latencies: number[] = [];
  private next = 0;
  readonly breaker;
  /** How long the source may take before it is cut off (its own `timeoutMs`, else the runner's). */
  readonly timeoutMs: number;

  constructor(
    readonly provider: Provider,
    options: RunnerOptions,
  ) {
    // "No record" is an answer, not a fault: it must never open the breaker. A rate limit is the
    // vendor asking us to wait, which the pause below honours: it does not open the breaker either.
    // A source cut off at its timeout is a failure the breaker counts.
    this.breaker = circuitBreaker(
      handleWhen(
        (error) => !(error instanceof SourceNotFoundError || error instanceof SourceRateLimitedError),
      ),
      {
        halfOpenAfter: options.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(options.breakerFailures),
      },
    );
    this.timeoutMs = provider.timeoutMs ?? options.timeoutMs;
  }

  record(ms: number) {
    if (this.latencies.length < LATENCY_WINDOW) this.latencies.push(ms);
    else this.latencies[this.next] = ms;
    this.next = (this.next + 1) % LATENCY_WINDOW;
  }

  percentile(p: number): number | null {
    if (this.latencies.length === 0) return null;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
    return Math.round(sorted[Math.max(0, index)]! * 10) / 10;
  }

  stats(): ProviderStats {
    const state = this.breaker.state;
    return {
      id: this.provider.id,
      source: this.provider.source,
      kinds: this.provider.kinds,
      sandbox: this.provider.sandbox,
      calls: this.calls,
      failures: this.failures,
      timeouts: this.timeouts,
      notFound: this.notFound,
      rejectedOpen: this.rejectedOpen,
      rateLimited: this.rateLimited,
      misconfigured: this.misconfigured,
      lastError: this.lastError && { at: this.lastError.at.toISOString(), message: this.lastError.message },
      pausedUntil: this.pausedUntil > Date.now() ? new Date(this.pausedUntil).toISOString() : null,
      latency: { p50: this.percentile(50), p95: this.percentile(95), p99: this.percentile(99) },
      breaker:
        state === CircuitState.Open
          ? 'open'
          : state === CircuitState.HalfOpen
            ? 'half-open'
            : state === CircuitState.Isolated
              ? 'isolated'
              : 'closed',
    };
  }
}

/**
 * The time limit the sources of one lookup share: one timer and one signal for every source with the
 * same timeout (usually all of them), instead of a timeout policy, a timer and a derived signal per
 * source. When it passes, the signal is aborted (a source still working is told to stop) and
 * `expired` rejects with cockatiel's TaskCancelledError, which every source still unanswered loses
 * its race to.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private pending = 0;
  readonly expired: Promise<never>;

  constructor(ms: number, sources: number) {
    // Every source of the lookup may listen to the one signal: more listeners than Node's default
    // warning threshold is expected here, not a leak.
    setMaxListeners(sources + 10, this.controller.signal);
    let expire!: (error: Error) => void;
    this.expired = new Promise<never>((_, reject) => {
      expire = reject;
    });
    // Nobody may be racing it any more when it expires (every source answered): not an unhandled rejection.
    this.expired.catch(() => {});
    this.timer = setTimeout(() => {
      this.controller.abort(new TaskCancelledError(`Operation timed out after ${ms}ms`));
      expire(new TaskCancelledError(`Operation timed out after ${ms}ms`));
    }, ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A source starts under this deadline. */
  join() {
    this.pending += 1;
  }

  /**
   * A source under it answered or was cut off. Once every one has, the timer goes: a source that
   * answered is never told to abort.
   */
  leave() {
    this.pending -= 1;
    if (this.pending === 0) this.clear();
  }

  clear() {
    clearTimeout(this.timer);
  }
}

/**
 * Calls every provider of a query kind at once. Each has its own timeout and circuit breaker, so one
 * slow or broken source never fails or stalls the whole lookup: the answer holds every source's
 * payload or the reason it has none.
 */
export function createRunner(providers: Provider[], options: RunnerOptions) {
  const slots = providers.map((provider) => new ProviderSlot(provider, options));

  const sourcesOf = options.sourcesOf ?? sourcesOfKind;

  type Outcome =
    | { ok: true; payload: unknown }
    | { ok: false; state: Exclude<SourceState, 'ok' | 'not_configured'>; message: string };

  async function callOne(slot: ProviderSlot, query: ProviderQuery, deadline: Deadline): Promise<Outcome> {
    // The vendor asked us to wait (Retry-After): answer for it until the time has passed.
    if (slot.pausedUntil > Date.now()) {
      slot.rateLimited += 1;
      return { ok: false, state: 'rate_limited', message: SOURCE_MESSAGES.rate_limited };
    }
    const started = performance.now();
    slot.calls += 1;
    const done = (outcome: Outcome): Outcome => {
      const ms = performance.now() - started;
      options.onCall?.({
        provider: slot.provider,
        state: outcome.ok ? 'ok' : outcome.state,
        ms,
        at: new Date(),
      });
      return outcome;
    };
    try {
      // Every source joins before any can answer (callOne runs to here synchronously for each).
      deadline.join();
      const payload = await slot.breaker
        .execute(() => Promise.race([slot.provider.fetch(query, deadline.signal), deadline.expired]))
        .finally(() => deadline.leave());
      slot.record(performance.now() - started);
      slot.misconfigured = false;
      return done({ ok: true, payload });
    } catch (error) {
      if (error instanceof SourceNotFoundError) {
        slot.record(performance.now() - started);
        slot.notFound += 1;
        slot.misconfigured = false;
        return done({ ok: false, state: 'not_found', message: error.message });
      }
      if (error instanceof BrokenCircuitError) {
        // Rejected by the open breaker: no call went out, so nothing is recorded or spent.
        slot.calls -= 1;
        slot.rejectedOpen += 1;
        return { ok: false, state: 'failed', message: SOURCE_MESSAGES.open };
      }
      slot.lastError = { at: new Date(), message: (error as Error).message || String(error) };
      if (error instanceof SourceRateLimitedError) {
        slot.rateLimited += 1;
        if (error.retryAfterMs !== undefined) slot.pausedUntil = Date.now() + error.retryAfterMs;
        return done({ ok: false, state: 'rate_limited', message: SOURCE_MESSAGES.rate_limited });
      }
      slot.failures += 1;
      if (error instanceof TaskCancelledError) {
        slot.timeouts += 1;
        slot.lastError.message = 'No answer in time';
        return done({ ok: false, state: 'timed_out', message: SOURCE_MESSAGES.timed_out });
      }
      if (error instanceof SourceMisconfiguredError) slot.misconfigured = true;
      return done({ ok: false, state: 'failed', message: SOURCE_MESSAGES.failed });
    }
  }

  const modeOf = (provider: Provider): SourceMode => (provider.sandbox ? 'sandbox' : 'live');

  return {
    providersFor: (kind: ProviderKind) => slots.filter((slot) => slot.provider.kinds.includes(kind)),

    async run(query: ProviderQuery): Promise<FanOutResult> {
      const active = slots.filter((slot) => slot.provider.kinds.includes(query.kind));
      // One deadline per distinct timeout among the sources (usually one for the whole lookup).
      const deadlines = new Map<number, Deadline>();
      const deadlineOf = (ms: number) => {
        let deadline = deadlines.get(ms);
        if (!deadline) {
          deadline = new Deadline(ms, active.length);
          deadlines.set(ms, deadline);
        }
        return deadline;
      };
      let outcomes: Outcome[];
      try {
        outcomes = await Promise.all(active.map((slot) => callOne(slot, query, deadlineOf(slot.timeoutMs))));
      } finally {
        for (const deadline of deadlines.values()) deadline.clear();
      }
      const result: FanOutResult = { payloads: {}, errors: {}, answered: [], sandbox: false, status: {} };
      for (const source of sourcesOf(query.kind)) {
        if (!active.some((slot) => slot.provider.source === source))
          result.status[source] = {
            status: 'not_configured',
            mode: 'not_configured',
            message: SOURCE_MESSAGES.not_configured,
          };
      }
      outcomes.forEach((outcome, i) => {
        const { provider } = active[i]!;
        const who = { mode: modeOf(provider), ...(provider.vendor ? { vendor: provider.vendor.name } : {}) };
        if (outcome.ok) {
          result.payloads[provider.source] = outcome.payload;
          result.answered.push(provider.source);
          result.sandbox ||= provider.sandbox;
          result.status[provider.source] = { status: 'ok', ...who };
        } else {
          result.errors[provider.source] = outcome.message;
          result.status[provider.source] = { status: outcome.state, ...who, message: outcome.message };
          if (outcome.state === 'not_found') {
            result.answered.push(provider.source);
            result.sandbox ||= provider.sandbox;
          }
        }
      });
      return result;
    },

    /** True when at least one provider answers the kind (live or sandbox). */
    available: (kind: ProviderKind) => slots.some((slot) => slot.provider.kinds.includes(kind)),

    /** Per kind, per source: live, sandbox or not configured. */
    modes: (): SourceModes =>
      sourceModes(
        slots.map((slot) => slot.provider),
        sourcesOf,
      ),

    stats: (): ProviderStats[] => slots.map((slot) => slot.stats()),
  };
}

export type Runner = ReturnType<typeof createRunner>;
