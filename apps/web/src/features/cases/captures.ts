import type { CaseCapture, CaseDetail } from '@footprint/domain';

/** What the case page and the preview call a capture: the page's title, else the address asked for. */
export const titleOf = (capture: Pick<CaseCapture, 'title' | 'url'>): string =>
  capture.title?.trim() || capture.url;

/** Two addresses that differ only in how they are written ('https://a.test' and 'https://a.test/'). */
export function sameAddress(a: string, b: string): boolean {
  if (a === b) return true;
  if (!URL.canParse(a) || !URL.canParse(b)) return false;
  return new URL(a).href === new URL(b).href;
}

/**
 * Whether the caller is offered 'Remove' on a capture, as the server allows it: a capture with files,
 * for whoever asked for it, the case's owner, a supervisor of the owner or an admin.
 */
export function mayRemoveCapture(
  detail: Pick<CaseDetail, 'role'>,
  capture: Pick<CaseCapture, 'status' | 'requested_by'>,
  userId: string | undefined,
): boolean {
  if (capture.status !== 'done') return false;
  return (
    capture.requested_by.id === userId ||
    detail.role === 'owner' ||
    detail.role === 'supervisor' ||
    detail.role === 'admin'
  );
}

/** Whether the capture's ZIP is there: its signed manifest (and, once removed, the signed removal). */
export const hasZip = (capture: Pick<CaseCapture, 'status' | 'manifest_sha256'>): boolean =>
  (capture.status === 'done' || capture.status === 'removed') && capture.manifest_sha256 !== null;

/** '2.4 KB': a file's size for the preview's table. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
