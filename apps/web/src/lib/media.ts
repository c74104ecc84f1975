import { useEffect, useState } from 'react';
import { request } from './api.ts';

/**
 * Pictures from other hosts (avatars, profile photos, breach logos) and the map's tiles reach the page
 * only through the server's media proxy: the browser never asks an outside host, so none of them learns
 * what the investigator is looking at (the CSP's img-src is 'self', data: and blob:). The proxy wants
 * the bearer token, which an <img src> cannot send, so each picture is fetched here and shown through
 * a blob: URL. data: URLs need no request and are used as they are.
 */

const MAX_KEPT = 200;
/** Blob URLs by source URL, oldest first: a picture seen twice (thumbnail, then full size) is fetched once. */
const kept = new Map<string, Promise<string>>();

function remember(key: string, value: Promise<string>): Promise<string> {
  kept.set(key, value);
  value.catch(() => kept.delete(key));
  while (kept.size > MAX_KEPT) {
    const [oldest, url] = kept.entries().next().value as [string, Promise<string>];
    kept.delete(oldest);
    url.then((blobUrl) => URL.revokeObjectURL(blobUrl)).catch(() => {});
  }
  return value;
}

/** A blob: URL for a same-origin media path (`/api/media?url=…`, `/api/map/tiles/…`). */
export function fetchMedia(
  path: string,
  query?: Record<string, string>,
  signal?: AbortSignal,
): Promise<string> {
  return request(path, {
    query,
    responseType: 'blob',
    headers: { Accept: 'image/*' },
    signal,
    // A picture that fails to load is a placeholder, not a reason to end the session.
    handleUnauthorized: false,
  }).then((blob) => {
    if (!blob.type.startsWith('image/')) throw new Error('not an image');
    return URL.createObjectURL(blob);
  });
}

/** The URL an <img> may use for `src`: the data: URL itself, or a blob: URL from the proxy. */
export function proxiedImage(src: string): Promise<string> {
  if (/^data:image\//i.test(src.trim())) return Promise.resolve(src.trim());
  const known = kept.get(src);
  if (known) return known;
  return remember(src, fetchMedia('/api/media', { url: src }));
}

export type MediaState = { status: 'loading' } | { status: 'ready'; url: string } | { status: 'failed' };

/** The proxied picture for `src` (undefined: nothing to show). */
export function useProxiedImage(src: string | undefined): MediaState {
  const [state, setState] = useState<MediaState>(() =>
    src && /^data:image\//i.test(src.trim()) ? { status: 'ready', url: src.trim() } : { status: 'loading' },
  );
  useEffect(() => {
    if (!src) {
      setState({ status: 'failed' });
      return;
    }
    let live = true;
    proxiedImage(src).then(
      (url) => live && setState({ status: 'ready', url }),
      () => live && setState({ status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [src]);
  return state;
}
