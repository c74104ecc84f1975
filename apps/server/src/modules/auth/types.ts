import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import type { PasswordPolicy } from '../../security/password-policy.ts';
import type { RateLimits } from '../../security/rate-limit.ts';
import type { AuditEntry } from '../audit/service.ts';
import type { Mailer } from '../mail/mailer.ts';

export interface AuthDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
  limits: RateLimits;
  /** The rule every new password meets (security/password-policy.ts). */
  passwordPolicy: PasswordPolicy;
  appKey: string;
  /** Work that must not delay the answer (mail after forgot-password); errors are logged. */
  background: (task: () => Promise<void>) => void;
  now?: () => Date;
}

export const minutes = (n: number) => n * 60_000;

export const clockOf = (deps: Pick<AuthDeps, 'now'>) => deps.now ?? (() => new Date());

/**
 * The audit row of an auth event. Unknown accounts are recorded under the e-mail that was tried;
 * the trail is visible to admins only, so this reveals nothing to the person asking.
 */
export const authAudit = (
  action: string,
  outcome: AuditEntry['outcome'],
  who: { user?: UserRow | undefined; email?: string },
  client: ClientContext,
  details?: Record<string, unknown>,
): AuditEntry => ({
  action,
  outcome,
  user: who.user ? { id: who.user.id, email: who.user.email } : { id: null, email: who.email ?? '' },
  client,
  target: who.user?.id ?? null,
  ...(details ? { details } : {}),
});

export function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
