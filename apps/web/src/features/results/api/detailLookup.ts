import { type DetailKind, type DetailLookupResponse, detailFacts } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * A detail lookup (spec §7: POST /api/rcfull-details, /api/upifull-details, /api/rc-challan-details, or
 * any other detail kind's endpoint as its declaration names it): the record's full details; answers
 * `credits`, `data.data`. The case reference of the search (and the legal basis it stated) goes in the body when there is one; `fresh`
 * asks the source again (charged) rather than reusing a recent identical lookup.
 */
export function fetchDetail(
  kind: DetailKind,
  value: string,
  caseReference?: string,
  fresh?: boolean,
  legalBasis?: Record<string, unknown>,
): Promise<DetailLookupResponse<Record<string, unknown>>> {
  const facts = detailFacts(kind);
  return api.post<DetailLookupResponse<Record<string, unknown>>>(facts.path, {
    [facts.field]: value,
    case_reference: caseReference,
    ...(legalBasis ? { legal_basis: legalBasis } : {}),
    fresh,
  });
}

export function useDetailLookup() {
  return useMutation({
    mutationFn: ({
      kind,
      id,
      caseReference,
      legalBasis,
      fresh,
    }: {
      kind: DetailKind;
      id: string;
      caseReference?: string;
      legalBasis?: Record<string, unknown>;
      fresh?: boolean;
    }) => fetchDetail(kind, id, caseReference, fresh, legalBasis),
  });
}
