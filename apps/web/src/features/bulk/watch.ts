import { type BulkJob, bulkJobResponse } from '@footprint/domain';
import { createParser } from 'eventsource-parser';
import { api, apiUrl, authHeaders } from '../../lib/api.ts';
import { hasStatus } from '../../lib/field-errors.ts';
import { isFinal } from './list.ts';

/**
 * Following a running bulk job. GET /api/bulk/{id}/events is an event stream whose every `data:` line
 * is the job as JSON, ending after a final status. The browser's EventSource cannot send the bearer
 * token the app signs in with (lib/api.ts), so the stream is read with fetch and eventsource-parser;
 * when it cannot be opened or breaks before the end, the job is asked for every 2 seconds instead.
 */

/** A job from one event's data; `null` for anything that is not one (a comment, a keep-alive). */
export function jobOf(data: string): BulkJob | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = bulkJobResponse.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Reads an event stream's body, handing each job to `onJob`, until the stream ends or a job arrives in
 * a final status. Resolves with the last job read, or `null` when none came.
 */
export async function readJobStream(
  body: ReadableStream<Uint8Array>,
  onJob: (job: BulkJob) => void,
): Promise<BulkJob | null> {
  let last: BulkJob | null = null;
  const parser = createParser({
    onEvent(event) {
      const job = jobOf(event.data);
      if (!job) return;
      last = job;
      onJob(job);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (last && isFinal((last as BulkJob).status)) break;
    }
  } finally {
    // Lets go of the connection when the job finished before the server closed it.
    reader.cancel().catch(() => {});
  }
  return last;
}

export interface WatchJobOptions {
  /** Opens the event stream (a fetch; its answer must be 2xx with a body). */
  open: (signal: AbortSignal) => Promise<Response>;
  /** Asks for the job once (GET /api/bulk/{id}). */
  poll: (signal: AbortSignal) => Promise<BulkJob>;
  onJob: (job: BulkJob) => void;
  /** Called once when the stream failed and the watch falls back to asking. */
  onFallback?: () => void;
  signal: AbortSignal;
  /** Milliseconds between two polls. */
  pollMs?: number;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** The job is gone or no longer this user's to read: asking again cannot help. */
const hopeless = (error: unknown) => hasStatus(error, 401, 403, 404);

/**
 * Follows a job until it reaches a final status or `signal` aborts: the stream first, then, if the
 * stream fails or ends early, a poll every `pollMs`. Resolves with the last job seen. A poll the
 * server refuses for good (401, 403, 404) rejects with that error; other failures are tried again.
 */
export async function watchJob(options: WatchJobOptions): Promise<BulkJob | null> {
  const { signal, onJob } = options;
  let last: BulkJob | null = null;
  const seen = (job: BulkJob) => {
    last = job;
    onJob(job);
  };
  try {
    const response = await options.open(signal);
    if (!response.ok || !response.body) throw new Error(`The event stream answered ${response.status}.`);
    const final = await readJobStream(response.body, seen);
    if (final && isFinal(final.status)) return final;
  } catch {
    // Falls through to polling, unless the page let go of the job.
  }
  if (signal.aborted) return last;
  options.onFallback?.();
  while (!signal.aborted) {
    try {
      const job = await options.poll(signal);
      seen(job);
      if (isFinal(job.status)) return job;
    } catch (error) {
      if (signal.aborted) break;
      if (hopeless(error)) throw error;
    }
    await wait(options.pollMs ?? 2_000, signal);
  }
  return last;
}

const jobPath = (id: string) => `/api/bulk/${encodeURIComponent(id)}`;

/** `watchJob` against the product's API, with the session's headers. */
export function watchBulkJob(
  id: string,
  onJob: (job: BulkJob) => void,
  signal: AbortSignal,
  onFallback?: () => void,
): Promise<BulkJob | null> {
  return watchJob({
    open: (abort) =>
      fetch(apiUrl(`${jobPath(id)}/events`), {
        headers: { Accept: 'text/event-stream', ...authHeaders('GET') },
        credentials: 'include',
        cache: 'no-store',
        signal: abort,
      }),
    poll: (abort) => api.get<BulkJob>(jobPath(id), { signal: abort }),
    onJob,
    onFallback,
    signal,
  });
}
