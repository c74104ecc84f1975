import { type AuditEvent, messages } from '@footprint/domain';
import { auditTarget } from '../format.ts';

const t = messages.admin;
const a = t.audit;

/** A search's query as typed, and under it, muted, its target where that reads differently. */
export function AuditTargetCell({ event }: { event: AuditEvent }) {
  const { shown, matched } = auditTarget(event);
  return (
    <>
      <span className={`cell-clip ${event.query_typed ? '' : 'font-mono text-xs'}`} title={shown ?? ''}>
        {shown ?? t.none}
      </span>
      {matched && (
        <span className="cell-clip font-mono text-xs text-muted" title={matched}>
          {a.normalized(matched)}
        </span>
      )}
    </>
  );
}
