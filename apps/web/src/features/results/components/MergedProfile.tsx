import { type AnalysisAttribute, messages, profileCounts } from '@footprint/domain';
import { type ReactNode, useId } from 'react';
import type { ProfileActions } from './ActionButton.tsx';
import { AttributeCard } from './AttributeCard.tsx';

/**
 * The merged profile (docs/capabilities.md, 'Merged profile and analysis'): the analysis's attributes,
 * each value once, as the PDFs print it. Each value shows every source that gave it, a corroboration
 * mark (≥ 2 independent sources), its confidence, and a conflict mark on an attribute the sources
 * disagree on; its source chips open the provenance of the value: each source's real name, when it
 * answered and whether it was live or sandbox.
 */

const t = messages.results;

/** The merged profile's heading, its one-line summary and a card per attribute. */
export function MergedProfileView({
  attributes,
  actions = {},
  children,
}: {
  attributes: AnalysisAttribute[];
  actions?: ProfileActions;
  /** What follows the attributes inside the section (the details the analysis does not weigh). */
  children?: ReactNode;
}) {
  const id = useId();
  const { facts, corroborated, conflicts } = profileCounts(attributes);
  return (
    <section aria-labelledby={id} className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={id} className="results-heading">
          {t.mergedProfile}
        </h2>
        {attributes.length > 0 && (
          <p className="text-xs text-muted">{t.mergedSummary(facts, corroborated, conflicts)}</p>
        )}
      </div>
      {attributes.length > 0 && (
        <div className="profile-columns">
          {attributes.map((attribute) => (
            <AttributeCard key={attribute.attribute} attribute={attribute} actions={actions} />
          ))}
        </div>
      )}
      {children}
    </section>
  );
}
