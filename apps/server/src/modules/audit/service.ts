import type { AuditOutcome } from '@footprint/domain';
import type { Executor } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';

export type { AuditOutcome };

/** Who acted: a signed-in user, or an operator at the command line (id null, email 'cli'). */
export interface AuditActor {
  id: string | null;
  email: string;
}

/** The operator commands write their audit rows as this actor; details name the OS user. */
export const CLI_ACTOR: AuditActor = { id: null, email: 'cli' };

export interface AuditEntry {
  action: string;
  outcome: AuditOutcome;
  user?: AuditActor | null;
  client?: Pick<ClientContext, 'ip' | 'deviceId' | 'apiKey'> | null;
  target?: string | null;
  cost?: number | null;
  caseReference?: string | null;
  details?: Record<string, unknown>;
}

/** A row written for a request made with an API key names the key (docs/api.md, "Audit"). */
export function withApiKey(
  details: Record<string, unknown> | undefined,
  apiKey: ClientContext['apiKey'],
): Record<string, unknown> | undefined {
  if (!apiKey) return details;
  return { ...details, api_key_id: apiKey.id, api_key_name: apiKey.name };
}

/**
 * Writes one row of the audit trail. Accountability is part of the product: every sign-in, lookup,
 * report, credit change and admin action is attributable to a person, a time and a query. The
 * table is append-only: the database refuses UPDATE, DELETE and TRUNCATE on it, and its chain
 * trigger gives every row its id, prev_hash and hash (modules/audit/chain.ts).
 *
 * In a transaction, write the audit rows last: the chain's lock is held from the insert to the
 * commit, so a row lock waited for after it could deadlock with another audit writer.
 */
export async function recordAudit(db: Executor, entry: AuditEntry | AuditEntry[]): Promise<void> {
  const entries = Array.isArray(entry) ? entry : [entry];
  if (entries.length === 0) return;
  await auditInsert(db, entries);
}

/**
 * The INSERT of audit rows, not yet run: for a statement that writes them together with another row
 * (`with … (insert …) insert into audit_events …`), one round trip and atomic without a transaction.
 */
export function auditInsert(db: Executor, entries: AuditEntry[]) {
  return db.insert(auditEvents).values(
    entries.map((e) => ({
      action: e.action,
      outcome: e.outcome,
      userId: e.user?.id ?? null,
      actorEmail: e.user?.email ?? null,
      ip: e.client?.ip ?? null,
      deviceId: e.client?.deviceId ?? null,
      target: e.target ?? null,
      cost: e.cost ?? null,
      caseReference: e.caseReference ?? null,
      details: withApiKey(e.details, e.client?.apiKey) ?? null,
    })),
  );
}
