/**
 * Asking the leak-search vendors, in parallel, each within its own timeout. A vendor never fails the
 * search: whatever it does (an error, a hostile answer, silence), its outcome is a status and the
 * records it found that match the query.
 */
import type { LeakOrigin, LeakOriginState, LeakRecord } from '@footprint/domain';
import type { LeakSearcher, LeakSearchQuery } from '../../providers/leak-search.ts';
import { SourceNotFoundError, SourceRateLimitedError } from '../../providers/types.ts';
import { vendorRecordOf } from './federation.ts';
import type { LeakCondition } from './query.ts';

export interface VendorOutcome {
  /** The vendor's stable id ('leakcheck'). */
  id: string;
  origin: LeakOrigin;
  status: LeakOriginState;
  /** Its records that match every row of the query, labelled with its origin. */
  records: LeakRecord[];
  /** Why it gave nothing (kept with the lookup for operators; never shown to users). */
  error?: string;
}

/** The status of a vendor that threw. */
export function statusOfError(error: unknown): LeakOriginState {
  if (error instanceof SourceNotFoundError) return 'not_found';
  if (error instanceof SourceRateLimitedError) return 'rate_limited';
  return 'failed';
}

/** `work`, or its signal's reason as soon as the signal aborts (a searcher that ignores it is not awaited). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Thrown into a searcher's signal when its time is up. */
class VendorTimeout extends Error {}

/** One vendor's outcome; it never rejects. `stop` aborts it early (the local search failed). */
export async function askVendor(
  searcher: LeakSearcher,
  query: LeakSearchQuery,
  conditions: readonly LeakCondition[],
  stop: AbortSignal,
): Promise<VendorOutcome> {
  const origin: LeakOrigin = { kind: 'vendor', name: searcher.vendor.name };
  const base = { id: searcher.vendor.id, origin };
  if (!query.rows.some((row) => searcher.searchable.includes(row.type)))
    return { ...base, status: 'unsupported', records: [] };

  const controller = new AbortController();
  const timeout = new VendorTimeout(`${searcher.vendor.name} did not answer within ${searcher.timeoutMs} ms`);
  const timer = setTimeout(() => controller.abort(timeout), searcher.timeoutMs);
  const onStop = () => controller.abort(stop.reason);
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });
  try {
    const work = Promise.resolve().then(() => searcher.search(query, controller.signal));
    const found = await untilAborted(work, controller.signal);
    const records = found
      .map((record) => vendorRecordOf(record, conditions, origin, searcher.vendor.id))
      .filter((record): record is LeakRecord => record !== null);
    return { ...base, status: records.length > 0 ? 'ok' : 'not_found', records };
  } catch (error) {
    const timedOut = controller.signal.reason === timeout;
    return {
      ...base,
      status: timedOut ? 'timed_out' : statusOfError(error),
      records: [],
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
}

/** Every vendor's outcome, asked in parallel. */
export const askVendors = (
  searchers: readonly LeakSearcher[],
  query: LeakSearchQuery,
  conditions: readonly LeakCondition[],
  stop: AbortSignal,
): Promise<VendorOutcome[]> =>
  Promise.all(searchers.map((searcher) => askVendor(searcher, query, conditions, stop)));
