import { setTimeout as delay } from 'node:timers/promises';
import { type LoginRequest, messages, type OtpRequiredResponse, type TokenResponse } from '@footprint/domain';
import type { ClientContext } from '../../http/context.ts';
import { accountBlocked, validationError } from '../../http/errors.ts';
import { verifyAgainstNothing, verifyPassword } from '../../security/passwords.ts';
import { accountAtIp } from '../../security/rate-limit.ts';
import { recordAudit } from '../audit/service.ts';
import { findUserByEmail } from '../users/repository.ts';
import type { Otp } from './otp.ts';
import type { Sessions } from './sessions.ts';
import { type AuthDeps, authAudit as audit } from './types.ts';

export type LoginOutcome =
  | { kind: 'token'; body: TokenResponse }
  | { kind: 'otp'; body: OtpRequiredResponse };

/**
 * Sign-in with e-mail and password: failures are limited per address and per account and address,
 * an account under attack only slows down (security/rate-limit.ts), then a session for a trusted
 * device or a mailed code for any other.
 */
export function createLogin(deps: Pick<AuthDeps, 'db' | 'limits'>, otp: Otp, sessions: Sessions) {
  const { db, limits } = deps;
  const invalidCredentials = () => validationError({ email: [messages.login.invalidCredentials] });

  return async function login(input: LoginRequest, client: ClientContext): Promise<LoginOutcome> {
    const email = input.email;
    const pair = accountAtIp(email, client.ip);
    // Only failures are counted, and only against the address that made them (and its pair with
    // the account): a right password from another address is never refused for someone else's.
    await limits.check('loginFailuresPerIp', client.ip);
    await limits.check('loginFailuresPerAccountIp', pair);

    const user = await findUserByEmail(db, email);
    const trusted = user ? await otp.isTrusted(user.id, client.deviceId) : false;
    // Across all addresses the account only slows down, and a device it trusts never waits.
    if (!trusted) {
      const wait = limits.slowdownMs(await limits.spent('loginFailuresPerAccount', email));
      if (wait > 0) await delay(wait);
    }
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstNothing(input.password);
    if (!user || !ok) {
      await Promise.all([
        limits.count('loginFailuresPerIp', client.ip),
        limits.count('loginFailuresPerAccountIp', pair),
        limits.count('loginFailuresPerAccount', email),
      ]);
      await recordAudit(
        db,
        audit('auth.login', 'failure', { user, email }, client, {
          reason: user ? 'wrong_password' : 'unknown_account',
        }),
      );
      throw invalidCredentials();
    }
    // The account-wide counter is left to expire: the owner signing in gives a guesser no fresh start.
    await limits.reset('loginFailuresPerAccountIp', pair);
    // Only now, with the password proven, may the answer say that the account waits or was refused.
    if (user.status !== 'active') {
      await recordAudit(
        db,
        audit('auth.login', 'denied', { user }, client, { reason: `account_${user.status}` }),
      );
      throw accountBlocked(user.status);
    }

    if (trusted) {
      await otp.touchDevice(user.id, client.deviceId!);
      const events = [audit('auth.login', 'success', { user }, client, { via: 'trusted_device' })];
      return { kind: 'token', body: await sessions.issueToken(user, client, events) };
    }
    const expiresAt = await otp.startChallenge(user, client.deviceId);
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
  };
}
