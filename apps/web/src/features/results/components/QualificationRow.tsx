import type { Qualification } from '@footprint/domain';
import { yearSpan } from '../format.ts';
import { ExternalLink } from './ExternalLink.tsx';
import { SourceChip } from './SourceChip.tsx';

export function QualificationRow({ item }: { item: Qualification }) {
  const heading = [item.degree, item.field].filter(Boolean).join(', ');
  const period = yearSpan(item.startYear, item.endYear);
  return (
    <li className="entry-row">
      <div className="min-w-0 flex-1">
        <span className="entry-value">{heading || item.school}</span>
        {heading && item.school && (
          <span className="block text-xs text-muted">
            <ExternalLink href={item.url}>{item.school}</ExternalLink>
          </span>
        )}
        {period && <span className="block text-xs text-muted tabular-nums">{period}</span>}
      </div>
      <SourceChip source={item.source} />
    </li>
  );
}
