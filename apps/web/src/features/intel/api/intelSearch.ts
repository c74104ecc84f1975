import type { IntelArea } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api, request } from '../../../lib/api.ts';

/** What the corporate and verification forms send (spec §7, plus the optional case reference). */
export interface IntelSearchInput {
  type: string;
  data: Record<string, string | boolean>;
  case_reference?: string;
  /** The legal basis the search states itself (its kind, facts and purpose). */
  legal_basis?: Record<string, unknown>;
}

/** A JSON answer: the result under `data` (spec §7 "data.data and credits"), the balance after the charge. */
export interface IntelSearchAnswer {
  data: unknown;
  credits?: number;
  sandbox?: boolean;
  /** What became of the search's source, when the server says (the lookups always do). */
  source_status?: unknown;
  /** The search's id (history, reports, cases). */
  lookup_id?: unknown;
}

/** The credit report's answer: the PDF itself, with the balance from the `X-Credits` header when sent. */
export interface IntelPdfAnswer {
  pdf: Blob;
  credits?: number;
}

const endpoints: Record<IntelArea, string> = {
  corporate: '/api/corporate-intelligence',
  verification: '/api/verification-id',
};

/** POST /api/corporate-intelligence or /api/verification-id (spec §7) for a JSON result. */
export function searchIntel(area: IntelArea, input: IntelSearchInput): Promise<IntelSearchAnswer> {
  return api.post<IntelSearchAnswer>(endpoints[area], input);
}

const creditsHeader = (headers: Headers): number | undefined => {
  const raw = headers.get('X-Credits');
  const credits = raw === null || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isFinite(credits) ? credits : undefined;
};

/**
 * POST /api/corporate-intelligence with type 'credit_report' (spec §7): the answer is the PDF itself. A
 * success that is not a PDF (an HTML error page, JSON) counts as a failure: nothing usable could be saved.
 * The results page's 'Credit Report Request' modal (spec §2.5) calls this too, through the feature's
 * index.ts.
 */
export async function requestIntelPdf(input: IntelSearchInput): Promise<IntelPdfAnswer> {
  const { blob, headers } = await request(endpoints.corporate, {
    method: 'POST',
    body: input,
    responseType: 'file',
  });
  if (!blob.type.includes('pdf')) throw new Error(`Expected a PDF, got ${blob.type || 'no content type'}.`);
  return { pdf: blob, credits: creditsHeader(headers) };
}

/** Paid calls: mutations, never cached or retried by the query layer, so one click is one charge. */
export function useIntelSearch(area: IntelArea) {
  return useMutation({ mutationFn: (input: IntelSearchInput) => searchIntel(area, input) });
}

export function useIntelPdf() {
  return useMutation({ mutationFn: requestIntelPdf });
}
