/**
 * How the checker waits its turn: one request at a time per site (keyed by the catalogue id), a least
 * interval between the starts of two requests to the same site, a cap on requests in flight across all
 * sites, and a site left alone after a 429 until its Retry-After passes. The waits are first come,
 * first served, and an abort signal takes a waiter out of line.
 */

/** Why a wait ended without a turn: the signal's reason, or an AbortError. */
const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');

/** A counting semaphore whose waiters leave the line when their signal aborts. */
class Gate {
  private taken = 0;
  private readonly line: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.taken < this.limit && this.line.length === 0) {
      this.taken++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.taken++;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const at = this.line.indexOf(grant);
        if (at >= 0) this.line.splice(at, 1);
        reject(abortReason(signal as AbortSignal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(grant);
    });
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.taken--;
      this.line.shift()?.();
    };
  }
}

/** Waits `ms`, or rejects when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface SiteLine {
  gate: Gate;
  /** When the last request to it started, then went out (epoch ms); 0: never. */
  lastStart: number;
  /** Until when it is left alone after a 429 (epoch ms); 0: it is not. */
  heldUntil: number;
}

/**
 * A turn: `sent` each time a request of it has gone out (the interval counts from the last one, so
 * the site sees the gap however long the connection took), `release` when the check is over.
 */
export type Turn = { kind: 'go'; sent: () => void; release: () => void } | { kind: 'held'; until: number };

export interface Politeness {
  /**
   * Waits for the site's turn (the request before it to this site over, the interval since its start
   * passed) and a slot among all sites. A site held after a 429 gets no turn: `held`, until when.
   */
  turn(siteId: string, signal?: AbortSignal): Promise<Turn>;
  /** Leaves the site alone until `until` (epoch ms), unless it is held longer already. */
  hold(siteId: string, until: number): void;
  heldUntil(siteId: string): number | undefined;
}

export function createPoliteness(options: { minIntervalMs: number; maxInFlight: number }): Politeness {
  const all = new Gate(options.maxInFlight);
  const sites = new Map<string, SiteLine>();
  const lineOf = (siteId: string): SiteLine => {
    let line = sites.get(siteId);
    if (!line) {
      line = { gate: new Gate(1), lastStart: 0, heldUntil: 0 };
      sites.set(siteId, line);
    }
    return line;
  };
  const heldUntil = (siteId: string): number | undefined => {
    const until = sites.get(siteId)?.heldUntil ?? 0;
    return until > Date.now() ? until : undefined;
  };

  return {
    async turn(siteId, signal) {
      const line = lineOf(siteId);
      const releaseSite = await line.gate.acquire(signal);
      try {
        const held = heldUntil(siteId);
        if (held !== undefined) {
          releaseSite();
          return { kind: 'held', until: held };
        }
        await pause(line.lastStart + options.minIntervalMs - Date.now(), signal);
        const releaseSlot = await all.acquire(signal);
        line.lastStart = Date.now();
        return {
          kind: 'go',
          sent: () => {
            line.lastStart = Date.now();
          },
          release: () => {
            releaseSlot();
            releaseSite();
          },
        };
      } catch (failure) {
        releaseSite();
        throw failure;
      }
    },
    hold(siteId, until) {
      const line = lineOf(siteId);
      line.heldUntil = Math.max(line.heldUntil, until);
    },
    heldUntil,
  };
}
