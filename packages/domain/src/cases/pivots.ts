import { SEARCH_KINDS, type SearchKind } from '../catalogue/kinds.ts';
import { SEARCH_KIND_DECLARATIONS } from '../kinds/declarations.ts';
import { attributeEntity, type EntityType } from './entities.ts';

/**
 * Pivots: the search that follows an entity of a case (spec-free, issue "Investigations"). A phone
 * number opens a phone lookup, an e-mail an e-mail lookup, a username a username lookup, a name a leak search, an RC its
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

/** The search a value of a case leads to: the first kind whose declaration names its entity type. */
export function pivotOf(type: EntityType | string, value: string, caseReference: string): Pivot | null {
  const declaration = SEARCH_KINDS.map((kind) => SEARCH_KIND_DECLARATIONS[kind]).find((d) =>
    d.pivot?.entities.includes(type),
  );
  const pivot = declaration?.pivot;
  if (!declaration || !pivot) return null;
  const request = pivot.request(value, type);
  return {
    kind: declaration.kind,
    action: pivot.action(type),
    method: request.method,
    path: request.path,
    ...(request.query ? { query: { ...request.query, case_reference: caseReference } } : {}),
    ...(request.body ? { body: { ...request.body, case_reference: caseReference } } : {}),
    liveOnly: pivot.liveOnly,
  };
}

/** A search a value on a lookup's profile leads to: its kind and what its button says. */
export interface ProfilePivot {
  kind: SearchKind;
  action: string;
}

/**
 * The searches a merged value of a phone or e-mail profile offers, by its attribute: the kinds whose
 * declaration names the attribute's entity and is offered from a profile (`pivot.fromProfile`), so a
 * 'Usernames' value offers the username lookup.
 */
export function profilePivots(attribute: string): ProfilePivot[] {
  const entity = attributeEntity(attribute);
  if (!entity) return [];
  return SEARCH_KINDS.flatMap((kind) => {
    const pivot = SEARCH_KIND_DECLARATIONS[kind].pivot;
    return pivot?.fromProfile && pivot.entities.includes(entity)
      ? [{ kind, action: pivot.action(entity) }]
      : [];
  });
}
