import { type ForgotPasswordRequest, messages, type ResetPasswordRequest } from '@footprint/domain';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { own } from '../../access/policy.ts';
import { authTokens, passwordResets, secondFactorChallenges, users } from '../../db/schema.ts';
import { validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { forgetSessions } from '../../http/session-cache.ts';
import { randomToken, sha256 } from '../../security/crypto.ts';
import { hashPassword } from '../../security/passwords.ts';
import { accountAtIp } from '../../security/rate-limit.ts';
import { recordAudit } from '../audit/service.ts';
import { resetMail } from '../mail/templates.ts';
import { findUserByEmail } from '../users/repository.ts';
import { forgetTrustedDevices } from './trusted-devices.ts';
import { type AuthDeps, authAudit as audit, clockOf, minutes } from './types.ts';

/** Forgotten passwords: a mailed single-use link, and the reset that revokes every session. */
export function createPasswordReset(deps: AuthDeps) {
  const { db, config, mailer, limits } = deps;
  const now = clockOf(deps);

  return {
    async forgotPassword(input: ForgotPasswordRequest & { email: string }, client: ClientContext) {
      // Limited per address and per account and address: another address's requests never refuse
      // the owner's.
      await limits.consume('forgotPerIp', client.ip);
      await limits.consume('forgotPerAccountIp', accountAtIp(input.email, client.ip));
      // Answer at once and do the work afterwards, so timing says nothing about the account.
      deps.background(async () => {
        const user = await findUserByEmail(db, input.email);
        if (user?.status !== 'active') {
          await recordAudit(
            db,
            audit('auth.password.forgot', 'failure', { user, email: input.email }, client, {
              reason: user ? `account_${user.status}` : 'unknown_account',
            }),
          );
          return;
        }
        // A flood of requests from many addresses must not flood the owner's inbox. Beyond the quota
        // nothing is mailed, and nothing is lost: the links mailed in the last minutes still work.
        if (!(await limits.count('forgotMailsPerAccount', user.id))) {
          await recordAudit(
            db,
            audit('auth.password.forgot', 'denied', { user }, client, { reason: 'mail_quota' }),
          );
          return;
        }
        const token = randomToken();
        await db.insert(passwordResets).values({
          userId: user.id,
          tokenHash: sha256(token),
          expiresAt: new Date(now().getTime() + minutes(config.auth.resetTokenTtlMinutes)),
        });
        const link = `${config.appUrl}/password-reset/${token}?email=${encodeURIComponent(user.email)}`;
        await mailer.send(resetMail(user.email, user.name, link, config.auth.resetTokenTtlMinutes));
        await recordAudit(
          db,
          audit('auth.password.forgot', 'success', { user }, client, { link_sent: true }),
        );
      });
      return { status: messages.forgot.status };
    },

    async resetPassword(input: ResetPasswordRequest & { email: string }, client: ClientContext) {
      // Only failed resets count, and only against the address that made them.
      await limits.check('resetFailuresPerIp', client.ip);
      const user = await findUserByEmail(db, input.email);
      const invalid = async () => {
        await limits.count('resetFailuresPerIp', client.ip);
        await recordAudit(
          db,
          audit('auth.password.reset', 'failure', { user, email: input.email }, client, {
            reason: user ? 'invalid_or_expired_token' : 'unknown_account',
          }),
        );
        return validationError({ email: [messages.reset.invalidToken] });
      };
      // The new password's rule first, like the form's other field errors: it says nothing of the token.
      const refused = await deps.passwordPolicy.check(input.password);
      if (refused) throw validationError({ password: [refused] });
      if (!user) throw await invalid();
      const passwordHash = await hashPassword(input.password);
      const done = await db.transaction(async (tx) => {
        // Mark used in the same statement that checks it, so a token works exactly once.
        const [reset] = await tx
          .update(passwordResets)
          .set({ usedAt: now() })
          .where(
            and(
              eq(passwordResets.tokenHash, sha256(input.token)),
              own(passwordResets, user.id),
              isNull(passwordResets.usedAt),
              gt(passwordResets.expiresAt, now()),
            ),
          )
          .returning({ id: passwordResets.id });
        if (!reset) return false;
        await tx.update(users).set({ passwordHash, updatedAt: now() }).where(eq(users.id, user.id));
        // Other open reset links and every session die with the old password.
        await tx
          .update(passwordResets)
          .set({ usedAt: now() })
          .where(and(own(passwordResets, user.id), isNull(passwordResets.usedAt)));
        const revoked = await tx
          .update(authTokens)
          .set({ revokedAt: now() })
          .where(and(own(authTokens, user.id), isNull(authTokens.revokedAt)))
          .returning({ id: authTokens.id });
        // A trusted device proved itself to the old password's holder: trust starts again, and a
        // second step begun with the old password cannot be finished.
        const devicesForgotten = await forgetTrustedDevices(tx, user.id);
        await tx
          .update(secondFactorChallenges)
          .set({ consumedAt: now() })
          .where(and(own(secondFactorChallenges, user.id), isNull(secondFactorChallenges.consumedAt)));
        await recordAudit(
          tx,
          audit('auth.password.reset', 'success', { user }, client, {
            sessions_revoked: revoked.length,
            trusted_devices_revoked: devicesForgotten,
          }),
        );
        return true;
      });
      if (!done) throw await invalid();
      forgetSessions(db);
      return { status: messages.reset.status };
    },
  };
}
