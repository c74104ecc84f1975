import {
  messages,
  type SecondFactorMethod,
  type SecondFactorRequest,
  type SecondFactorRequiredResponse,
  type TokenResponse,
} from '@footprint/domain';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { secondFactorChallenges, type UserRow } from '../../db/schema.ts';
import { accountBlocked, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { randomToken, sha256 } from '../../security/crypto.ts';
import { recordAudit } from '../audit/service.ts';
import { findUserById } from '../users/repository.ts';
import type { Factors } from './factors.ts';
import type { Passkeys } from './passkeys.ts';
import type { Sessions } from './sessions.ts';
import type { DeviceCookie, TrustedDevices } from './trusted-devices.ts';
import { type AuthDeps, authAudit as audit, clockOf, minutes } from './types.ts';

/** How long the second step may take after the password. */
export const SECOND_FACTOR_TTL_MINUTES = 5;

export interface SignedIn {
  body: TokenResponse;
  cookie?: DeviceCookie | undefined;
}

/**
 * The second step of a sign-in for an account with a second factor. The right password earns a
 * short-lived, single-use sign-in token (stored as its SHA-256); with it the browser shows an
 * authenticator code, a recovery code or a passkey. Each token allows a few wrong tries, and wrong
 * tries per account are limited too, so only someone who knows the password can spend them.
 */
/** The open sign-in challenge a second-factor token names, if it has not expired. */
async function openSignInChallenge(db: AuthDeps['db'], token: string, at: Date) {
  const [row] = await db
    .select()
    .from(secondFactorChallenges)
    .where(
      and(
        eq(secondFactorChallenges.tokenHash, sha256(token)),
        eq(secondFactorChallenges.purpose, 'sign_in'),
        isNull(secondFactorChallenges.consumedAt),
        gt(secondFactorChallenges.expiresAt, at),
      ),
    );
  return row;
}

const expired = () => validationError({ token: [messages.secondFactor.expired] });

/** The methods an account can finish a sign-in with. */
async function methodsOfAccount(
  db: AuthDeps['db'],
  factors: Factors,
  userId: string,
): Promise<SecondFactorMethod[]> {
  const enrolled = await factors.enrolled(db, userId);
  const left = await factors.recoveryCodesLeft(db, userId);
  return [
    ...(enrolled.totp ? (['totp'] as const) : []),
    ...(left > 0 ? (['recovery_code'] as const) : []),
    ...(enrolled.passkeys > 0 ? (['passkey'] as const) : []),
  ];
}

/** The WebAuthn options for a second-factor sign-in; each call issues a new challenge. */
async function passkeySignInOptions(
  deps: AuthDeps,
  parts: { factors: Factors; passkeys: Passkeys },
  token: string,
  client: ClientContext,
) {
  const { db, limits } = deps;
  await limits.check('secondFactorFailuresPerIp', client.ip);
  const challenge = await openSignInChallenge(db, token, clockOf(deps)());
  if (!challenge) throw expired();
  const enrolled = await parts.factors.enrolled(db, challenge.userId);
  if (enrolled.passkeys === 0) throw validationError({ passkey: [messages.secondFactor.notEnrolled] });
  const options = await parts.passkeys.authenticationOptions(challenge.userId);
  await db
    .update(secondFactorChallenges)
    .set({ webauthnChallenge: options.challenge })
    .where(eq(secondFactorChallenges.id, challenge.id));
  return options as unknown as Record<string, unknown>;
}

export function createSecondFactor(
  deps: AuthDeps,
  parts: { sessions: Sessions; factors: Factors; passkeys: Passkeys; devices: TrustedDevices },
) {
  const { db, config, limits } = deps;
  const { sessions, factors, passkeys, devices } = parts;
  const now = clockOf(deps);

  const openChallenge = (token: string) => openSignInChallenge(db, token, now());
  const methodsOf = (userId: string) => methodsOfAccount(db, factors, userId);

  return {
    methodsOf,

    /** After the right password: the sign-in token and what the login answers (403). */
    async start(user: UserRow, client: ClientContext): Promise<SecondFactorRequiredResponse> {
      const token = randomToken();
      const expiresAt = new Date(now().getTime() + minutes(SECOND_FACTOR_TTL_MINUTES));
      await db.insert(secondFactorChallenges).values({
        userId: user.id,
        purpose: 'sign_in',
        tokenHash: sha256(token),
        deviceId: client.deviceId ?? null,
        createdAt: now(),
        expiresAt,
      });
      const methods = await methodsOf(user.id);
      await recordAudit(db, audit('auth.second_factor.required', 'success', { user }, client, { methods }));
      return {
        second_factor_required: true,
        methods,
        email: user.email,
        second_factor_token: token,
        expires_at: expiresAt.toISOString(),
        message: messages.secondFactor.required,
      };
    },

    /** The WebAuthn options for this sign-in; each call issues a new challenge. */
    passkeyOptions: (token: string, client: ClientContext) =>
      passkeySignInOptions(deps, parts, token, client),

    async verify(input: SecondFactorRequest, client: ClientContext): Promise<SignedIn> {
      // Only failures count per address, so an office of officers behind one address never limits itself.
      await limits.check('secondFactorFailuresPerIp', client.ip);
      const challenge = await openChallenge(input.token);
      if (!challenge) throw expired();
      const user = await findUserById(db, challenge.userId);
      if (!user) throw expired();
      await limits.check('secondFactorFailuresPerAccount', user.id);
      const method: SecondFactorMethod =
        input.code !== undefined ? 'totp' : input.recovery_code !== undefined ? 'recovery_code' : 'passkey';
      const field = method === 'totp' ? 'code' : method;

      const fail = async (reason: string, message: string) => {
        // Count the try atomically so parallel guesses cannot exceed the limit.
        const [counted] = await db
          .update(secondFactorChallenges)
          .set({ attempts: sql`${secondFactorChallenges.attempts} + 1` })
          .where(eq(secondFactorChallenges.id, challenge.id))
          .returning({ attempts: secondFactorChallenges.attempts });
        const spent = (counted?.attempts ?? config.auth.otpMaxAttempts) >= config.auth.otpMaxAttempts;
        if (spent) {
          await db
            .update(secondFactorChallenges)
            .set({ consumedAt: now() })
            .where(eq(secondFactorChallenges.id, challenge.id));
        }
        await Promise.all([
          limits.count('secondFactorFailuresPerIp', client.ip),
          limits.count('secondFactorFailuresPerAccount', user.id),
        ]);
        await recordAudit(
          db,
          audit('auth.second_factor.verify', 'failure', { user }, client, { method, reason }),
        );
        return validationError({ [field]: [spent ? messages.secondFactor.tooManyAttempts : message] });
      };

      if (challenge.attempts >= config.auth.otpMaxAttempts) throw expired();

      let passkeyName: string | undefined;
      if (method === 'totp') {
        const check = await factors.checkTotp(user.id, input.code!);
        if (check === 'not_enrolled') throw await fail('not_enrolled', messages.secondFactor.notEnrolled);
        if (check === 'reused') throw await fail('code_reused', messages.secondFactor.reusedCode);
        if (check === 'wrong') throw await fail('wrong_code', messages.secondFactor.wrongCode);
      } else if (method === 'recovery_code') {
        if (!(await factors.useRecoveryCode(user.id, input.recovery_code!))) {
          throw await fail('wrong_recovery_code', messages.secondFactor.wrongRecoveryCode);
        }
      } else {
        const expected = challenge.webauthnChallenge;
        // A challenge answers one assertion: forget it before checking, right or wrong.
        await db
          .update(secondFactorChallenges)
          .set({ webauthnChallenge: null })
          .where(eq(secondFactorChallenges.id, challenge.id));
        const used = expected
          ? await passkeys.verifyAuthentication(user.id, input.passkey, expected)
          : undefined;
        if (!used) throw await fail('passkey_not_verified', messages.secondFactor.passkeyFailed);
        passkeyName = used.name;
      }

      // Consume exactly once even if the same answer arrives twice at the same moment.
      const [consumed] = await db
        .update(secondFactorChallenges)
        .set({ consumedAt: now() })
        .where(and(eq(secondFactorChallenges.id, challenge.id), isNull(secondFactorChallenges.consumedAt)))
        .returning({ id: secondFactorChallenges.id });
      if (!consumed) throw expired();
      if (user.status !== 'active') {
        await recordAudit(
          db,
          audit('auth.second_factor.verify', 'denied', { user }, client, {
            reason: `account_${user.status}`,
          }),
        );
        throw accountBlocked(user.status);
      }
      await limits.reset('secondFactorFailuresPerAccount', user.id);

      const device = { ...client, deviceId: client.deviceId ?? challenge.deviceId ?? undefined };
      const cookie = await devices.trust(db, user.id, device);
      const events = [
        audit('auth.second_factor.verify', 'success', { user }, device, {
          method,
          device_trusted: Boolean(cookie),
          ...(passkeyName ? { passkey: passkeyName } : {}),
        }),
        audit('auth.login', 'success', { user }, device, { via: method }),
      ];
      if (method === 'recovery_code') {
        events.unshift(
          audit('auth.recovery_code.use', 'success', { user }, device, {
            codes_left: await factors.recoveryCodesLeft(db, user.id),
          }),
        );
      }
      return { body: await sessions.issueToken(user, device, events), cookie };
    },
  };
}

export type SecondFactor = ReturnType<typeof createSecondFactor>;
