import type { Experience } from '@footprint/domain';
import { yearSpan } from '../format.ts';
import { ExternalLink } from './ExternalLink.tsx';
import { SourceChip } from './SourceChip.tsx';

export function ExperienceRow({ item }: { item: Experience }) {
  const period = yearSpan(item.startYear, item.endYear);
  return (
    <li className="entry-row">
      <div className="min-w-0 flex-1">
        <span className="entry-value">{item.title ?? item.company}</span>
        {item.title && item.company && (
          <span className="block text-xs text-muted">
            <ExternalLink href={item.url}>{item.company}</ExternalLink>
          </span>
        )}
        {period && <span className="block text-xs text-muted tabular-nums">{period}</span>}
      </div>
      <SourceChip source={item.source} />
    </li>
  );
}
