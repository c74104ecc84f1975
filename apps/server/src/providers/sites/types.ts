/**
 * The username site checker's own shapes: what one GET of a profile page answers (`SiteAnswer`, the
 * input of `classify`), what the fetcher hands back for one site (`SiteFetch`), and the fetcher's
 * options and metrics event. The states and the evidence are the domain's (`@footprint/domain`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CatalogueSite } from '@footprint/domain';

/** The last answer of one profile GET, after the redirects it followed. */
export interface SiteAnswer {
  /** The profile URL asked for. */
  url: string;
  /** The address the last answer came from. */
  finalUrl: string;
  status: number;
  /** The addresses each redirect led to, in order (the last is `finalUrl`); empty when none. */
  redirects: string[];
  /** The last answer's headers (lower-case names). */
  headers: IncomingHttpHeaders;
  /** The body read, as text (its charset, else UTF-8), up to the size cap. */
  body: string;
  /** Bytes of body read, and their SHA-256 (hex). */
  bytes: number;
  sha256: string;
  /** Whether the body went on past the size cap (what is past it was not read). */
  truncated: boolean;
  /** The page's <title>, one line, common entities decoded ('' when none). */
  title: string;
  /** When the answer came (ISO 8601). */
  receivedAt: string;
}

/** What the fetcher did for one site. */
export type SiteFetch =
  /** It got an answer (any status). */
  | { kind: 'answer'; answer: SiteAnswer }
  /** It asked nothing: the site said 429 and its Retry-After has not passed (epoch ms). */
  | { kind: 'held'; until: number }
  /** It got no answer: a refused address, a timeout, a reset, too many redirects, a bad address. */
  | { kind: 'failed'; reason: string };

/** One HTTP request made (a redirect is a request of its own), for metrics. */
export interface SiteRequestEvent {
  /** The catalogue id. */
  site: string;
  /** host[:port] asked. */
  host: string;
  /** Its status, when it answered; else `error` says why not. */
  status?: number;
  error?: string;
  /** From the request's start to its headers (or its failure). */
  ms: number;
}

export interface SiteFetcherOptions {
  /** The User-Agent every request carries (the operator's; required, never a browser's by default). */
  userAgent: string;
  /** Private addresses the checker may reach (`parseAllowedAddress` entries; tests: `127.0.0.1:<port>`). */
  allowAddresses?: readonly string[];
  /** The deadline of one check: every redirect and the body's reading included. Default 10 s. */
  timeoutMs?: number;
  /** Bytes of body read at most; the rest is not read. Default 1 MiB. */
  maxBytes?: number;
  /** Redirects followed at most (5 at most). Default 5. */
  maxRedirects?: number;
  /** Least time between the starts of two requests to the same site. Default 1 s. */
  minIntervalMs?: number;
  /** Requests in flight at most, all sites together. Default 16. */
  maxInFlight?: number;
  /** How long a site that answered 429 without Retry-After is left alone. Default 60 s. */
  defaultRetryAfterMs?: number;
  /** Longest Retry-After honoured as given (a longer one is cut to it). Default 24 h. */
  maxRetryAfterMs?: number;
  /** Called once per HTTP request made. Must not throw (what it throws is ignored). */
  onRequest?: (event: SiteRequestEvent) => void;
}

/**
 * One instance per process: its politeness (one request at a time per site, the interval, the global
 * cap, the 429 holds) is kept in it, across every lookup that shares it.
 */
export interface SiteFetcher {
  /** One GET of `url`, a profile page of `site`, on the fetcher's terms. Rejects only when `signal` aborts. */
  fetch(site: CatalogueSite, url: string, signal?: AbortSignal): Promise<SiteFetch>;
  /** Until when (epoch ms) a site is left alone after a 429, if it is. */
  heldUntil(siteId: string): number | undefined;
}
