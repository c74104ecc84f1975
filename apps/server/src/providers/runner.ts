import { setMaxListeners } from 'node:events';
import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  type IPolicy,
  TaskCancelledError,
  TimeoutStrategy,
  timeout,
  wrap,
} from 'cockatiel';
import { type Provider, type ProviderKind, type ProviderQuery, SourceNotFoundError } from './types.ts';

export interface RunnerOptions {
  /** Default per-provider timeout; a provider's own `timeoutMs` wins. */
  timeoutMs: number;
  /** Consecutive failures that open a provider's breaker. */
  breakerFailures: number;
  /** How long an open breaker waits before letting one trial call through. */
  halfOpenAfterMs: number;
}

/** What one lookup got from its sources: a payload or an error per source key. */
export interface FanOutResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  /** Sources that gave a definite answer (a payload, or "no record"). */
  answered: string[];
  /** True when any answer came from a sandbox provider. */
  sandbox: boolean;
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
  latency: { p50: number | null; p95: number | null; p99: number | null };
  breaker: 'closed' | 'open' | 'half-open' | 'isolated';
}

const LATENCY_WINDOW = 1000;

class ProviderSlot {
  calls = 0;
  failures = 0;
  timeouts = 0;
  notFound = 0;
  rejectedOpen = 0;
  private latencies: number[] = [];
  private next = 0;
  readonly breaker;
  readonly policy: IPolicy;

  constructor(
    readonly provider: Provider,
    options: RunnerOptions,
  ) {
    // "No record" is an answer, not a fault: it must never open the breaker.
    this.breaker = circuitBreaker(
      handleWhen((error) => !(error instanceof SourceNotFoundError)),
      {
        halfOpenAfter: options.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(options.breakerFailures),
      },
    );
    this.policy = wrap(
      this.breaker,
      // abortOnReturn off: a source that already answered has nothing to cancel, and aborting costs
      // a DOMException per call on the hot path.
      timeout(provider.timeoutMs ?? options.timeoutMs, {
        strategy: TimeoutStrategy.Aggressive,
        abortOnReturn: false,
      }),
    );
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
 * Calls every provider of a query kind at once. Each has its own timeout and circuit breaker, so one
 * slow or broken source never fails or stalls the whole lookup: the answer holds every source's
 * payload or the reason it has none.
 */
export function createRunner(providers: Provider[], options: RunnerOptions) {
  const slots = providers.map((provider) => new ProviderSlot(provider, options));

  async function callOne(slot: ProviderSlot, query: ProviderQuery, lookupSignal: AbortSignal) {
    const started = performance.now();
    slot.calls += 1;
    try {
      const payload = await slot.policy.execute(
        ({ signal }) => slot.provider.fetch(query, signal),
        lookupSignal,
      );
      slot.record(performance.now() - started);
      return { ok: true as const, payload };
    } catch (error) {
      if (error instanceof SourceNotFoundError) {
        slot.record(performance.now() - started);
        slot.notFound += 1;
        return { ok: false as const, answered: true, message: error.message };
      }
      if (error instanceof BrokenCircuitError) {
        slot.rejectedOpen += 1;
        return { ok: false as const, answered: false, message: 'Source temporarily unavailable.' };
      }
      slot.failures += 1;
      if (error instanceof TaskCancelledError) {
        slot.timeouts += 1;
        return { ok: false as const, answered: false, message: 'Source did not answer in time.' };
      }
      return { ok: false as const, answered: false, message: 'Source failed to answer.' };
    }
  }

  return {
    providersFor: (kind: ProviderKind) => slots.filter((slot) => slot.provider.kinds.includes(kind)),

    async run(query: ProviderQuery): Promise<FanOutResult> {
      const active = slots.filter((slot) => slot.provider.kinds.includes(query.kind));
      // One signal per lookup, listened to by every source's policy: more listeners than Node's
      // default warning threshold is expected here, not a leak.
      const lookup = new AbortController();
      setMaxListeners(active.length + 10, lookup.signal);
      const outcomes = await Promise.all(active.map((slot) => callOne(slot, query, lookup.signal)));
      const result: FanOutResult = { payloads: {}, errors: {}, answered: [], sandbox: false };
      outcomes.forEach((outcome, i) => {
        const { provider } = active[i]!;
        if (outcome.ok) {
          result.payloads[provider.source] = outcome.payload;
          result.answered.push(provider.source);
          result.sandbox ||= provider.sandbox;
        } else {
          result.errors[provider.source] = outcome.message;
          if (outcome.answered) {
            result.answered.push(provider.source);
            result.sandbox ||= provider.sandbox;
          }
        }
      });
      return result;
    },

    stats: (): ProviderStats[] => slots.map((slot) => slot.stats()),
  };
}

export type Runner = ReturnType<typeof createRunner>;
