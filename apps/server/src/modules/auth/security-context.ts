import { messages, type SecurityOverview } from '@footprint/domain';
import { and, isNull } from 'drizzle-orm';
import { own } from '../../access/policy.ts';
import { otpChallenges, type UserRow } from '../../db/schema.ts';
import { validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { forgetSessions } from '../../http/session-cache.ts';
import { verifyPassword } from '../../security/passwords.ts';
import { recordAudit } from '../audit/service.ts';
import { isSecondFactorRequired } from '../settings/service.ts';
import type { Factors } from './factors.ts';
import { type Passkeys, presentPasskey } from './passkeys.ts';
import type { TrustedDevices } from './trusted-devices.ts';
import { type AuthDeps, authAudit as audit, clockOf } from './types.ts';

/**
 * What the Security page's actions share (security.ts composes them): the factors, and the checks
 * that guard every change that weakens the account.
 */
export function createSecurityContext(
  deps: AuthDeps,
  parts: { factors: Factors; passkeys: Passkeys; devices: TrustedDevices },
) {
  const { db, limits } = deps;
  const { factors, passkeys, devices } = parts;
  const now = clockOf(deps);

  async function overview(user: UserRow, client: ClientContext): Promise<SecurityOverview> {
    const enrolled = await factors.enrolled(db, user.id);
    const required = await isSecondFactorRequired(db);
    return {
      second_factor_required: required,
      setup_required: required && !enrolled.any,
      totp: { enabled: enrolled.totp, enabled_at: enrolled.totpSince?.toISOString() ?? null },
      recovery_codes_left: await factors.recoveryCodesLeft(db, user.id),
      passkeys: (await passkeys.ofUser(user.id)).map(presentPasskey),
      trusted_devices: await devices.list(user.id, client.deviceId),
    };
  }

  /** The password again, for changes that weaken the account; wrong tries count as second-factor failures. */
  async function confirmPassword(user: UserRow, password: string, action: string, client: ClientContext) {
    await limits.check('secondFactorFailuresPerAccount', user.id);
    if (await verifyPassword(user.passwordHash, password)) return;
    await limits.consume('secondFactorFailuresPerAccount', user.id).catch(() => {});
    await recordAudit(db, audit(action, 'failure', { user }, client, { reason: 'wrong_password' }));
    throw validationError({ password: [messages.security.password.wrong] });
  }

  /** While the deployment requires a second factor, the last one cannot be taken away. */
  async function refuseIfLast(
    user: UserRow,
    removing: 'totp' | 'passkey',
    action: string,
    client: ClientContext,
  ) {
    if (!(await isSecondFactorRequired(db))) return;
    const enrolled = await factors.enrolled(db, user.id);
    const left =
      (enrolled.totp && removing !== 'totp' ? 1 : 0) + enrolled.passkeys - (removing === 'passkey' ? 1 : 0);
    if (left > 0) return;
    await recordAudit(db, audit(action, 'denied', { user }, client, { reason: 'last_second_factor' }));
    throw validationError({ password: [messages.security.lastFactor] });
  }

  /**
   * After the first factor is set up: recovery codes if the account has none left, and any mailed
   * sign-in code still open is closed (from now on the second factor is asked instead).
   */
  async function afterFirstFactor(userId: string): Promise<string[]> {
    await db
      .update(otpChallenges)
      .set({ consumedAt: now() })
      .where(and(own(otpChallenges, userId), isNull(otpChallenges.consumedAt)));
    if ((await factors.recoveryCodesLeft(db, userId)) > 0) return [];
    return db.transaction((tx) => factors.newRecoveryCodes(tx, userId));
  }

  /** Without any factor left, the recovery codes have nothing to recover. */
  async function afterRemoval(userId: string) {
    if (!(await factors.enrolled(db, userId)).any) await factors.removeRecoveryCodes(db, userId);
    // The account may now lack the second factor the deployment requires: checked again at once.
    forgetSessions(db);
  }

  return {
    db,
    limits,
    factors,
    passkeys,
    devices,
    now,
    overview,
    confirmPassword,
    refuseIfLast,
    afterFirstFactor,
    afterRemoval,
  };
}

export type SecurityContext = ReturnType<typeof createSecurityContext>;
