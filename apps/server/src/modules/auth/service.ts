import {
  type ForgotPasswordRequest,
  fieldMessages,
  type LoginRequest,
  messages,
  OTP_LENGTH,
  type OtpRequiredResponse,
  type RegisterRequest,
  type ResendOtpResponse,
  type ResetPasswordRequest,
  type TokenResponse,
  type User,
  type VerifyOtpRequest,
} from '@footprint/domain';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import {
  authTokens,
  otpChallenges,
  passwordResets,
  trustedDevices,
  type UserRow,
  users,
} from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { AppError, forbidden, validationError } from '../../http/errors.ts';
import { hmac, randomDigits, randomToken, safeEqual, sha256 } from '../../security/crypto.ts';
import { hashPassword, verifyAgainstNothing, verifyPassword } from '../../security/passwords.ts';
import type { RateLimits } from '../../security/rate-limit.ts';
import { type AuditEntry, recordAudit } from '../audit/service.ts';
import { applyCreditChange } from '../credits/service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { otpMail, resetMail } from '../mail/templates.ts';
import { isRegistrationEnabled } from '../settings/service.ts';
import { findUserByEmail, findUserById, presentUser } from '../users/repository.ts';

export interface AuthDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
  limits: RateLimits;
  appKey: string;
  /** Work that must not delay the answer (mail after forgot-password); errors are logged. */
  background: (task: () => Promise<void>) => void;
  now?: () => Date;
}

/** Who is asking: the IP for per-machine limits and the device id the spec's browser sends. */
export type LoginOutcome =
  | { kind: 'token'; body: TokenResponse }
  | { kind: 'otp'; body: OtpRequiredResponse };

const minutes = (n: number) => n * 60_000;

