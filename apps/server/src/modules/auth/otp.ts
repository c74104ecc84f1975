import { messages, OTP_LENGTH, type ResendOtpResponse, type VerifyOtpRequest } from '@footprint/domain';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { own } from '../../access/policy.ts';
import { otpChallenges, type UserRow, users } from '../../db/schema.ts';
import { accountBlocked, otpCooldown, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { hmac, randomDigits, safeEqual } from '../../security/crypto.ts';
import { accountAtIp } from '../../security/rate-limit.ts';
import { recordAudit } from '../audit/service.ts';
import { otpMail } from '../mail/templates.ts';
import { findUserByEmail } from '../users/repository.ts';
import type { Factors } from './factors.ts';
import type { SignedIn } from './second-factor.ts';
import type { Sessions } from './sessions.ts';
import type { TrustedDevices } from './trusted-devices.ts';
import { type AuthDeps, authAudit as audit, clockOf, minutes } from './types.ts';

/**
 * Devices and one-time codes: a sign-in from a device the account has not trusted yet mails a code;
 * proving it trusts that device and opens a session.
 */
/** A challenge opened by a device belongs to it; one opened without a device id to anyone with the code. */
const sameDevice = (challengeDevice: string | null, requestDevice: string | undefined) =>
  !challengeDevice || challengeDevice === requestDevice;

/** A code's hash: keyed by the app key and bound to its account. */
const otpHashOf = (appKey: string, userId: string, code: string) => hmac(appKey, `${userId}:${code}`);

/** The newest code of an account that has not been used or replaced. */
async function latestOpenOtp(db: AuthDeps['db'], userId: string) {
  const [row] = await db
    .select()
    .from(otpChallenges)
    .where(and(own(otpChallenges, userId), isNull(otpChallenges.consumedAt)))
    .orderBy(desc(otpChallenges.createdAt))
    .limit(1);
  return row;
}

/** A new code for this user and device; earlier open codes stop working. */
async function startOtpChallenge(
  deps: AuthDeps,
  now: () => Date,
  user: UserRow,
  deviceId: string | undefined,
): Promise<Date> {
  const { db, config, mailer } = deps;
  const code = randomDigits(OTP_LENGTH);
  const expiresAt = new Date(now().getTime() + minutes(config.auth.otpTtlMinutes));
  // Mailed first: with the SMTP server unreachable the sign-in answers 503 and nothing changed, the
  // codes already mailed still work and no resend cooldown started. A code mailed and then not
  // stored (the database failed in between) only never works; the sign-in answered 503.
  await mailer.send(otpMail(user.email, user.name, code, config.auth.otpTtlMinutes));
  await db.transaction(async (tx) => {
    await tx
      .update(otpChallenges)
      .set({ consumedAt: now() })
      .where(and(own(otpChallenges, user.id), isNull(otpChallenges.consumedAt)));
    await tx.insert(otpChallenges).values({
      userId: user.id,
      deviceId: deviceId ?? null,
      codeHash: otpHashOf(deps.appKey, user.id, code),
      createdAt: now(),
      expiresAt,
    });
  });
  return expiresAt;
}

export function createOtp(
  deps: AuthDeps,
  parts: { sessions: Sessions; factors: Factors; devices: TrustedDevices },
) {
  const { sessions, factors, devices } = parts;
  const { db, config, limits } = deps;
  const now = clockOf(deps);
  const otpHash = (challengeUser: string, code: string) => otpHashOf(deps.appKey, challengeUser, code);

  const latestOpenChallenge = (userId: string) => latestOpenOtp(db, userId);

  /** A new code for this user and device; earlier open codes stop working. */
  const startChallenge = (user: UserRow, deviceId: string | undefined) =>
    startOtpChallenge(deps, now, user, deviceId);

  return {
    startChallenge,

    async verifyOtp(input: VerifyOtpRequest, client: ClientContext): Promise<SignedIn> {
      const pair = accountAtIp(input.email, client.ip);
      await limits.check('otpFailuresPerIp', client.ip);
      await limits.check('otpFailuresPerAccountIp', pair);
      let user: UserRow | undefined;
      /** `counted`: the code was tried against an open challenge of this device, so it counts per account too. */
      const wrong = async (message: string = messages.otp.wrong, counted = true) => {
        await Promise.all([
          limits.count('otpFailuresPerIp', client.ip),
          counted ? limits.count('otpFailuresPerAccountIp', pair) : undefined,
        ]);
        await recordAudit(
          db,
          audit('auth.otp.verify', 'failure', { user, email: input.email }, client, {
            reason: counted ? message : 'no_open_challenge',
          }),
        );
        return validationError({ otp: [message] });
      };

      user = await findUserByEmail(db, input.email);
      // An account with a second factor signs in with it: a mailed code never stands in for it.
      const challenge =
        user && !(await factors.enrolled(db, user.id)).any ? await latestOpenChallenge(user.id) : undefined;
      // A code for nobody's open challenge, or for a challenge another device opened, is refused
      // without touching the account: an outsider who knows only the address can neither spend the
      // owner's tries nor limit them.
      if (!user || !challenge || !sameDevice(challenge.deviceId, client.deviceId)) {
        throw await wrong(messages.otp.wrong, false);
      }
      if (challenge.expiresAt.getTime() <= now().getTime()) throw await wrong(messages.otp.expired);
      if (challenge.attempts >= config.auth.otpMaxAttempts) throw await wrong(messages.otp.tooManyAttempts);

      if (!safeEqual(challenge.codeHash, otpHash(user.id, input.otp))) {
        // Count the try atomically so parallel guesses cannot exceed the limit.
        const [counted] = await db
          .update(otpChallenges)
          .set({ attempts: sql`${otpChallenges.attempts} + 1` })
          .where(eq(otpChallenges.id, challenge.id))
          .returning({ attempts: otpChallenges.attempts });
        const spent = (counted?.attempts ?? config.auth.otpMaxAttempts) >= config.auth.otpMaxAttempts;
        throw await wrong(spent ? messages.otp.tooManyAttempts : messages.otp.wrong);
      }

      // Consume exactly once even if the same code arrives twice at the same moment.
      const [consumed] = await db
        .update(otpChallenges)
        .set({ consumedAt: now() })
        .where(
          and(
            eq(otpChallenges.id, challenge.id),
            isNull(otpChallenges.consumedAt),
            sql`${otpChallenges.attempts} < ${config.auth.otpMaxAttempts}`,
          ),
        )
        .returning({ id: otpChallenges.id });
      if (!consumed) throw await wrong();
      if (user.status !== 'active') {
        await recordAudit(
          db,
          audit('auth.otp.verify', 'denied', { user }, client, { reason: `account_${user.status}` }),
        );
        throw accountBlocked(user.status);
      }

      await limits.reset('otpFailuresPerAccountIp', pair);
      // The device that proved the code is the one trusted: the header of this request, and the
      // secret issued now goes back to it in a cookie.
      const deviceId = client.deviceId ?? challenge.deviceId ?? undefined;
      const trusted = { ...client, deviceId };
      const cookie = await devices.trust(db, user.id, trusted);
      if (!user.emailVerifiedAt) {
        await db.update(users).set({ emailVerifiedAt: now() }).where(eq(users.id, user.id));
      }
      const body = await sessions.issueToken(user, trusted, [
        audit('auth.otp.verify', 'success', { user }, trusted, { device_trusted: Boolean(cookie) }),
        audit('auth.login', 'success', { user }, trusted, { via: 'otp' }),
      ]);
      return { body, cookie };
    },

    async resendOtp(email: string, client: ClientContext): Promise<ResendOtpResponse> {
      await limits.consume('resendPerIp', client.ip);
      const cooldown = config.auth.otpResendCooldownSeconds;
      const user = await findUserByEmail(db, email);
      const open = user && user.status === 'active' ? await latestOpenChallenge(user.id) : undefined;
      // Only the device that opened the challenge may replace its code: an outsider's resend would
      // otherwise retire the code the owner is typing.
      const challenge = open && sameDevice(open.deviceId, client.deviceId) ? open : undefined;
      if (user && challenge) {
        const waited = (now().getTime() - challenge.createdAt.getTime()) / 1000;
        if (waited < cooldown) {
          const seconds = Math.ceil(cooldown - waited);
          await recordAudit(db, audit('auth.otp.resend', 'denied', { user }, client, { reason: 'cooldown' }));
          throw otpCooldown(seconds);
        }
        const expiresAt = await startChallenge(user, challenge.deviceId ?? undefined);
        await recordAudit(
          db,
          audit('auth.otp.resend', 'success', { user }, client, { otp_expires_at: expiresAt.toISOString() }),
        );
        return { message: messages.otp.resent, otp_expires_at: expiresAt.toISOString() };
      }
      await recordAudit(
        db,
        audit('auth.otp.resend', 'failure', { user, email }, client, {
          reason: user
            ? user.status === 'active'
              ? open
                ? 'other_device'
                : 'nothing_pending'
              : `account_${user.status}`
            : 'unknown_account',
        }),
      );
      // No account or nothing pending: the same answer, so the endpoint reveals nothing.
      return {
        message: messages.otp.resent,
        otp_expires_at: new Date(now().getTime() + minutes(config.auth.otpTtlMinutes)).toISOString(),
      };
    },
  };
}

export type Otp = ReturnType<typeof createOtp>;
