import type { z } from 'zod';
import { SourceFailedError, SourceMisconfiguredError, SourceRateLimitedError } from '../types.ts';

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

/** Upstream answers are untrusted: anything larger than this is refused rather than buffered. */
export const MAX_UPSTREAM_BYTES = 5 * 1024 * 1024;

/**
 * fetch + a size cap, for vendor APIs: the body as text. Redirects are refused (a vendor never
 * legitimately sends us to another host). Network errors and oversize bodies become
 * SourceFailedError, so the runner counts them against the source's breaker.
 */
async function fetchText(url: string, init: RequestInit, maxBytes: number) {
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
  return { res, text: Buffer.concat(chunks).toString('utf8') };
}

/** JSON.parse that turns a malformed or absurdly nested body into SourceFailedError. */
function parseJson(text: string, status: number, who = 'Upstream'): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // SyntaxError for malformed JSON, RangeError for nesting deep enough to exhaust the stack.
    throw new SourceFailedError(`${who} answered malformed JSON`, status);
  }
}

/**
 * fetch + a size cap + JSON parsing, for vendor APIs that read every status themselves (HIBP, KYC).
 * Network errors, oversize bodies and malformed JSON all become SourceFailedError.
 */
export async function fetchJson(
  url: string,
  init: RequestInit,
  maxBytes = MAX_UPSTREAM_BYTES,
): Promise<UpstreamResponse> {
  const { res, text } = await fetchText(url, init, maxBytes);
  return { status: res.status, headers: res.headers, body: parseJson(text, res.status) };
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface VendorRequest extends RequestInit {
  /** The vendor's name, for messages and logs ('Gravatar'). */
  vendor: string;
  /** Body cap; MAX_UPSTREAM_BYTES unless the vendor's answers are known to be smaller. */
  maxBytes?: number;
}

/**
 * One call to a vendor API, with the statuses every vendor shares already read:
 * - 401 and 403 throw SourceMisconfiguredError (our key is wrong: an operator's problem);
 * - 429 throws SourceRateLimitedError carrying Retry-After;
 * - 5xx and any other status outside 2xx and 404 throw SourceFailedError;
 * - a body that is not JSON (an HTML error page, a login wall) throws SourceFailedError.
 * 2xx and 404 come back with their parsed body: whether 404 means "no record" is the adapter's call.
 */
export async function vendorFetch(url: string, request: VendorRequest): Promise<UpstreamResponse> {
  const { vendor, maxBytes = MAX_UPSTREAM_BYTES, ...init } = request;
  const { res, text } = await fetchText(url, init, maxBytes);
  if (res.status === 401 || res.status === 403)
    throw new SourceMisconfiguredError(`${vendor} refused the credentials (${res.status})`, res.status);
  if (res.status === 429)
    throw new SourceRateLimitedError(
      `${vendor} rate limit reached`,
      retryAfterMs(res.headers.get('retry-after')),
    );
  if (res.status !== 404 && (res.status < 200 || res.status > 299))
    throw new SourceFailedError(`${vendor} answered ${res.status}`, res.status);
  const type = res.headers.get('content-type') ?? '';
  if (text.trim() !== '' && !/\bjson\b/i.test(type))
    throw new SourceFailedError(
      `${vendor} answered ${type.split(';')[0] || 'an untyped body'}, not JSON`,
      res.status,
    );
  return { status: res.status, headers: res.headers, body: parseJson(text, res.status, vendor) };
}

/**
 * Checks a vendor's answer against the shape its documentation gives (a zod schema). A wrong shape,
 * including an error envelope sent with 200, is SourceFailedError: nothing from it is kept.
 */
export function parseVendorBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  vendor: string,
  status = 200,
): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') || 'body';
    throw new SourceFailedError(`${vendor} answered an unexpected shape (${where})`, status);
  }
  return parsed.data;
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
