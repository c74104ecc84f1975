/** Who changes the units: a signed-in user (the access policy decides what they may do) or an operator at the CLI. */
import type { Actor } from '../../access/policy.ts';
import type { Acting } from '../admin/users.ts';
import type { AuditEntry } from '../audit/service.ts';

export interface Who {
  /** The signed-in caller; null for an operator at the command line, who may do what an admin may. */
  actor: Actor | null;
  acting: Acting;
}

/** The audit row of a change to the units: who, what, which unit, and what changed. */
export const auditUnit = (
  who: Who,
  action: string,
  target: string,
  details: Record<string, unknown>,
): AuditEntry => ({
  action,
  outcome: 'success',
  user: who.acting.actor,
  client: who.acting.client ?? null,
  target,
  details: { ...details, ...who.acting.details },
});
