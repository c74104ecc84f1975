import type { CaseCapture } from '@footprint/domain';
import { useEffect, useRef, useState } from 'react';
import { capturePreview, captureScreenshot } from '../api/captures.ts';

/**
 * A capture's pictures as blob: URLs (the file routes want the bearer token, which an <img src> cannot
 * send): its thumbnail for the case's list (GET …/preview, tens of kilobytes) and its full screenshot
 * (page.png, up to megabytes) for its own page. A picture seen twice is fetched once; the few kept are
 * released oldest first.
 */

const MAX_KEPT = 24;
const kept = new Map<string, Promise<string>>();

function pictureOf(caseId: string, captureId: string, size: ShotSize, key: string): Promise<string> {
  const known = kept.get(key);
  if (known) return known;
  const fetchPicture = size === 'thumbnail' ? capturePreview : captureScreenshot;
  const loading = fetchPicture({ case_id: caseId, id: captureId });
  kept.set(key, loading);
  loading.catch(() => kept.delete(key));
  while (kept.size > MAX_KEPT) {
    const [oldest, url] = kept.entries().next().value as [string, Promise<string>];
    kept.delete(oldest);
    url.then((blobUrl) => URL.revokeObjectURL(blobUrl)).catch(() => {});
  }
  return loading;
}

export type ShotState = { status: 'idle' | 'loading' | 'failed' } | { status: 'ready'; url: string };

/** The thumbnail (the list's), or the full screenshot (the capture's page). */
export type ShotSize = 'thumbnail' | 'full';

/**
 * A picture of a done capture, fetched once `enabled` (a thumbnail: once it nears the screen). A
 * capture made before thumbnails were drawn has none: its list shows the full screenshot.
 */
export function useCaptureShot(capture: CaseCapture, enabled = true, wanted: ShotSize = 'full'): ShotState {
  const hasScreenshot = capture.status === 'done' && capture.files.some((file) => file.name === 'page.png');
  const size: ShotSize = wanted === 'thumbnail' && capture.preview ? 'thumbnail' : 'full';
  const has = size === 'thumbnail' || hasScreenshot;
  const { case_id: caseId, id } = capture;
  // The list is polled: a new answer for the same capture must not load its picture again.
  const key = `${id}:${capture.manifest_sha256 ?? ''}:${size}`;
  const [state, setState] = useState<ShotState>({ status: 'idle' });
  useEffect(() => {
    if (!has || !enabled) return;
    let live = true;
    setState({ status: 'loading' });
    pictureOf(caseId, id, size, key).then(
      (url) => live && setState({ status: 'ready', url }),
      () => live && setState({ status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [caseId, id, size, key, has, enabled]);
  return has ? state : { status: 'failed' };
}

/** Whether the element is on the screen or near it (a lazy thumbnail starts loading then). */
export function useNearScreen<T extends Element>() {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return { ref, near };
}
