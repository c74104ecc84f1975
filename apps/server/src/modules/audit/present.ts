import type { AuditEvent } from '@footprint/domain';
import type { auditEvents } from '../../db/schema.ts';

/** One row of the audit trail as the admin API and the CSV export show it. */
export const presentAuditEvent = (row: typeof auditEvents.$inferSelect): AuditEvent => ({
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
  details: (row.details as Record<string, unknown> | null) ?? null,
});
