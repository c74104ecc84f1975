import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { MediaErrorCode } from '../../errors.ts';
import { ADDRESS_REFUSED, createAddressGuard } from '../../security/address-guard.ts';

/**
 * The media proxy's fetcher: one picture from an outside host, on the server's terms. Only hosts on the
 * allow-list, only public addresses (the address the socket connects to is the one checked, so a DNS
 * answer cannot swap in 127.0.0.1 after the check), no redirect to another host, a size cap, a timeout,
 * only image types. Answers are kept in a size-limited in-memory cache.
 */

export interface MediaOptions {
  hosts: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  cacheBytes: number;
  allowAddresses: readonly string[];
}

export interface MediaFile {
  body: Buffer;
  contentType: string;
  /** Whether the answer came from the cache. */
  cached: boolean;
}

/** Why a picture was not fetched: a code of the catalogue and the message the route answers with. */
export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Image types passed through. SVG is among them: it is served sandboxed and never sniffed. */
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/svg+xml',
]);

const MAX_REDIRECTS = 3;
const CACHE_TTL_MS = 60 * 60 * 1000;

/** Whether `host` matches an allow-list entry: the exact name, or `*.domain` for a name below it. */
export function hostAllowed(host: string, allowList: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return allowList.some((entry) =>
    entry.startsWith('*.') ? name.endsWith(entry.slice(1)) && name.length > entry.length - 1 : name === entry,
  );
}

interface CacheEntry {
  body: Buffer;
  contentType: string;
  storedAt: number;
}

/** Least recently used first out, bounded by bytes. */
class ByteCache {
  private readonly entries = new Map<string, CacheEntry>();
  private bytes = 0;

  constructor(private readonly limit: number) {}

  get(key: string): CacheEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (Date.now() - entry.storedAt > CACHE_TTL_MS) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CacheEntry): void {
    if (entry.body.length > this.limit) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.limit) break;
      this.entries.delete(oldest);
      this.bytes -= value.body.length;
    }
  }

  get size(): number {
    return this.bytes;
  }
}

const refused = {
  url: () => new MediaError('media_url_invalid', 'The url parameter must be an http or https address.'),
  host: (host: string) =>
    new MediaError('media_host_refused', `Pictures from ${host} are not on this deployment's allow-list.`),
  address: (host: string) =>
    new MediaError(
      'media_address_refused',
      `${host} is a private or local address (or a port MEDIA_ALLOW_ADDRESSES does not open); it is not fetched.`,
    ),
  redirect: () =>
    new MediaError(
      'media_redirect_refused',
      'The image host redirected to another host; that is not followed.',
    ),
  tooLarge: (max: number) =>
    new MediaError('media_too_large', `The picture is larger than the ${max} bytes this server passes on.`),
  notImage: (type: string) =>
    new MediaError('media_not_image', `The answer is not a picture (${type || 'no content type'}).`),
  upstream: (status: number) => new MediaError('media_upstream_failed', `The image host answered ${status}.`),
  unreachable: () => new MediaError('media_upstream_failed', 'The image host could not be reached.'),
  timeout: () => new MediaError('media_timeout', 'The image host did not answer in time.'),
};

export interface MediaFetcher {
  /** A picture from an allow-listed host. */
  get(url: string): Promise<MediaFile>;
  /** A picture from a host the operator configured (the tile server): the allow-list is not asked. */
  getTrusted(url: string): Promise<MediaFile>;
  /** Bytes in the cache (tests and metrics). */
  cachedBytes(): number;
}

/** A picture's address: http or https, no credentials, no fragment. */
const parse = (raw: string): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused.url();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused.url();
  if (url.username || url.password) throw refused.url();
  url.hash = '';
  return url;
};

/** A response's body, refused past `maxBytes` (declared or streamed) or past the deadline. */
const read = (response: IncomingMessage, deadline: number, maxBytes: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      return reject(refused.tooLarge(maxBytes));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => response.destroy(refused.timeout()), Math.max(1, deadline - Date.now()));
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy(refused.tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    response.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof MediaError ? error : refused.unreachable());
    });
    response.on('close', () => {
      clearTimeout(timer);
      if (!response.complete) reject(refused.unreachable());
    });
  });

export function createMediaFetcher(options: MediaOptions): MediaFetcher {
  const guard = createAddressGuard(options.allowAddresses);
  const cache = new ByteCache(options.cacheBytes);
  const inFlight = new Map<string, Promise<MediaFile>>();

  const once = (url: URL, deadline: number): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const hostname = url.hostname.replace(/^\[|\]$/g, '');
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      // A literal address never goes through DNS: check it here. A public address on any port; a
      // private one only as MEDIA_ALLOW_ADDRESSES allows it, port included.
      if (isIP(hostname) && !guard.allowed(hostname, port)) return reject(refused.address(hostname));
      const client = url.protocol === 'https:' ? https : http;
      const remaining = Math.max(1, deadline - Date.now());
      const request = client.get(
        url,
        {
          lookup: guard.lookupFor(port) as never,
          headers: { accept: 'image/*', 'user-agent': 'Footprint-Media-Proxy/1.0' },
          timeout: remaining,
          agent: false,
        },
        (response) => {
          clearTimeout(timer);
          resolve(response);
        },
      );
      const timer = setTimeout(() => request.destroy(refused.timeout()), remaining);
      request.on('close', () => clearTimeout(timer));
      request.on('timeout', () => request.destroy(refused.timeout()));
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof MediaError) reject(error);
        else if (error.code === ADDRESS_REFUSED) reject(refused.address(hostname));
        else reject(refused.unreachable());
      });
    });

  const download = async (start: URL): Promise<MediaFile> => {
    const deadline = Date.now() + options.timeoutMs;
    let url = start;
    for (let hop = 0; ; hop++) {
      const response = await once(url, deadline);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        let next: URL;
        try {
          next = new URL(response.headers.location, url);
        } catch {
          throw refused.redirect();
        }
        // Only a move within the same host (and scheme) is followed, a few times at most.
        if (next.host !== url.host || next.protocol !== url.protocol || hop >= MAX_REDIRECTS) {
          throw refused.redirect();
        }
        url = next;
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw refused.upstream(status);
      }
      const contentType = String(response.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim()
        .toLowerCase();
      if (!contentType || !IMAGE_TYPES.has(contentType)) {
        response.resume();
        throw refused.notImage(contentType ?? '');
      }
      const body = await read(response, deadline, options.maxBytes);
      return { body, contentType, cached: false };
    }
  };

  const fetchThrough = async (url: URL): Promise<MediaFile> => {
    const key = url.toString();
    const hit = options.cacheBytes > 0 ? cache.get(key) : undefined;
    if (hit) return { body: hit.body, contentType: hit.contentType, cached: true };
    const pending = inFlight.get(key);
    if (pending) return pending;
    const job = download(url)
      .then((file) => {
        if (options.cacheBytes > 0) {
          cache.set(key, { body: file.body, contentType: file.contentType, storedAt: Date.now() });
        }
        return file;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, job);
    return job;
  };

  return {
    async get(raw) {
      const url = parse(raw);
      if (!hostAllowed(url.hostname, options.hosts)) throw refused.host(url.hostname);
      return fetchThrough(url);
    },
    async getTrusted(raw) {
      return fetchThrough(parse(raw));
    },
    cachedBytes: () => cache.size,
  };
}
