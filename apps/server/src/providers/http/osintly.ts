/**
 * osint.ly search API, a pseudonym search → pseudonymData (the vendor's account search of a username
 * lookup: the accounts its modules report for the name).
 *
 * Read in osint.ly's documentation (stored copies of docs.osint.ly, "API reference", read on
 * 2026-12-05: the pages /api-reference/search/get-search-state, /search/stream-search-results,
 * /sse-reference, /domains (search types and options), /search/run-one-module-immediately and
 * /api-plans-capacity):
 * - Bearer authentication (`Authorization: Bearer <key>`), base https://api.osint.ly.
 * - POST /search with `{type, value, options}` starts a search; the types are an exact enum
 *   ('Pseudonym', 'Email Address', 'Domain Name', …); `options.bypass_cache` forces a fresh run.
 * - GET /search/{id} answers `{data: {search: {id, status, query, created_at, started_at,
 *   completed_at}, summary, delivery, links: {stream, results, …}}, meta}`.
 * - GET /search/{id}/stream is Server-Sent Events: `connected`, `search.progress` (status and a
 *   message, e.g. shard progress or waiting for capacity), `module.result` with data `{search_id,
 *   module: {id, name}, card: {"<key>": {username, profile_url, …}}, timestamp}`, and last
 *   `search.finished` with `{search_id, status: 'completed', totals: {module_results}, execution_time_ms,
 *   timestamp}`. A card of the run-one-module endpoint is `{"<key>": {items: [{label, value, islink, …}]}}`.
 * - Rate limits answer 429 (RATE_LIMIT_RPM_EXCEEDED, RATE_LIMIT_EXCEEDED); the concurrency cap 409
 *   (MAX_CONCURRENCY_EXCEEDED); a search left running past the vendor's TTL (1 h) is failed by it.
 *
 * Assumed, not read: the answer of POST /search itself was not among the pages found (no "create
 * search" reference page turned up in ten minutes of searching). It is taken to
 * carry the search as GET /search/{id} does (`data.search.id`); an answer without it is a source
 * failure. Also assumed: 401/403 for a refused key (as every vendor here); module.result cards that
 * name neither a username nor a profile address are not accounts and are left out; only the
 * documented `search.finished` ends a search (any other event name is ignored). The stream is read
 * from our base URL, never from `links.stream`: a vendor's answer does not choose where we connect.
 * Our choices: the 409 concurrency cap is treated as a rate limit; `bypass_cache` is left false.
 */
import {
  ACCOUNT_SEARCH_NOTHING_FOUND,
  type AccountSearchAnswer,
  type VendorAccount,
} from '@footprint/domain';
import { TaskCancelledError } from 'cockatiel';
import { z } from 'zod';
import {
  type Provider,
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
  type VendorInfo,
} from '../types.ts';
import { baseUrl, defineVendor, secret } from '../vendor.ts';
import { parseVendorBody, retryAfterMs, vendorFetch } from './fetch-json.ts';

const VENDOR = 'osint.ly';

export interface OsintlyConfig {
  apiKey: string;
  baseUrl: string;
  /** How long a search may run before the accounts reported so far are answered. */
  deadlineMs: number;
}

/** Our default deadline: the documented example search took about 8 s. */
export const OSINTLY_DEFAULT_DEADLINE_MS = 30_000;
/** Time the runner gives the source past its own deadline, to hand back what it has (as the site check). */
export const OSINTLY_HAND_BACK_MS = 3_000;
/** The whole stream: a search's cards are a few hundred kilobytes at most. */
export const OSINTLY_MAX_STREAM_BYTES = 4 * 1024 * 1024;
/** One event (its lines up to the blank line that ends it). */
export const OSINTLY_MAX_EVENT_BYTES = 256 * 1024;
/** More accounts than this from one search is not an answer to keep. */
export const OSINTLY_MAX_ACCOUNTS = 1_000;
/** The answer of POST /search is small. */
const CREATE_MAX_BYTES = 256 * 1024;

