import { SourceFailedError } from '../types.ts';

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

/** Upstream answers are untrusted: anything larger than this is refused rather than buffered. */
export const MAX_UPSTREAM_BYTES = 5 * 1024 * 1024;

/**
 * fetch + a size cap + JSON parsing, for vendor APIs. Network errors, oversize bodies and malformed
 * JSON all become SourceFailedError, so the runner counts them against the source's breaker.
 */
export async function fetchJson(
  url: string,
  init: RequestInit,
  maxBytes = MAX_UPSTREAM_BYTES,
): Promise<UpstreamResponse> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error' });
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason ?? error;
    throw new SourceFailedError(`Upstream unreachable: ${(error as Error).message}`);
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new SourceFailedError(`Upstream answer too large (${declared} bytes)`, res.status);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      let part: Awaited<ReturnType<typeof reader.read>>;
      try {
        part = await reader.read();
      } catch (error) {
        if (init.signal?.aborted) throw init.signal.reason ?? error;
        throw new SourceFailedError(`Upstream answer broke off: ${(error as Error).message}`, res.status);
      }
      if (part.done) break;
      size += part.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new SourceFailedError('Upstream answer too large', res.status);
      }
      chunks.push(part.value);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { status: res.status, headers: res.headers, body: undefined };
  try {
    return { status: res.status, headers: res.headers, body: JSON.parse(text) };
  } catch {
    throw new SourceFailedError('Upstream answered malformed JSON', res.status);
  }
}

/** Waits `ms`, or rejects at once when the signal aborts. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
