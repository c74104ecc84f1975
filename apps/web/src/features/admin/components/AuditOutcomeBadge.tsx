import { messages } from '@footprint/domain';
import { outcomeTone } from '../format.ts';

const a = messages.admin.audit;

export function AuditOutcomeBadge({ outcome }: { outcome: string }) {
  return (
    <span className={`status-badge whitespace-nowrap ${outcomeTone(outcome)}`}>
      {a.outcomes[outcome] ?? outcome}
    </span>
  );
}
