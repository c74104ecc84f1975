import type { AdminDecisionResponse } from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { recordAudit } from '../audit/service.ts';
import type { Mail, Mailer } from '../mail/mailer.ts';
import { approvedMail, rejectedMail } from '../mail/templates.ts';
import { presentAdminUser } from './present.ts';
import { type Acting, decideRegistration, type RegistrationDecision } from './users.ts';

export interface ApprovalDeps {
  db: Database;
  mailer: Mailer;
  /** The product's address, for the sign-in link of the approval mail. */
  appUrl: string;
  /** The trial credits an account receives when it is approved (none while it is pending). */
  trialCredits?: number;
}

/**
 * Mails the user the decision. The decision stands whatever the mail does: a failed delivery is
 * written to the audit trail and answered as `notified: false`, so the admin can tell the user.
 */
async function notify(deps: ApprovalDeps, user: UserRow, mail: Mail, acting: Acting): Promise<boolean> {
  try {
    await deps.mailer.send(mail);
    return true;
  } catch (error) {
    await recordAudit(deps.db, {
      action: 'admin.user.notify',
      outcome: 'failure',
      user: acting.actor,
      client: acting.client ?? null,
      target: user.id,
      details: {
        email: user.email,
        subject: mail.subject,
        error: error instanceof Error ? error.message.slice(0, 300) : String(error),
        ...acting.details,
      },
    });
    return false;
  }
}

/** Approve or reject a self-registered account, audited, then tell the user by e-mail. */
export async function decideAndNotify(
  deps: ApprovalDeps,
  id: string,
  decision: RegistrationDecision,
  acting: Acting,
  now: Date = new Date(),
): Promise<AdminDecisionResponse> {
  const row = await decideRegistration(deps.db, id, decision, acting, now, deps.trialCredits ?? 0);
  const mail =
    decision.kind === 'approve'
      ? approvedMail(row.email, row.name, `${deps.appUrl}/login`)
      : rejectedMail(row.email, row.name, decision.reason);
  const notified = await notify(deps, row, mail, acting);
  return { user: presentAdminUser(row), notified };
}
