/**
 * The site checker's fetcher: one GET of a public profile page, on the operator's terms.
 * - http and https only, no credentials in the address, no cookies kept or sent, no Authorization;
 *   the operator's User-Agent (required), `Accept: text/html,...`, `Accept-Encoding: identity`;
 * - redirects followed by hand, at most 5, every hop's address checked by the one address guard
 *   (security/address-guard.ts: private and local ranges refused unless `allowAddresses` opens them;
 *   the address the socket connects to is the one checked, a literal IP before any connection);
 * - one deadline per check (every redirect and the body's reading included), a body size cap (the
 *   body is read up to it, then the connection is dropped; the hash covers exactly what was read);
 * - politeness (politeness.ts): one request at a time per site, a least interval between two starts
 *   (counted from when the last request went out), a cap on requests in flight across all sites;
 *   after a 429 the site is not asked again before its Retry-After (or `defaultRetryAfterMs`)
 *   passes: the fetcher answers `held` without a request;
 * - an AbortSignal that stops the waiting and the request in flight (the promise rejects with its
 *   reason);
 * - `onRequest` once per HTTP request made, for metrics.
 * Anything else that goes wrong (refused address, timeout, reset, bad redirect) is a `failed` with a
 * reason in words; `fetch` never rejects but for an abort.
 */
import { createHash } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { CatalogueSite } from '@footprint/domain';
import { ADDRESS_REFUSED, type AddressGuard, createAddressGuard } from '../../security/address-guard.ts';
import { bodyText, titleOf } from './page.ts';
import { createPoliteness } from './politeness.ts';
import type { SiteAnswer, SiteFetch, SiteFetcher, SiteFetcherOptions, SiteRequestEvent } from './types.ts';

const MAX_REDIRECTS = 5;
const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** Why a check got no answer, in words. */
class NoAnswer extends Error {}

/** A hop refused by the address guard (worded by the caller: the first address, or a redirect's). */
class Refused extends Error {}

interface Limits {
  guard: AddressGuard;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  deadline: number;
  signal: AbortSignal | undefined;
  /** Called when a request has gone out (the politeness interval counts from it). */
  sent: () => void;
}

const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');

const timedOut = (limits: Limits) => new NoAnswer(`no answer within ${limits.timeoutMs} ms`);

/** A connection failure in words ('connection refused', 'TLS certificate not accepted (CERT_HAS_EXPIRED)'). */
function unreachable(failure: NodeJS.ErrnoException): NoAnswer {
  const code = failure.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new NoAnswer('the host name does not resolve');
  if (code === 'ECONNREFUSED') return new NoAnswer('connection refused');
  if (code === 'ECONNRESET' || code === 'EPIPE') return new NoAnswer('connection reset');
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
    return new NoAnswer(`TLS certificate not accepted (${code})`);
  }
  return new NoAnswer(`could not be reached${code ? ` (${code})` : ''}`);
}

/** One HTTP GET of `url`: its answer's head, or a failure (NoAnswer, Refused, the signal's reason). */
function request(url: URL, limits: Limits): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    // A literal address never goes through DNS: it is checked here, before any connection.
    if (isIP(hostname) && !limits.guard.allowed(hostname, port)) return reject(new Refused(hostname));
    if (limits.signal?.aborted) return reject(abortReason(limits.signal));
    const client = url.protocol === 'https:' ? https : http;
    const outgoing = client.get(
      url,
      {
        lookup: limits.guard.lookupFor(port) as never,
        headers: {
          'user-agent': limits.userAgent,
          accept: ACCEPT,
          'accept-language': 'en-US,en;q=0.8',
          'accept-encoding': 'identity',
        },
        agent: false,
      },
      (response) => {
        done();
        resolve(response);
      },
    );
    const onAbort = () => outgoing.destroy(abortReason(limits.signal as AbortSignal) as Error);
    const timer = setTimeout(
      () => outgoing.destroy(timedOut(limits)),
      Math.max(1, limits.deadline - Date.now()),
    );
    const done = () => {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
    };
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.on('finish', limits.sent);
    outgoing.on('error', (failure: NodeJS.ErrnoException) => {
      done();
      if (limits.signal?.aborted) reject(abortReason(limits.signal));
      else if (failure instanceof NoAnswer) reject(failure);
      else if (failure.code === ADDRESS_REFUSED) reject(new Refused(hostname));
      else reject(unreachable(failure));
    });
  });
}

/** The body up to `maxBytes` (then the connection is dropped), within the deadline. */
function readBody(response: IncomingMessage, limits: Limits): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: { bytes: Buffer; truncated: boolean } | { failure: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      if ('failure' in outcome) reject(outcome.failure);
      else resolve(outcome);
    };
    const onAbort = () => {
      response.destroy();
      finish({ failure: abortReason(limits.signal as AbortSignal) });
    };
    const timer = setTimeout(
      () => {
        response.destroy();
        finish({ failure: timedOut(limits) });
      },
      Math.max(1, limits.deadline - Date.now()),
    );
    if (limits.signal?.aborted) return onAbort();
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (size + chunk.length > limits.maxBytes) {
        // Past the cap: keep what fits and stop reading (the rest is not downloaded).
        chunks.push(chunk.subarray(0, limits.maxBytes - size));
        size = limits.maxBytes;
        response.destroy();
        return finish({ bytes: Buffer.concat(chunks), truncated: true });
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    response.on('end', () => finish({ bytes: Buffer.concat(chunks), truncated: false }));
    response.on('error', () =>
      finish({ failure: new NoAnswer('the connection broke while the page was read') }),
    );
    response.on('close', () => {
      if (!response.complete)
        finish({ failure: new NoAnswer('the connection closed before the page was read') });
    });
  });
}