/** The answer of POST /search, as assumed (see the header): the search under `data.search`. */
const created = z.object({
  data: z.object({
    search: z.object({ id: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/) }),
  }),
});

const cardItem = z.object({
  label: z.string().nullish(),
  value: z.unknown().optional(),
  islink: z.boolean().nullish(),
});
const cardEntry = z.looseObject({
  username: z.unknown().optional(),
  profile_url: z.unknown().optional(),
  url: z.unknown().optional(),
  items: z.array(cardItem).nullish(),
});
const moduleResult = z.object({
  module: z.object({ name: z.string().trim().min(1).max(200) }),
  card: z.record(z.string(), z.unknown()),
  timestamp: z.string().nullish(),
});
const finished = z.object({ status: z.string() });

/** A raw SSE event: its name ('message' when unnamed) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * An incremental Server-Sent Events parser (WHATWG HTML, "Parsing an event stream"): fed text as it
 * comes, it gives back the events completed so far. Lines end with CRLF, LF or CR; `:` lines are
 * comments; `id` and `retry` are ignored. An event longer than `maxEventBytes` is a failure.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private size = 0;

  constructor(private readonly maxEventBytes = OSINTLY_MAX_EVENT_BYTES) {}

  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/[\r\n]/);
      if (end === -1) break;
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, end);
      const width = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      this.buffer = this.buffer.slice(end + width);
      const event = this.line(line);
      if (event) out.push(event);
    }
    if (this.size + this.buffer.length > this.maxEventBytes)
      throw new SourceFailedError(`${VENDOR} sent a stream event over ${this.maxEventBytes} bytes`);
    return out;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      const event =
        this.data.length > 0 ? { event: this.event || 'message', data: this.data.join('\n') } : undefined;
      this.event = '';
      this.data = [];
      this.size = 0;
      return event;
    }
    this.size += line.length + 1;
    if (this.size > this.maxEventBytes)
      throw new SourceFailedError(`${VENDOR} sent a stream event over ${this.maxEventBytes} bytes`);
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return undefined;
  }
}

/** A trimmed, non-empty, one-line string of sane length, or null. */
const textOf = (value: unknown): string | null => {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).replace(/\s+/g, ' ').trim();
  return text && text.length <= 500 ? text : null;
};

/** An http(s) address, or null (a `javascript:` or relative value is not a profile link). */
export const httpUrl = (value: unknown): string | null => {
  const text = textOf(value);
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
};

/** One card entry as an account: its username and profile address, from the fields or the items. */
function accountOf(site: string, entry: unknown, foundAt: string): VendorAccount | null {
  const parsed = cardEntry.safeParse(entry);
  if (!parsed.success) return null;
  const card = parsed.data;
  const items = card.items ?? [];
  const labelled = items.find((item) => /user ?name|handle|pseudonym/i.test(item.label ?? ''));
  const link = items.map((item) => (item.islink ? httpUrl(item.value) : null)).find(Boolean) ?? null;
  const username = textOf(card.username) ?? textOf(labelled?.value);
  const url = httpUrl(card.profile_url) ?? httpUrl(card.url) ?? link;
  return username || url ? { site, username, url, found_at: foundAt } : null;
}

/** The accounts of one `module.result` event's data (one per card entry that names one). */
export function accountsOfResult(data: string, now: Date = new Date()): VendorAccount[] {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new SourceFailedError(`${VENDOR} sent a malformed module.result event`);
  }
  const result = parseVendorBody(moduleResult, json, VENDOR);
  const stamp = result.timestamp && !Number.isNaN(Date.parse(result.timestamp)) ? result.timestamp : null;
  const foundAt = stamp ? new Date(stamp).toISOString() : now.toISOString();
  return Object.values(result.card)
    .map((entry) => accountOf(result.module.name, entry, foundAt))
    .filter((account): account is VendorAccount => account !== null);
}

/** Where the reading of a stream stopped, and why. */
interface StreamRead {
  accounts: VendorAccount[];
  /** 'finished' with the vendor's final status; 'ended' when the body closed without it. */
  end: { how: 'finished'; status: string } | { how: 'ended' };
}

