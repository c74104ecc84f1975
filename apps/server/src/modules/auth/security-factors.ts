/** The authenticator app, the recovery codes and signing out everywhere, for the Security page. */
import { messages, type RecoveryCodesResponse } from '@footprint/domain';
import { and, isNull } from 'drizzle-orm';
import { own } from '../../access/policy.ts';
import { authTokens, type UserRow } from '../../db/schema.ts';
import { validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { forgetSessions } from '../../http/session-cache.ts';
import { recordAudit } from '../audit/service.ts';
import type { SecurityContext } from './security-context.ts';
import { forgetTrustedDevices } from './trusted-devices.ts';
import { authAudit as audit } from './types.ts';

export async function startTotp(ctx: SecurityContext, user: UserRow, client: ClientContext) {
  if ((await ctx.factors.enrolled(ctx.db, user.id)).totp) {
    throw validationError({ code: [messages.security.totp.alreadyEnabled] });
  }
  const setup = await ctx.factors.startTotp(user.id, user.email);
  await recordAudit(ctx.db, audit('security.totp.setup', 'success', { user }, client));
  return setup;
}

export async function confirmTotp(
  ctx: SecurityContext,
  user: UserRow,
  code: string,
  client: ClientContext,
): Promise<RecoveryCodesResponse> {
  await ctx.limits.check('secondFactorFailuresPerAccount', user.id);
  const check = await ctx.factors.checkTotp(user.id, code, { pending: true });
  if (check !== 'ok') {
    if (check !== 'not_enrolled') {
      await ctx.limits.consume('secondFactorFailuresPerAccount', user.id).catch(() => {});
    }
    await recordAudit(ctx.db, audit('security.totp.enable', 'failure', { user }, client, { reason: check }));
    const message =
      check === 'not_enrolled'
        ? (await ctx.factors.enrolled(ctx.db, user.id)).totp
          ? messages.security.totp.alreadyEnabled
          : messages.security.totp.notStarted
        : check === 'reused'
          ? messages.secondFactor.reusedCode
          : messages.secondFactor.wrongCode;
    throw validationError({ code: [message] });
  }
  await ctx.limits.reset('secondFactorFailuresPerAccount', user.id);
  const codes = await ctx.afterFirstFactor(user.id);
  await recordAudit(
    ctx.db,
    audit('security.totp.enable', 'success', { user }, client, { recovery_codes_issued: codes.length }),
  );
  return { message: messages.security.totp.confirmed, recovery_codes: codes };
}

export async function removeTotp(
  ctx: SecurityContext,
  user: UserRow,
  password: string,
  client: ClientContext,
) {
  await ctx.confirmPassword(user, password, 'security.totp.disable', client);
  if (!(await ctx.factors.enrolled(ctx.db, user.id)).totp) {
    // An unfinished set-up is simply dropped.
    await ctx.factors.removeTotp(ctx.db, user.id);
    throw validationError({ code: [messages.secondFactor.notEnrolled] });
  }
  await ctx.refuseIfLast(user, 'totp', 'security.totp.disable', client);
  await ctx.factors.removeTotp(ctx.db, user.id);
  await ctx.afterRemoval(user.id);
  await recordAudit(ctx.db, audit('security.totp.disable', 'success', { user }, client));
  return { message: messages.security.totp.removed };
}

export async function regenerateRecoveryCodes(
  ctx: SecurityContext,

  user: UserRow,
  password: string,
  client: ClientContext,
): Promise<RecoveryCodesResponse> {
  await ctx.confirmPassword(user, password, 'security.recovery_codes.regenerate', client);
  if (!(await ctx.factors.enrolled(ctx.db, user.id)).any) {
    throw validationError({ password: [messages.security.recovery.none] });
  }
  const codes = await ctx.db.transaction((tx) => ctx.factors.newRecoveryCodes(tx, user.id));
  await recordAudit(ctx.db, audit('security.recovery_codes.regenerate', 'success', { user }, client));
  return { message: messages.security.recovery.regenerated, recovery_codes: codes };
}

/** Every session (this one too) and every trusted device of the account end ctx.now. */
export async function signOutEverywhere(ctx: SecurityContext, user: UserRow, client: ClientContext) {
  await ctx.db.transaction(async (tx) => {
    const revoked = await tx
      .update(authTokens)
      .set({ revokedAt: ctx.now() })
      .where(and(own(authTokens, user.id), isNull(authTokens.revokedAt)))
      .returning({ id: authTokens.id });
    const forgotten = await forgetTrustedDevices(tx, user.id);
    await recordAudit(
      tx,
      audit('auth.sign_out_everywhere', 'success', { user }, client, {
        sessions_revoked: revoked.length,
        trusted_devices_revoked: forgotten,
      }),
    );
  });
  forgetSessions(ctx.db);
  return { message: messages.security.everywhere.done };
}