export function createAuthService(deps: AuthDeps) {
  const { db, config, mailer, limits } = deps;
  const now = deps.now ?? (() => new Date());
  const otpHash = (challengeUser: string, code: string) => hmac(deps.appKey, `${challengeUser}:${code}`);

  /**
   * The audit row of an auth event. Unknown accounts are recorded under the e-mail that was tried;
   * the trail is visible to admins only, so this reveals nothing to the person asking.
   */
  const audit = (
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

  /** A new session: the token row, the account's last sign-in time and the audit rows, together. */
  async function issueToken(
    user: UserRow,
    client: ClientContext,
    events: AuditEntry[],
  ): Promise<TokenResponse> {
    const token = randomToken();
    const expiresAt = new Date(now().getTime() + minutes(config.auth.tokenTtlMinutes));
    await db.transaction(async (tx) => {
      await tx.insert(authTokens).values({
        userId: user.id,
        tokenHash: sha256(token),
        deviceId: client.deviceId ?? null,
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 300) ?? null,
        expiresAt,
      });
      await tx.update(users).set({ lastLoginAt: now() }).where(eq(users.id, user.id));
      await recordAudit(tx, events);
    });
    return { token, expires_at: expiresAt.toISOString() };
  }

  async function isTrusted(userId: string, deviceId: string | undefined): Promise<boolean> {
    if (!deviceId) return false;
    const [row] = await db
      .select({ id: trustedDevices.id })
      .from(trustedDevices)
      .where(and(eq(trustedDevices.userId, userId), eq(trustedDevices.deviceId, deviceId)));
    return Boolean(row);
  }

  /** A new code for this user and device; earlier open codes stop working. */
  async function startOtpChallenge(user: UserRow, deviceId: string | undefined): Promise<Date> {
    const code = randomDigits(OTP_LENGTH);
    const expiresAt = new Date(now().getTime() + minutes(config.auth.otpTtlMinutes));
    await db.transaction(async (tx) => {
      await tx
        .update(otpChallenges)
        .set({ consumedAt: now() })
        .where(and(eq(otpChallenges.userId, user.id), isNull(otpChallenges.consumedAt)));
      await tx.insert(otpChallenges).values({
        userId: user.id,
        deviceId: deviceId ?? null,
        codeHash: otpHash(user.id, code),
        createdAt: now(),
        expiresAt,
      });
    });
    await mailer.send(otpMail(user.email, user.name, code, config.auth.otpTtlMinutes));
    return expiresAt;
  }

  async function latestOpenChallenge(userId: string) {
    const [row] = await db
      .select()
      .from(otpChallenges)
      .where(and(eq(otpChallenges.userId, userId), isNull(otpChallenges.consumedAt)))
      .orderBy(desc(otpChallenges.createdAt))
      .limit(1);
    return row;
  }

  const invalidCredentials = () => validationError({ email: [messages.login.invalidCredentials] });

  return {
    async login(input: LoginRequest, client: ClientContext): Promise<LoginOutcome> {
      const email = input.email;
      await limits.consume('loginPerIp', client.ip);
      await limits.check('loginFailuresPerAccount', email);

      const user = await findUserByEmail(db, email);
      const ok = user
        ? await verifyPassword(user.passwordHash, input.password)
        : await verifyAgainstNothing(input.password);
      if (!user || !ok) {
        await limits.consume('loginFailuresPerAccount', email).catch(() => {});
        await recordAudit(
          db,
          audit('auth.login', 'failure', { user, email }, client, {
            reason: user ? 'wrong_password' : 'unknown_account',
          }),
        );
        throw invalidCredentials();
      }
      await limits.reset('loginFailuresPerAccount', email);
      if (user.status !== 'active') {
        await recordAudit(
          db,
          audit('auth.login', 'denied', { user }, client, { reason: 'account_disabled' }),
        );
        throw forbidden(messages.login.accountDisabled);
      }

      if (await isTrusted(user.id, client.deviceId)) {
        await db
          .update(trustedDevices)
          .set({ lastSeenAt: now() })
          .where(and(eq(trustedDevices.userId, user.id), eq(trustedDevices.deviceId, client.deviceId!)));
        const events = [audit('auth.login', 'success', { user }, client, { via: 'trusted_device' })];
        return { kind: 'token', body: await issueToken(user, client, events) };
      }
      const expiresAt = await startOtpChallenge(user, client.deviceId);
      await recordAudit(
        db,
        audit('auth.otp.required', 'success', { user }, client, {
          reason: client.deviceId ? 'new_device' : 'no_device_id',
          otp_expires_at: expiresAt.toISOString(),
        }),
      );
      return {
        kind: 'otp',
        body: {
          otp_required: true,
          email: user.email,
          otp_expires_at: expiresAt.toISOString(),
          message: messages.login.otpSent,
        },
      };
    },

    async verifyOtp(input: VerifyOtpRequest, client: ClientContext): Promise<TokenResponse> {
      await limits.consume('otpPerIp', client.ip);
      await limits.check('otpFailuresPerAccount', input.email);
      let user: UserRow | undefined;
      const wrong = async (message: string = messages.otp.wrong) => {
        await limits.consume('otpFailuresPerAccount', input.email).catch(() => {});
        await recordAudit(
          db,
          audit('auth.otp.verify', 'failure', { user, email: input.email }, client, { reason: message }),
        );
        return validationError({ otp: [message] });
      };

      user = await findUserByEmail(db, input.email);
      const challenge = user ? await latestOpenChallenge(user.id) : undefined;
      if (!user || !challenge) throw await wrong();
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
          audit('auth.otp.verify', 'denied', { user }, client, { reason: 'account_disabled' }),
        );
        throw forbidden(messages.login.accountDisabled);
      }

      await limits.reset('otpFailuresPerAccount', input.email);
      // The device that proved the code is the one trusted: the header of this request.
      const deviceId = client.deviceId ?? challenge.deviceId ?? undefined;
      if (deviceId) {
        await db
          .insert(trustedDevices)
          .values({ userId: user.id, deviceId })
          .onConflictDoUpdate({
            target: [trustedDevices.userId, trustedDevices.deviceId],
            set: { lastSeenAt: now() },
          });
      }
      if (!user.emailVerifiedAt) {
        await db.update(users).set({ emailVerifiedAt: now() }).where(eq(users.id, user.id));
      }
      const trusted = { ...client, deviceId };
      return issueToken(user, trusted, [
        audit('auth.otp.verify', 'success', { user }, trusted, { device_trusted: Boolean(deviceId) }),
        audit('auth.login', 'success', { user }, trusted, { via: 'otp' }),
      ]);
    },

    async resendOtp(email: string, client: ClientContext): Promise<ResendOtpResponse> {
      await limits.consume('resendPerIp', client.ip);
      const cooldown = config.auth.otpResendCooldownSeconds;
      const user = await findUserByEmail(db, email);
      const challenge = user && user.status === 'active' ? await latestOpenChallenge(user.id) : undefined;
      if (user && challenge) {
        const waited = (now().getTime() - challenge.createdAt.getTime()) / 1000;
        if (waited < cooldown) {
          const seconds = Math.ceil(cooldown - waited);
          await recordAudit(db, audit('auth.otp.resend', 'denied', { user }, client, { reason: 'cooldown' }));
          throw new AppError(
            429,
            'otp_cooldown',
            messages.otp.cooldown(seconds),
            { retry_after: seconds },
            {
              'retry-after': String(seconds),
            },
          );
        }
        const expiresAt = await startOtpChallenge(user, challenge.deviceId ?? undefined);
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
              ? 'nothing_pending'
              : 'account_disabled'
            : 'unknown_account',
        }),
      );
      // No account or nothing pending: the same answer, so the endpoint reveals nothing.
      return {
        message: messages.otp.resent,
        otp_expires_at: new Date(now().getTime() + minutes(config.auth.otpTtlMinutes)).toISOString(),
      };
    },

    async register(input: RegisterRequest & { email: string }, client: ClientContext): Promise<User> {
      if (
        !(await isRegistrationEnabled(db, { registrationEnabled: config.auth.registrationEnabledDefault }))
      ) {
        await recordAudit(
          db,
          audit('auth.register', 'denied', { email: input.email }, client, {
            reason: 'registration_disabled',
          }),
        );
        throw forbidden(messages.register.disabled);
      }
      await limits.consume('registerPerIp', client.ip);
      const taken = async () => {
        await recordAudit(
          db,
          audit('auth.register', 'failure', { email: input.email }, client, { reason: 'email_taken' }),
        );
        return validationError({ email: [fieldMessages.taken('email')] });
      };
      if (await findUserByEmail(db, input.email)) throw await taken();
      const passwordHash = await hashPassword(input.password);
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(users)
            .values({
              name: input.name.trim(),
              email: input.email,
              passwordHash,
              appMode: 'trial',
              role: 'user',
            })
            .returning();
          if (!created) throw new Error('user insert returned nothing');
          if (config.auth.trialCredits > 0) {
            created.credits = await applyCreditChange(tx, {
              userId: created.id,
              delta: config.auth.trialCredits,
              kind: 'grant',
              reason: 'Trial credit grant on registration',
            });
          }
          await recordAudit(
            tx,
            audit('auth.register', 'success', { user: created }, client, {
              app_mode: created.appMode,
              credits: created.credits,
            }),
          );
          return created;
        });
        return presentUser(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw await taken();
        throw error;
      }
    },

    async forgotPassword(input: ForgotPasswordRequest & { email: string }, client: ClientContext) {
      await limits.consume('forgotPerIp', client.ip);
      await limits.consume('forgotPerAccount', input.email);
      // Answer at once and do the work afterwards, so timing says nothing about the account.
      deps.background(async () => {
        const user = await findUserByEmail(db, input.email);
        if (user?.status !== 'active') {
          await recordAudit(
            db,
            audit('auth.password.forgot', 'failure', { user, email: input.email }, client, {
              reason: user ? 'account_disabled' : 'unknown_account',
            }),
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
      await limits.consume('resetPerIp', client.ip);
      const user = await findUserByEmail(db, input.email);
      const invalid = async () => {
        await recordAudit(
          db,
          audit('auth.password.reset', 'failure', { user, email: input.email }, client, {
            reason: user ? 'invalid_or_expired_token' : 'unknown_account',
          }),
        );
        return validationError({ email: [messages.reset.invalidToken] });
      };
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
              eq(passwordResets.userId, user.id),
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
          .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
        const revoked = await tx
          .update(authTokens)
          .set({ revokedAt: now() })
          .where(and(eq(authTokens.userId, user.id), isNull(authTokens.revokedAt)))
          .returning({ id: authTokens.id });
        await recordAudit(
          tx,
          audit('auth.password.reset', 'success', { user }, client, { sessions_revoked: revoked.length }),
        );
        return true;
      });
      if (!done) throw await invalid();
      return { status: messages.reset.status };
    },

    async logout(tokenHash: string | undefined, client: ClientContext) {
      if (tokenHash) {
        const [revoked] = await db
          .update(authTokens)
          .set({ revokedAt: now() })
          .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt)))
          .returning({ id: authTokens.id, userId: authTokens.userId });
        const user = revoked ? await findUserById(db, revoked.userId) : undefined;
        if (user) {
          await recordAudit(db, audit('auth.logout', 'success', { user }, client, { token_id: revoked!.id }));
        }
      }
      return { message: messages.logout.done };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
