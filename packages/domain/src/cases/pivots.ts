import type { SearchKind } from '../catalogue/kinds.ts';
import { DETAIL_FAMILIES, detailFacts } from '../kinds/details.ts';
import type { EntityType } from './entities.ts';

/**
 * Pivots: the search that follows an entity of a case (spec-free, issue "Investigations"). A phone
 * number opens a phone lookup, an e-mail an e-mail lookup, a name or username a leak search, an RC its
 * details, a UPI id its holder, a PAN its verification (live accounts only). The request carries the
 * case's reference, so the search is filed under the same case.
 */
export interface Pivot {
  /** The search kind it runs (its price is that kind's). */
  kind: SearchKind;
  /** What the confirmation says it does: 'Phone lookup', 'Leak search for this name', ... */
  action: string;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** Only live accounts may run it. */
  liveOnly: boolean;
}

export function pivotOf(type: EntityType | string, value: string, caseReference: string): Pivot | null {
  const post = (
    kind: SearchKind,
    action: string,
    path: string,
    body: Record<string, unknown>,
    liveOnly = false,
  ): Pivot => ({
    kind,
    action,
    method: 'POST',
    path,
    body: { ...body, case_reference: caseReference },
    liveOnly,
  });
  switch (type) {
    case 'phone':
      return {
        kind: 'tel',
        action: 'Phone lookup',
        method: 'GET',
        path: '/api/tel',
        query: { number: value.replace(/\D/g, ''), case_reference: caseReference },
        liveOnly: false,
      };
    case 'email':
      return {
        kind: 'email',
        action: 'E-mail lookup',
        method: 'GET',
        path: '/api/email',
        query: { email: value, case_reference: caseReference },
        liveOnly: false,
      };
    case 'name':
    case 'username':
      return post('leak', `Leak search for this ${type}`, '/api/leak-data-finder', {
        fields: [{ type, value }],
      });
    case 'pan':
      return post(
        'verification:pan',
        'PAN verification',
        '/api/verification-id',
        { type: 'pan', data: { pan: value } },
        true,
      );
    default: {
      // A detail kind whose declaration names this entity type (RC details of a vehicle, UPI details).
      const kind = DETAIL_FAMILIES.find((family) => detailFacts(family).entity === type);
      if (!kind) return null;
      const facts = detailFacts(kind);
      return post(kind, facts.pivotAction ?? facts.title, facts.path, { [facts.field]: value });
    }
  }
}
