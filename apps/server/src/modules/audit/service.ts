import type { Executor } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';
import type { ClientContext } from '../auth/service.ts';

export type AuditOutcome = 'success' | 'failure' | 'denied';

export interface AuditEntry {
  action: string;
  outcome: AuditOutcome;
  user?: { id: string; email: string } | null;
  client?: ClientContext;
  target?: string | null;
  cost?: number | null;
  caseReference?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Writes one row of the audit trail. Accountability is part of the product: every lookup, report and
 * admin action is attributable to a person, a time and a query.
 */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    action: entry.action,
    outcome: entry.outcome,
    userId: entry.user?.id ?? null,
    actorEmail: entry.user?.email ?? null,
    ip: entry.client?.ip ?? null,
    deviceId: entry.client?.deviceId ?? null,
    target: entry.target ?? null,
    cost: entry.cost ?? null,
    caseReference: entry.caseReference ?? null,
    details: entry.details ?? null,
  });
}