/** The address a redirect points to, if it is one the checker follows. */
function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new NoAnswer(`redirected to "${location.slice(0, 200)}", which is not an address`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new NoAnswer(`redirected to a ${next.protocol} address: not followed`);
  }
  if (next.username || next.password)
    throw new NoAnswer('redirected to an address with credentials: not followed');
  next.hash = '';
  return next;
}

/** The profile GET and its redirects: the last answer, read and hashed. */
async function getProfile(
  site: CatalogueSite,
  asked: URL,
  limits: Limits,
  emit: (event: SiteRequestEvent) => void,
): Promise<SiteAnswer> {
  const redirects: string[] = [];
  let url = asked;
  for (;;) {
    const started = Date.now();
    let response: IncomingMessage;
    try {
      response = await request(url, limits);
    } catch (failure) {
      const ms = Date.now() - started;
      if (limits.signal?.aborted) throw failure;
      if (failure instanceof Refused) {
        emit({ site: site.id, host: url.host, error: 'address refused', ms });
        throw new NoAnswer(
          redirects.length > 0
            ? `redirected to ${url.host}, a private or local address: not followed`
            : `${url.hostname} is a private or local address: not reached`,
        );
      }
      emit({ site: site.id, host: url.host, error: (failure as Error).message, ms });
      throw failure;
    }
    const status = response.statusCode ?? 0;
    emit({ site: site.id, host: url.host, status, ms: Date.now() - started });
    const location = response.headers.location;
    if (status >= 300 && status <= 399 && location) {
      response.destroy();
      if (redirects.length >= limits.maxRedirects) {
        throw new NoAnswer(`more than ${limits.maxRedirects} redirects`);
      }
      url = redirectTarget(location, url);
      redirects.push(url.toString());
      continue;
    }
    const { bytes, truncated } = await readBody(response, limits);
    const body = bodyText(bytes, response.headers['content-type']);
    return {
      url: asked.toString(),
      finalUrl: url.toString(),
      status,
      redirects,
      headers: response.headers,
      body,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      truncated,
      title: titleOf(body),
      receivedAt: new Date().toISOString(),
    };
  }
}

/** A profile address the checker asks: http or https, no credentials, no fragment. */
function profileAddress(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NoAnswer('the profile address is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NoAnswer(`the profile address is ${url.protocol}, not http or https`);
  }
  if (url.username || url.password) throw new NoAnswer('the profile address carries credentials');
  url.hash = '';
  return url;
}

/** Milliseconds a 429's Retry-After asks for (seconds or an HTTP date), bounded; the default without one. */
export function retryAfterMs(
  header: string | string[] | undefined,
  now: number,
  bounds: { defaultMs: number; maxMs: number },
): number {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  let ms = bounds.defaultMs;
  if (value && /^\d+$/.test(value)) ms = Number(value) * 1000;
  else if (value && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - now;
  return Math.min(Math.max(ms, 0), bounds.maxMs);
}

export function createSiteFetcher(options: SiteFetcherOptions): SiteFetcher {
  const userAgent = options.userAgent?.trim();
  if (!userAgent) throw new Error('The site fetcher needs a User-Agent.');
  const guard = createAddressGuard(options.allowAddresses ?? []);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const maxRedirects = Math.min(options.maxRedirects ?? MAX_REDIRECTS, MAX_REDIRECTS);
  const politeness = createPoliteness({
    minIntervalMs: options.minIntervalMs ?? 1000,
    maxInFlight: Math.max(1, options.maxInFlight ?? 16),
  });
  const bounds = {
    defaultMs: options.defaultRetryAfterMs ?? 60_000,
    maxMs: options.maxRetryAfterMs ?? 86_400_000,
  };
  const emit = (event: SiteRequestEvent) => {
    try {
      options.onRequest?.(event);
    } catch {
      // A metrics hook's failure is not the check's.
    }
  };

  return {
    async fetch(site, raw, signal): Promise<SiteFetch> {
      let asked: URL;
      try {
        asked = profileAddress(raw);
      } catch (failure) {
        return { kind: 'failed', reason: (failure as Error).message };
      }
      const turn = await politeness.turn(site.id, signal);
      if (turn.kind === 'held') return { kind: 'held', until: turn.until };
      try {
        const limits = {
          guard,
          userAgent,
          timeoutMs,
          maxBytes,
          maxRedirects,
          signal,
          deadline: Date.now() + timeoutMs,
          sent: turn.sent,
        };
        const answer = await getProfile(site, asked, limits, emit);
        if (answer.status === 429) {
          const now = Date.now();
          politeness.hold(site.id, now + retryAfterMs(answer.headers['retry-after'], now, bounds));
        }
        return { kind: 'answer', answer };
      } catch (failure) {
        if (signal?.aborted) throw abortReason(signal);
        if (failure instanceof NoAnswer) return { kind: 'failed', reason: failure.message };
        return {
          kind: 'failed',
          reason: `unexpected failure: ${(failure as Error)?.message ?? String(failure)}`,
        };
      } finally {
        turn.release();
      }
    },
    heldUntil: (siteId) => politeness.heldUntil(siteId),
  };
}
