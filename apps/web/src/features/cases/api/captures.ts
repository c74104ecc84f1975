import type { CaptureArtefactName, CaseCapture, CaseDetail } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request, saveBlob } from '../../../lib/api.ts';
import { fetchMedia } from '../../../lib/media.ts';
import { caseKey, caseUrl } from './listCases.ts';

/** The /api/cases/{id}/captures calls: a case's captured web pages. */

export interface CapturesAnswer {
  data: CaseCapture[];
  /** Whether this server captures pages at all (the operator turns it on). */
  available: boolean;
}

export const capturesKey = (caseId: string) => [...caseKey(caseId), 'captures'] as const;
export const captureKey = (caseId: string, captureId: string) => [...capturesKey(caseId), captureId] as const;
export const capturesUrl = (caseId: string) => `${caseUrl(caseId)}/captures`;
export const captureUrl = (caseId: string, captureId: string) =>
  `${capturesUrl(caseId)}/${encodeURIComponent(captureId)}`;
export const captureFileUrl = (caseId: string, captureId: string, name: CaptureArtefactName) =>
  `${captureUrl(caseId, captureId)}/files/${encodeURIComponent(name)}`;

/** A capture the job queue has not finished: the list is asked again until none is left. */
export const inProgress = (capture: Pick<CaseCapture, 'status'>): boolean =>
  capture.status === 'queued' || capture.status === 'running';

/** How often the list is asked again while a capture is queued or running. */
export const POLL_MS = 2_000;

/** The refetch interval for an answer: POLL_MS while any capture is unfinished, else none. */
export const pollWhileRunning = (answer: CapturesAnswer | undefined): number | false =>
  answer?.data.some(inProgress) ? POLL_MS : false;

/**
 * GET /api/captures/status: whether this server captures pages at all. Asked once per session (the
 * operator's setting does not change under a running server): the results offer Capture only where it does.
 */
export function useCaptureStatus() {
  return useQuery({
    queryKey: ['captures', 'status'] as const,
    queryFn: ({ signal }) => api.get<{ available: boolean }>('/api/captures/status', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** GET /api/cases/{id}/captures (newest first), polled while any capture is unfinished. */
export function useCaptures(caseId: string, enabled = true) {
  return useQuery({
    queryKey: capturesKey(caseId),
    queryFn: ({ signal }) => api.get<CapturesAnswer>(capturesUrl(caseId), { signal }),
    refetchInterval: (query) => pollWhileRunning(query.state.data),
    enabled,
    retry: false,
  });
}

/** GET /api/cases/{id}/captures/{captureId}, polled while it is unfinished. */
export function useCapture(caseId: string, captureId: string) {
  return useQuery({
    queryKey: captureKey(caseId, captureId),
    queryFn: ({ signal }) =>
      api.get<{ capture: CaseCapture }>(captureUrl(caseId, captureId), { signal }).then((r) => r.capture),
    refetchInterval: (query) => (query.state.data && inProgress(query.state.data) ? POLL_MS : false),
    retry: false,
  });
}

/** POST /api/cases/{id}/captures { url, lookup_id? }: 202 with the queued capture. */
export const createCapture = (caseId: string, body: { url: string; lookup_id?: string | undefined }) =>
  request<{ capture: CaseCapture }>(capturesUrl(caseId), {
    method: 'POST',
    body: body.lookup_id ? body : { url: body.url },
  }).then((r) => r.capture);

export function useCreateCapture(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { url: string; lookup_id?: string | undefined }) => createCapture(caseId, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: capturesKey(caseId) }),
  });
}

/** DELETE /api/cases/{id}/captures/{captureId} { reason }: the capture, now removed. */
export function useRemoveCapture(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ captureId, reason }: { captureId: string; reason: string }) =>
      request<{ capture: CaseCapture }>(captureUrl(caseId, captureId), {
        method: 'DELETE',
        body: { reason },
      }).then((r) => r.capture),
    onSuccess: (capture) => {
      queryClient.setQueryData(captureKey(caseId, capture.id), capture);
      void queryClient.invalidateQueries({ queryKey: capturesKey(caseId) });
    },
  });
}

const fileNameOf = (headers: Headers): string | undefined =>
  /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1];

/** The capture's number in its case ('003'), for a file name when the server gives none. */
const shortId = (capture: CaseCapture) => capture.id.slice(0, 8);

/** GET …/download: the capture's ZIP (manifest, signature, artefacts, public key), saved under the server's name. */
export async function saveCaptureZip(detail: Pick<CaseDetail, 'reference'>, capture: CaseCapture) {
  const { blob, headers } = await request(`${captureUrl(capture.case_id, capture.id)}/download`, {
    responseType: 'file',
  });
  saveBlob(blob, fileNameOf(headers) ?? `capture-${detail.reference}-${shortId(capture)}.zip`);
}

/** GET …/files/{name}: one artefact, saved under its name. */
export async function saveCaptureFile(capture: CaseCapture, name: CaptureArtefactName) {
  const { blob, headers } = await request(captureFileUrl(capture.case_id, capture.id, name), {
    responseType: 'file',
  });
  saveBlob(blob, fileNameOf(headers) ?? name);
}

/** GET …/files/page.txt as text (the preview's collapsible block). */
export async function captureText(capture: CaseCapture, signal?: AbortSignal): Promise<string> {
  const blob = await request(captureFileUrl(capture.case_id, capture.id, 'page.txt'), {
    responseType: 'blob',
    signal,
  });
  return blob.text();
}

/** A blob: URL of the capture's screenshot (an <img src> cannot send the bearer token). */
export const captureScreenshot = (capture: Pick<CaseCapture, 'case_id' | 'id'>, signal?: AbortSignal) =>
  fetchMedia(captureFileUrl(capture.case_id, capture.id, 'page.png'), undefined, signal);

/** A blob: URL of the capture's thumbnail (GET …/preview: its first screen, small). */
export const capturePreview = (capture: Pick<CaseCapture, 'case_id' | 'id'>, signal?: AbortSignal) =>
  fetchMedia(`${captureUrl(capture.case_id, capture.id)}/preview`, undefined, signal);
