import { type AnalysisAttribute, messages } from '@footprint/domain';
import { useId } from 'react';
import type { ProfileActions } from './ActionButton.tsx';
import { ValueRow } from './ValueRow.tsx';

const t = messages.results;

export function AttributeCard({
  attribute,
  actions,
}: {
  attribute: AnalysisAttribute;
  actions: ProfileActions;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="profile-section" data-merged-attribute={attribute.attribute}>
      <h3 id={id} className="section-title justify-between">
        <span className="flex items-center gap-2">
          {attribute.attribute}
          <span className="section-count" aria-hidden="true">
            {attribute.values.length}
          </span>
        </span>
        {attribute.status === 'conflicting' && (
          <span className="status-badge status-conflict tracking-normal normal-case" title={t.conflictTitle}>
            {t.sourcesDisagree}
          </span>
        )}
      </h3>
      <ul className="divide-y divide-line/60">
        {attribute.values.map((value) => (
          <ValueRow
            key={value.value}
            attribute={attribute.attribute}
            value={value}
            conflicting={attribute.status === 'conflicting'}
            actions={actions}
          />
        ))}
      </ul>
    </section>
  );
}
