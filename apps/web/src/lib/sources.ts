import {
  corporateTypes,
  messages,
  type ProviderKind,
  type SourcesResponse,
  searchKindLabel,
  verificationTypes,
} from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from './api.ts';

/**
 * Which searches this deployment answers (GET /api/sources). A search kind without any source answers
 * 503 and charges nothing; the search screens and the results page's detail buttons read this first so
 * that they do not offer such a search at all.
 */

/** GET /api/sources. */
export function fetchSources(signal?: AbortSignal): Promise<SourcesResponse> {
  return api.get<SourcesResponse>('/api/sources', { signal });
}

/** The answer changes only when the server restarts with other settings: fresh for ten minutes. */
export const SOURCES_STALE_MS = 10 * 60_000;

export function useSources() {
  return useQuery({
    queryKey: ['sources'],
    queryFn: ({ signal }) => fetchSources(signal),
    staleTime: SOURCES_STALE_MS,
  });
}

/**
 * Whether the deployment answers a search kind. Not known yet (loading, the call failed, a kind the
 * server did not list) counts as available: the server's 503 then says so, charging nothing.
 */
export function kindAvailable(sources: SourcesResponse | undefined, kind: ProviderKind): boolean {
  return sources?.kinds[kind]?.available !== false;
}

/**
 * What one search of a kind costs in credits on this deployment; null while not known (loading, the
 * call failed, a kind the server did not list). The server charges its own price either way.
 */
export function kindPrice(sources: SourcesResponse | undefined, kind: ProviderKind): number | null {
  const price = sources?.kinds[kind]?.price;
  return typeof price === 'number' ? price : null;
}

/** What one search of any paid kind costs here (the leak search included); null while not known. */
export function searchPrice(sources: SourcesResponse | undefined, kind: string): number | null {
  const price = sources?.prices?.[kind];
  return typeof price === 'number' ? price : null;
}

/** `kindAvailable` against the deployment's answer, for a screen. */
export function useKindAvailable(): (kind: ProviderKind) => boolean {
  const { data } = useSources();
  return useCallback((kind: ProviderKind) => kindAvailable(data, kind), [data]);
}

const intelLabels: ReadonlyMap<string, string> = new Map(
  [...corporateTypes, ...verificationTypes].map((type) => [`${type.area}:${type.type}`, type.label]),
);

/**
 * What a screen says about a search this deployment cannot answer: 'Phone lookups are not available in
 * this deployment (no source configured).', or the same of a detail or intel search by its label.
 */
export function unavailableText(kind: ProviderKind): string {
  const words = messages.sources;
  if (kind === 'tel' || kind === 'email' || kind === 'username')
    return words.lookupUnavailable(searchKindLabel(kind));
  return words.searchUnavailable(intelLabels.get(kind) ?? searchKindLabel(kind));
}