/** Keeps an account unless the same site, name and address is already listed. */
function keep(into: VendorAccount[], seen: Set<string>, account: VendorAccount) {
  const key = JSON.stringify([account.site.toLowerCase(), account.username, account.url]);
  if (seen.has(key)) return;
  seen.add(key);
  into.push(account);
  if (into.length > OSINTLY_MAX_ACCOUNTS)
    throw new SourceFailedError(`${VENDOR} reported more than ${OSINTLY_MAX_ACCOUNTS} accounts`);
}

/**
 * Reads the stream's events as they come, keeping the accounts of each `module.result`, until
 * `search.finished` or the end of the body. Throws what the read threw (an abort among them);
 * `accounts` holds what was kept so far.
 */
async function readStream(body: ReadableStream<Uint8Array>, accounts: VendorAccount[]): Promise<StreamRead> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const seen = new Set<string>();
  let size = 0;
  try {
    for (;;) {
      const part = await reader.read();
      if (part.done) return { accounts, end: { how: 'ended' } };
      size += part.value.byteLength;
      if (size > OSINTLY_MAX_STREAM_BYTES)
        throw new SourceFailedError(`${VENDOR} stream over ${OSINTLY_MAX_STREAM_BYTES} bytes`);
      for (const event of parser.push(decoder.decode(part.value, { stream: true }))) {
        if (event.event === 'module.result') {
          for (const account of accountsOfResult(event.data)) keep(accounts, seen, account);
        } else if (event.event === 'search.finished') {
          let json: unknown;
          try {
            json = JSON.parse(event.data);
          } catch {
            throw new SourceFailedError(`${VENDOR} sent a malformed search.finished event`);
          }
          return {
            accounts,
            end: { how: 'finished', status: parseVendorBody(finished, json, VENDOR).status },
          };
        }
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Opens the search's stream: the statuses every vendor shares read as vendorFetch reads them. */
async function openStream(config: OsintlyConfig, id: string, signal: AbortSignal) {
  let res: Response;
  try {
    res = await fetch(`${config.baseUrl}/search/${encodeURIComponent(id)}/stream`, {
      method: 'GET',
      headers: { authorization: `Bearer ${config.apiKey}`, accept: 'text/event-stream' },
      redirect: 'error',
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    throw new SourceFailedError(`${VENDOR} stream unreachable: ${(error as Error).message}`);
  }
  const refuse = async (error: Error) => {
    await res.body?.cancel().catch(() => {});
    return error;
  };
  if (res.status === 401 || res.status === 403)
    throw await refuse(
      new SourceMisconfiguredError(`${VENDOR} refused the credentials (${res.status})`, res.status),
    );
  if (res.status === 429)
    throw await refuse(
      new SourceRateLimitedError(
        `${VENDOR} rate limit reached`,
        retryAfterMs(res.headers.get('retry-after')),
      ),
    );
  if (res.status < 200 || res.status > 299)
    throw await refuse(new SourceFailedError(`${VENDOR} stream answered ${res.status}`, res.status));
  const type = res.headers.get('content-type') ?? '';
  if (!/^text\/event-stream\b/i.test(type.trim()) || !res.body)
    throw await refuse(
      new SourceFailedError(
        `${VENDOR} stream answered ${type.split(';')[0] || 'an untyped body'}, not events`,
      ),
    );
  return res.body;
}

/** Starts a pseudonym search; its id. 409 is the plan's concurrency cap: a wait, like a rate limit. */
async function startSearch(config: OsintlyConfig, username: string, signal: AbortSignal): Promise<string> {
  let res: Awaited<ReturnType<typeof vendorFetch>>;
  try {
    res = await vendorFetch(`${config.baseUrl}/search`, {
      vendor: VENDOR,
      method: 'POST',
      signal,
      maxBytes: CREATE_MAX_BYTES,
      headers: {
        authorization: `Bearer ${config.apiKey}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ type: 'Pseudonym', value: username, options: { bypass_cache: false } }),
    });
  } catch (error) {
    if (error instanceof SourceFailedError && error.status === 409)
      throw new SourceRateLimitedError(`${VENDOR}: the plan's concurrent searches are all running (409)`);
    throw error;
  }
  if (res.status === 404) throw new SourceFailedError(`${VENDOR} answered 404 to a new search`, 404);
  return parseVendorBody(created, res.body, VENDOR, res.status).data.search.id;
}

/**
 * The search, read to its end or to the deadline: the accounts found, complete or not. A search that
 * found nothing is "no record"; one that found nothing before the deadline timed out (the runner's
 * timed_out); one the vendor ended failed, with nothing found, a failure.
 */
export async function searchAccounts(
  config: OsintlyConfig,
  username: string,
  signal: AbortSignal,
): Promise<AccountSearchAnswer> {
  const deadline = AbortSignal.timeout(config.deadlineMs);
  const both = AbortSignal.any([signal, deadline]);
  const accounts: VendorAccount[] = [];
  let id = '';
  let read: StreamRead | undefined;
  try {
    id = await startSearch(config, username, both);
    read = await readStream(await openStream(config, id, both), accounts);
  } catch (error) {
    if (signal.aborted || !deadline.aborted) throw error;
  }
  if (read === undefined) {
    // The deadline passed: what was found by then, or the runner's timeout.
    if (accounts.length > 0) return { search_id: id, accounts, complete: false };
    throw new TaskCancelledError(`${VENDOR}: the search did not finish within ${config.deadlineMs} ms`);
  }
  const completed = read.end.how === 'finished' && read.end.status === 'completed';
  if (read.accounts.length > 0) return { search_id: id, accounts: read.accounts, complete: completed };
  if (completed) throw new SourceNotFoundError(ACCOUNT_SEARCH_NOTHING_FOUND);
  throw new SourceFailedError(
    read.end.how === 'finished'
      ? `${VENDOR}: the search ended ${read.end.status}`
      : `${VENDOR}: the stream closed before the search finished`,
  );
}

/** osint.ly answering pseudonymData for username lookups. */
export function osintlyProvider(config: OsintlyConfig, vendor?: VendorInfo): Provider {
  return {
    id: 'osintly:pseudonymData',
    source: 'pseudonymData',
    kinds: ['username'],
    sandbox: false,
    vendor,
    timeoutMs: config.deadlineMs + OSINTLY_HAND_BACK_MS,
    fetch: (query, signal) => searchAccounts(config, query.value, signal),
  };
}

/** A millisecond variable where unset and empty both mean the default. */
const deadlineMs = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce.number().int().min(1_000).max(120_000).default(OSINTLY_DEFAULT_DEADLINE_MS),
);

/**
 * osint.ly: the accounts its pseudonym search reports for a username (pseudonymData). On when
 * OSINTLY_API_KEY is set.
 */
export const osintly = defineVendor({
  id: 'osintly',
  name: 'osint.ly',
  prefix: 'OSINTLY',
  currency: 'USD',
  env: z.object({
    OSINTLY_API_KEY: secret().describe(
      'osint.ly API key (sent as a Bearer token). Turns on pseudonymData, the account search of the username lookup.',
    ),
    OSINTLY_BASE_URL: baseUrl('https://api.osint.ly').describe('osint.ly API base URL.'),
    OSINTLY_DEADLINE_MS: deadlineMs.describe(
      `How long (ms, 1000–120000) an osint.ly search may run; the accounts reported by then are answered, marked incomplete. Default ${OSINTLY_DEFAULT_DEADLINE_MS}.`,
    ),
  }),
  configure: (env) =>
    env.OSINTLY_API_KEY
      ? { apiKey: env.OSINTLY_API_KEY, baseUrl: env.OSINTLY_BASE_URL, deadlineMs: env.OSINTLY_DEADLINE_MS }
      : undefined,
  providers: (config, vendor) => [osintlyProvider(config, vendor)],
});
