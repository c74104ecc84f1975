import {
  DETAIL_KINDS,
  type DetailKind,
  detailFacts,
  profilePivots,
  type SearchKind,
} from '@footprint/domain';
import type { ReactNode } from 'react';

/** The paid lookups and reports a value offers; each is absent where the deployment has no source for it. */
export interface ProfileActions {
  onCreditReport?: (pan: string) => void;
  /** Per detail kind, its lookup of a value. */
  onDetails?: Partial<Record<DetailKind, (value: string) => void>>;
  /** Per lookup kind, its lookup of a value (a username's username lookup: `profilePivots`). */
  onLookup?: Partial<Record<SearchKind, (value: string) => void>>;
}

/** The lookups a merged value offers: every kind its attribute leads to (`profilePivots`) that the page runs. */
export function lookupButtons(attribute: string, value: string, actions: ProfileActions): ReactNode[] {
  return profilePivots(attribute).flatMap(({ kind, action }) => {
    const open = actions.onLookup?.[kind];
    return open
      ? [<ActionButton key={kind} label={action} target={value} onClick={() => open(value)} />]
      : [];
  });
}

/**
 * The detail lookups a value offers: every detail kind whose declaration names the value's merged
 * attribute ('Vehicles') or per-source section ('rcNumbers'), in the catalogue's order.
 */
export function detailButtons(
  offer: { attribute: string } | { section: string },
  value: string,
  actions: ProfileActions,
): ReactNode[] {
  return DETAIL_KINDS.flatMap((kind) => {
    const { offeredBy, title } = detailFacts(kind);
    const offered =
      'attribute' in offer ? offeredBy.attribute === offer.attribute : offeredBy.section === offer.section;
    const open = actions.onDetails?.[kind];
    return offered && open
      ? [<ActionButton key={kind} label={title} target={value} onClick={() => open(value)} />]
      : [];
  });
}

/** A detail or report button beside a value, named with the value it opens. */
export function ActionButton({
  label,
  target,
  onClick,
}: {
  label: string;
  target: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className="btn-chip" onClick={onClick} aria-label={`${label}: ${target}`}>
      {label}
    </button>
  );
}
