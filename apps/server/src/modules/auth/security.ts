import { messages, type RecoveryCodesResponse, type SecurityOverview } from '@footprint/domain';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { authTokens, otpChallenges, secondFactorChallenges, type UserRow } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { forgetSessions } from '../../http/session-cache.ts';
import { verifyPassword } from '../../security/passwords.ts';
import { recordAudit } from '../audit/service.ts';
import { isSecondFactorRequired } from '../settings/service.ts';
import type { Factors } from './factors.ts';
import { type Passkeys, presentPasskey } from './passkeys.ts';
import { forgetTrustedDevices, type TrustedDevices } from './trusted-devices.ts';
import { type AuthDeps, authAudit as audit, clockOf, minutes } from './types.ts';

const REGISTRATION_TTL_MINUTES = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The signed-in side of second factors (the Security page): set up and turn off the authenticator
 * app, replace the recovery codes, add, rename and remove passkeys, see the trusted devices, and sign
 * out everywhere. Taking a factor away or replacing the recovery codes asks for the password again,
 * so a session left open is not enough to weaken the account. Every change is audited.
 */
export function createSecurity(
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
      .where(and(eq(otpChallenges.userId, userId), isNull(otpChallenges.consumedAt)));
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
    overview,

    async startTotp(user: UserRow, client: ClientContext) {
      if ((await factors.enrolled(db, user.id)).totp) {
        throw validationError({ code: [messages.security.totp.alreadyEnabled] });
      }
      const setup = await factors.startTotp(user.id, user.email);
      await recordAudit(db, audit('security.totp.setup', 'success', { user }, client));
      return setup;
    },

    async confirmTotp(user: UserRow, code: string, client: ClientContext): Promise<RecoveryCodesResponse> {
      await limits.check('secondFactorFailuresPerAccount', user.id);
      const check = await factors.checkTotp(user.id, code, { pending: true });
      if (check !== 'ok') {
        if (check !== 'not_enrolled') {
          await limits.consume('secondFactorFailuresPerAccount', user.id).catch(() => {});
        }
        await recordAudit(db, audit('security.totp.enable', 'failure', { user }, client, { reason: check }));
        const message =
          check === 'not_enrolled'
            ? (await factors.enrolled(db, user.id)).totp
              ? messages.security.totp.alreadyEnabled
              : messages.security.totp.notStarted
            : check === 'reused'
              ? messages.secondFactor.reusedCode
              : messages.secondFactor.wrongCode;
        throw validationError({ code: [message] });
      }
      await limits.reset('secondFactorFailuresPerAccount', user.id);
      const codes = await afterFirstFactor(user.id);
      await recordAudit(
        db,
        audit('security.totp.enable', 'success', { user }, client, { recovery_codes_issued: codes.length }),
      );
      return { message: messages.security.totp.confirmed, recovery_codes: codes };
    },

    async removeTotp(user: UserRow, password: string, client: ClientContext) {
      await confirmPassword(user, password, 'security.totp.disable', client);
      if (!(await factors.enrolled(db, user.id)).totp) {
        // An unfinished set-up is simply dropped.
        await factors.removeTotp(db, user.id);
        throw validationError({ code: [messages.secondFactor.notEnrolled] });
      }
      await refuseIfLast(user, 'totp', 'security.totp.disable', client);
      await factors.removeTotp(db, user.id);
      await afterRemoval(user.id);
      await recordAudit(db, audit('security.totp.disable', 'success', { user }, client));
      return { message: messages.security.totp.removed };
    },

    async regenerateRecoveryCodes(
      user: UserRow,
      password: string,
      client: ClientContext,
    ): Promise<RecoveryCodesResponse> {
      await confirmPassword(user, password, 'security.recovery_codes.regenerate', client);
      if (!(await factors.enrolled(db, user.id)).any) {
        throw validationError({ password: [messages.security.recovery.none] });
      }
      const codes = await db.transaction((tx) => factors.newRecoveryCodes(tx, user.id));
      await recordAudit(db, audit('security.recovery_codes.regenerate', 'success', { user }, client));
      return { message: messages.security.recovery.regenerated, recovery_codes: codes };
    },

    /** The options for navigator.credentials.create; the challenge is kept for five minutes. */
    async passkeyRegistrationOptions(user: UserRow) {
      const options = await passkeys.registrationOptions(user);
      await db.transaction(async (tx) => {
        await tx
          .update(secondFactorChallenges)
          .set({ consumedAt: now() })
          .where(
            and(
              eq(secondFactorChallenges.userId, user.id),
              eq(secondFactorChallenges.purpose, 'passkey_registration'),
              isNull(secondFactorChallenges.consumedAt),
            ),
          );
        await tx.insert(secondFactorChallenges).values({
          userId: user.id,
          purpose: 'passkey_registration',
          webauthnChallenge: options.challenge,
          createdAt: now(),
          expiresAt: new Date(now().getTime() + minutes(REGISTRATION_TTL_MINUTES)),
        });
      });
      return options as unknown as Record<string, unknown>;
    },

    async addPasskey(user: UserRow, input: { name: string; response: unknown }, client: ClientContext) {
      const [open] = await db
        .select()
        .from(secondFactorChallenges)
        .where(
          and(
            eq(secondFactorChallenges.userId, user.id),
            eq(secondFactorChallenges.purpose, 'passkey_registration'),
            isNull(secondFactorChallenges.consumedAt),
            gt(secondFactorChallenges.expiresAt, now()),
          ),
        )
        .orderBy(desc(secondFactorChallenges.createdAt))
        .limit(1);
      // The challenge answers one registration, right or wrong.
      const [taken] = open
        ? await db
            .update(secondFactorChallenges)
            .set({ consumedAt: now() })
            .where(and(eq(secondFactorChallenges.id, open.id), isNull(secondFactorChallenges.consumedAt)))
            .returning({ challenge: secondFactorChallenges.webauthnChallenge })
        : [];
      const credential = taken?.challenge
        ? await passkeys.verifyRegistration(input.response, taken.challenge)
        : undefined;
      if (!credential) {
        await recordAudit(
          db,
          audit('security.passkey.add', 'failure', { user }, client, {
            reason: taken ? 'not_verified' : 'no_open_challenge',
          }),
        );
        throw validationError({ response: [messages.security.passkeys.failed] });
      }
      const first = !(await factors.enrolled(db, user.id)).any;
      const row = await passkeys.save(db, user.id, input.name, credential);
      if (!row) {
        await recordAudit(
          db,
          audit('security.passkey.add', 'failure', { user }, client, { reason: 'duplicate' }),
        );
        throw validationError({ response: [messages.security.passkeys.duplicate] });
      }
      const codes = first ? await afterFirstFactor(user.id) : [];
      await recordAudit(
        db,
        audit('security.passkey.add', 'success', { user }, client, {
          passkey_id: row.id,
          name: row.name,
          recovery_codes_issued: codes.length,
        }),
      );
      return {
        message: messages.security.passkeys.added,
        passkey: presentPasskey(row),
        recovery_codes: codes,
      };
    },

    async renamePasskey(user: UserRow, id: string, name: string, client: ClientContext) {
      const row = UUID.test(id) ? await passkeys.rename(user.id, id, name) : undefined;
      if (!row) throw notFound(messages.security.passkeys.notFound);
      await recordAudit(
        db,
        audit('security.passkey.rename', 'success', { user }, client, { passkey_id: row.id, name }),
      );
      return presentPasskey(row);
    },

    async removePasskey(user: UserRow, id: string, password: string, client: ClientContext) {
      const mine = UUID.test(id) ? (await passkeys.ofUser(user.id)).find((row) => row.id === id) : undefined;
      if (!mine) throw notFound(messages.security.passkeys.notFound);
      await confirmPassword(user, password, 'security.passkey.remove', client);
      await refuseIfLast(user, 'passkey', 'security.passkey.remove', client);
      const row = await passkeys.remove(db, user.id, id);
      if (!row) throw notFound(messages.security.passkeys.notFound);
      await afterRemoval(user.id);
      await recordAudit(
        db,
        audit('security.passkey.remove', 'success', { user }, client, { passkey_id: row.id, name: row.name }),
      );
      return { message: messages.security.passkeys.removed };
    },

    /** Every session (this one too) and every trusted device of the account end now. */
    async signOutEverywhere(user: UserRow, client: ClientContext) {
      await db.transaction(async (tx) => {
        const revoked = await tx
          .update(authTokens)
          .set({ revokedAt: now() })
          .where(and(eq(authTokens.userId, user.id), isNull(authTokens.revokedAt)))
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
      forgetSessions(db);
      return { message: messages.security.everywhere.done };
    },
  };
}

export type Security = ReturnType<typeof createSecurity>;
