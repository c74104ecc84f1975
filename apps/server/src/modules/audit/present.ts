import type { AuditEvent } from '@footprint/domain';
import type { auditEvents } from '../../db/schema.ts';

/** A text value of a row's details, or null. */
const textOf = (details: Record<string, unknown> | null, key: string): string | null =>
  typeof details?.[key] === 'string' ? details[key] : null;

/**
 * One row of the audit trail as the admin API and the CSV export show it. A search's row names its
 * query as typed and as matched (`details.query_typed`, `details.query`, written since 0010).
 */
export const presentAuditEvent = (row: typeof auditEvents.$inferSelect): AuditEvent => {
  const details = (row.details as Record<string, unknown> | null) ?? null;
  return {
    id: row.id,
    at: row.at.toISOString(),
    user_id: row.userId,
    actor_email: row.actorEmail,
    ip: row.ip,
    device_id: row.deviceId,
    action: row.action,
    target: row.target,
    cost: row.cost,
    outcome: row.outcome,
    case_reference: row.caseReference,
    details,
    query_typed: textOf(details, 'query_typed'),
    query_normalized: textOf(details, 'query_typed') === null ? null : textOf(details, 'query'),
  };
};
